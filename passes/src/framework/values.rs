//! What defines a value, asked without melior's `TryFrom` conversions: on a mismatch,
//! `OperationResult::try_from` and `BlockArgument::try_from` print the value into their
//! error, and printing verifies the op that holds it. That is slow on a large function,
//! and unsafe inside a function pass: the verifier walks ops that passes on other
//! threads are rewriting (a `glow-opt` run crashed one time in twenty that way). These
//! check the kind first, so the conversion cannot fail.

use melior::ir::{
    block::BlockArgument,
    operation::{OperationRef, OperationResult},
    TypeLike, Value, ValueLike,
};

/// `value` as the result of an op, when an op defines it.
pub fn operation_result<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationResult<'c, 'a>> {
    if value.is_operation_result() {
        OperationResult::try_from(value).ok()
    } else {
        None
    }
}

/// The op defining `value`, if an op does.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    operation_result(value).map(|result| result.owner())
}

/// `value` as a block argument, when it is one.
pub fn block_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    if value.is_block_argument() {
        BlockArgument::try_from(value).ok()
    } else {
        None
    }
}

/// `t` as a memref type, asked without a failing `MemRefType::try_from` (which prints
/// the type into its error: an AsmState per call, on every non-memref operand of the
/// instruction passes' walks).
pub fn memref_type(t: melior::ir::Type<'_>) -> Option<melior::ir::r#type::MemRefType<'_>> {
    // SAFETY: a type-kind query on a live type.
    if unsafe { mlir_sys::mlirTypeIsAMemRef(t.to_raw()) } {
        melior::ir::r#type::MemRefType::try_from(t).ok()
    } else {
        None
    }
}

/// `t` as a ranked tensor type, asked the same way.
pub fn ranked_tensor_type(
    t: melior::ir::Type<'_>,
) -> Option<melior::ir::r#type::RankedTensorType<'_>> {
    // SAFETY: a type-kind query on a live type.
    if unsafe { mlir_sys::mlirTypeIsARankedTensor(t.to_raw()) } {
        melior::ir::r#type::RankedTensorType::try_from(t).ok()
    } else {
        None
    }
}
