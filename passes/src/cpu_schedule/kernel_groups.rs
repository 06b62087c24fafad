//! The ops each register-tiled kernel of `glow-cpu-tile-and-vectorize` is scheduled
//! with, as groups of top-level ops of its function for [`crate::framework::isolate`]:
//! the kernel (or the packed-weight loop around it), its init's producer when the
//! init is fused or tiled with it, and its stacked epilogue. An init producer that
//! other ops use too is cloned for the kernel first, as fusing it would clone it.

use crate::framework::values::defining_op;
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, ValueLike};

/// The op of `block` that is or contains `op`.
fn top_level<'c, 'a>(
    block: BlockRef<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    let mut current = op;
    loop {
        if current.block().is_some_and(|b| b == block) {
            return Some(current);
        }
        current = current.parent_operation()?;
    }
}

/// Whether `value` has more than one use.
fn shared(value: melior::ir::Value) -> bool {
    // SAFETY: use-list traversal of a live value.
    unsafe {
        let first = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        !mlir_sys::mlirOpOperandIsNull(first)
            && !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirOpOperandGetNextUse(first))
    }
}

/// One kernel's group: `kernel`, the producer of its operand `init` (cloned when
/// shared), its `epilogue`. `None` when one of them is not under `block`.
pub(super) fn kernel_group<'c, 'a>(
    block: BlockRef<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
    init: Option<usize>,
    epilogue: bool,
) -> Option<Vec<OperationRef<'c, 'a>>> {
    let mut group = vec![top_level(block, kernel)?];
    if let Some(index) = init {
        let value = kernel.operand(index).ok()?;
        let producer = defining_op(value)?;
        let producer = if shared(value) {
            let producer_block = producer.block()?;
            // SAFETY: a clone of a live op, inserted next to it; the kernel then reads
            // the clone's result, which has the same type.
            unsafe {
                let clone = mlir_sys::mlirOperationClone(producer.to_raw());
                mlir_sys::mlirBlockInsertOwnedOperationBefore(
                    producer_block.to_raw(),
                    producer.to_raw(),
                    clone,
                );
                let result = mlir_sys::mlirOperationGetResult(clone, 0);
                mlir_sys::mlirOperationSetOperand(kernel.to_raw(), index as isize, result);
                OperationRef::from_raw(clone)
            }
        } else {
            producer
        };
        group.push(top_level(block, producer)?);
    }
    if epilogue {
        group.push(top_level(block, super::stack::epilogue_of(kernel)?)?);
    }
    Some(group)
}
