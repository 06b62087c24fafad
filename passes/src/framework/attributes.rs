//! Reading op attributes the rules need, in one place.

use melior::ir::{attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef};

/// The elements of the op's `array<i64: ...>` attribute `name`, or `None` when the op
/// has no such attribute or it has another kind.
pub fn i64_array(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    let array = DenseI64ArrayAttribute::try_from(op.attribute(name).ok()?).ok()?;
    Some(
        (0..array.len())
            .filter_map(|i| array.element(i).ok())
            .collect(),
    )
}
