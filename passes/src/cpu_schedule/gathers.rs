//! What the gathers (`tensor.extract` in a payload) of a linalg.generic read, for
//! `glow-cpu-vectorize-elementwise` and `glow-stack`: byte tables (int8 lookup tables),
//! constant index tables (a resize's taps), rows of a table (an embedding lookup), or
//! anything else (left scalar).

use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::RankedTensorType,
    OperationRef, RegionLike, ShapedTypeLike, TypeLike, ValueLike,
};

/// Whether every `tensor.extract` in the payload of `op` reads an 8- or 32-bit integer
/// table of at most 256 entries (an int8 lookup table, stored widened): those vectorize
/// as gathers from the table.
pub(super) fn gathers_only_from_byte_tables(op: OperationRef) -> bool {
    let mut only_tables = true;
    op.walk(WalkOrder::PreOrder, |nested| {
        if nested.name().as_string_ref().as_str() == Ok("tensor.extract") {
            let table = nested
                .operand(0)
                .ok()
                .and_then(|t| RankedTensorType::try_from(t.r#type()).ok());
            let small_bytes = table.is_some_and(|t| {
                t.rank() == 1
                    && matches!(t.dim_size(0), Ok(melior::ir::r#type::DimSize::Static(n)) if n <= 256)
                    && t.element().is_integer()
                    && melior::ir::r#type::IntegerType::try_from(t.element())
                        .is_ok_and(|i| i.width() == 8 || i.width() == 32)
            });
            if !small_bytes {
                only_tables = false;
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    only_tables
}

/// The op defining `value`, if an op does.
fn producer<'c, 'a>(value: melior::ir::Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    crate::framework::values::defining_op(value)
}

/// The name of `op`.
fn name(op: OperationRef) -> Result<String, std::str::Utf8Error> {
    op.name().as_string_ref().as_str().map(str::to_owned)
}

/// Whether every `tensor.extract` in the payload of `op` reads at indices that are
/// constants, loop indices or elements of the generic's constant operands (index
/// tables computed at compile time: resize's taps), so the gathers read where the
/// tables say, with no index arithmetic per lane. (Gathers at run-time indices, as an
/// embedding lookup, stay scalar.)
pub(super) fn gathers_at_table_indices(op: OperationRef) -> bool {
    let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else {
        return false;
    };
    // A block argument of the body whose operand is a constant tensor.
    let constant_table = |value: melior::ir::Value| {
        crate::framework::values::block_argument(value).is_some_and(|argument| {
            argument.owner() == body
                && op
                    .operand(argument.argument_number())
                    .ok()
                    .and_then(crate::framework::values::operation_result)
                    .is_some_and(|table| {
                        table.owner().name().as_string_ref().as_str() == Ok("arith.constant")
                    })
        })
    };
    // An element of a constant table read at loop indices.
    let table_entry = |value: melior::ir::Value| {
        constant_table(value)
            || producer(value).is_some_and(|read| {
                name(read).as_deref() == Ok("tensor.extract")
                    && read
                        .operand(0)
                        .ok()
                        .and_then(producer)
                        .is_some_and(|table| name(table).as_deref() == Ok("arith.constant"))
                    && read.operands().skip(1).all(|i| {
                        producer(i).is_some_and(|p| name(p).as_deref() == Ok("linalg.index"))
                    })
            })
    };
    let table_index = |value: melior::ir::Value| {
        let Some(producer) = producer(value) else {
            return false;
        };
        match name(producer).as_deref() {
            Ok("arith.constant" | "linalg.index") => true,
            Ok("arith.index_cast") => producer.operand(0).is_ok_and(table_entry),
            _ => false,
        }
    };
    let mut from_tables = true;
    op.walk(WalkOrder::PreOrder, |nested| {
        if nested.name().as_string_ref().as_str() == Ok("tensor.extract")
            && !nested.operands().skip(1).all(table_index)
        {
            from_tables = false;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    from_tables
}

/// Whether every `tensor.extract` in the payload of `op` reads a row: either its last
/// index is the innermost loop's index (a row of a table, as an embedding lookup
/// copies, wherever its run-time index points), or its indices are outer loop indices
/// and constants (one value per row: the lookup's index). Vectorized, the row is read
/// with contiguous vector loads, where LLVM's loop vectorizer leaves the loop scalar.
pub(super) fn gathers_rows(op: OperationRef) -> bool {
    let Some(loops) = super::elementwise::parallel_iterators(op).map(|p| p.len()) else {
        return false;
    };
    let loop_index = |value: melior::ir::Value| {
        producer(value).and_then(|index| {
            (name(index).as_deref() == Ok("linalg.index"))
                .then(|| index.attribute("dim").ok())
                .flatten()
                .and_then(|d| melior::ir::attribute::IntegerAttribute::try_from(d).ok())
                .map(|d| d.value())
        })
    };
    let innermost = loops as i64 - 1;
    let outer = |value: melior::ir::Value| {
        loop_index(value).is_some_and(|d| d != innermost)
            || producer(value).is_some_and(|p| name(p).as_deref() == Ok("arith.constant"))
    };
    let mut rows = true;
    op.walk(WalkOrder::PreOrder, |nested| {
        if nested.name().as_string_ref().as_str() == Ok("tensor.extract") {
            let indices: Vec<_> = nested.operands().skip(1).collect();
            let row = indices
                .last()
                .is_some_and(|last| loop_index(*last) == Some(innermost));
            if !row && !indices.into_iter().all(outer) {
                rows = false;
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    rows
}

/// Whether the payload of `op` gathers (`tensor.extract`).
pub(crate) fn gathers(op: OperationRef) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |nested| {
        if nested.name().as_string_ref().as_str() == Ok("tensor.extract") {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}
