//! Transform scripts of `glow-pack-weights` and `glow-cpu-tile-and-vectorize` applied
//! with each kernel in a function of its own ([`crate::framework::isolate`]): the
//! kernel (or the packed-weight loop around it), its init's producer when the init is
//! fused or tiled with it, and its stacked epilogue move together. An init producer
//! that other ops use too is cloned for the kernel first, as fusing it would clone it.
//! The whole function is the payload only when the kernels do not split into
//! disjoint groups.

use crate::framework::{
    apply_transform_script,
    isolate::{isolate, top_level_in},
    values::defining_op,
    TransformFailed,
};
use crate::graph_optimize::compose_transposes::has_one_use;
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike};
use mlir_sys::MlirOperation;

/// A tagged kernel of a script and what moves with it.
pub(super) struct KernelOps {
    pub kernel: MlirOperation,
    /// Operand index of an init whose producer the script fuses or tiles.
    pub init: Option<usize>,
    /// Whether the kernel's only user, an epilogue, is scheduled with it.
    pub epilogue: bool,
    /// Whether the next kernel's group joins this one's (a row-fused pair,
    /// [`super::row_fusion`]).
    pub with_next: bool,
}

/// Applies `script` to `func` with each of `kernels` (live ops of `func`, in the order
/// the script's handles take them) isolated.
pub(super) fn apply_to_kernels(
    func: OperationRef,
    kernels: &[KernelOps],
    script: &str,
) -> Result<(), TransformFailed> {
    let block = func.region(0).ok().and_then(|region| region.first_block());
    let isolated = block.and_then(|block| {
        let mut groups: Vec<Vec<OperationRef>> = Vec::new();
        let mut joins_previous = false;
        for k in kernels {
            // SAFETY: the kernels are live ops of `func`.
            let kernel = unsafe { OperationRef::from_raw(k.kernel) };
            let group = kernel_group(block, kernel, k.init, k.epilogue)?;
            match groups.last_mut() {
                Some(previous) if joins_previous => previous.extend(group),
                _ => groups.push(group),
            }
            joins_previous = k.with_next;
        }
        let context = func.context();
        // SAFETY: the ContextRef lives in this frame for as long as the borrowed context.
        isolate(unsafe { context.to_ref() }, block, &groups)
    });
    let applied = match &isolated {
        Some(isolated) => apply_transform_script(isolated.module(), script),
        None => apply_transform_script(func, script),
    };
    if let Some(isolated) = isolated {
        isolated.restore();
    }
    applied
}

/// The op of `block` that is or contains `op`.
fn top_level<'c, 'a>(
    block: BlockRef<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    // SAFETY: the op found is a live op of `block`.
    top_level_in(block.to_raw(), op.to_raw()).map(|top| unsafe { OperationRef::from_raw(top) })
}

/// One kernel's group: `kernel`, the producer of its operand `init` (cloned when
/// shared), its `epilogue`. `None` when one of them is not under `block`.
fn kernel_group<'c, 'a>(
    block: BlockRef<'c, 'a>,
    kernel: OperationRef<'c, 'a>,
    init: Option<usize>,
    epilogue: bool,
) -> Option<Vec<OperationRef<'c, 'a>>> {
    let mut group = vec![top_level(block, kernel)?];
    if let Some(index) = init {
        let value = kernel.operand(index).ok()?;
        let producer = defining_op(value)?;
        // The kernel is one user: another means the producer is shared.
        let producer = if !has_one_use(value) {
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
