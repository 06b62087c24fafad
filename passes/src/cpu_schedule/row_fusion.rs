//! Row blocks of a depthwise convolution fused into the pointwise convolution that
//! reads it (the depthwise -> projection half of MobileNet's inverted residual): on one
//! thread, when the depthwise result is larger than half the L2 cache, the projection
//! (or its stacked epilogue, a residual add) is first tiled into an `scf.forall` over
//! blocks of output rows, and the projection, its init, the depthwise convolution's
//! stacked epilogue (the clip), the depthwise convolution and its init are fused into
//! that loop, in this order. Both kernels are then scheduled as before, inside it. Each
//! block of the depthwise result is read by the projection while it is still in L1 /
//! L2, where without the fusion the whole result went out to L3 and came back (a 1x1
//! convolution needs exactly the rows it writes: nothing is computed twice).
//!
//! Refused (the two kernels are scheduled apart): more than one thread (the row loop
//! would then fork and join once per block), a depthwise result that fits half the L2,
//! kernels whose register tiles are not one fusable `scf.forall` (large filters,
//! reduction blocks), a depthwise convolution without a stacked epilogue, an epilogue
//! whose result has another user or is not the projection's input, and a projection
//! that is not the next scheduled kernel.

use super::{list, stack, tiles::L2_BYTES, Scheduled};
use crate::lower_nodes::builder::tensor_info;
use crate::quantization::ir::{operand, result, users};
use melior::ir::{operation::OperationLike, OperationRef};
use std::fmt::Write;

/// Bytes of the depthwise result one row block may take: it stays in L1 while the
/// projection's register tiles read it.
const BLOCK_BYTES: i64 = 64 << 10;

/// A depthwise convolution (scheduled op `depthwise`) fused into the projection that is
/// the next scheduled op, by blocks of `rows` output rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RowGroup {
    pub depthwise: usize,
    pub rows: i64,
}

impl RowGroup {
    pub fn projection(&self) -> usize {
        self.depthwise + 1
    }
}

/// The row groups among the scheduled `ops` (`kernels[i]` is the op of `ops[i]`), for
/// code running on `threads` threads; the depthwise side of each gets empty tensors of
/// its own.
pub(super) fn row_groups(
    ops: &[Scheduled],
    kernels: &[OperationRef],
    threads: i64,
) -> Vec<RowGroup> {
    if threads != 1 {
        return Vec::new();
    }
    let mut groups: Vec<RowGroup> = Vec::new();
    for depthwise in 0..ops.len().saturating_sub(1) {
        // A projection fused here cannot be another group's depthwise convolution.
        if groups.last().is_some_and(|g| g.projection() == depthwise) {
            continue;
        }
        if let Some(rows) = block_rows(ops, kernels, depthwise) {
            // The depthwise convolution's init and epilogue write into empty tensors
            // of their own: one that CSE shares with the projection's result would
            // make the blocks write into that result, not into a block buffer.
            let d_op = kernels[depthwise];
            let init = ops[depthwise]
                .init
                .and_then(|index| operand(d_op, index))
                .and_then(crate::quantization::ir::producer);
            for owner in init.into_iter().chain(stack::epilogue_of(d_op)) {
                crate::distinct_empties::own_destination(owner);
            }
            groups.push(RowGroup { depthwise, rows });
        }
    }
    groups
}

/// The rows of a block when `ops[depthwise]` and `ops[depthwise + 1]` form a group.
fn block_rows(ops: &[Scheduled], kernels: &[OperationRef], depthwise: usize) -> Option<i64> {
    let projection = depthwise + 1;
    let (d, p) = (&ops[depthwise], &ops[projection]);
    let (d_op, p_op) = (kernels[depthwise], kernels[projection]);
    let name = |op: OperationRef| op.name().as_string_ref().as_str().unwrap_or("").to_string();
    if name(d_op) != "linalg.depthwise_conv_2d_nhwc_hwc" || name(p_op) != "linalg.conv_2d_nhwc_hwcf"
    {
        return None;
    }
    let fusable = |s: &Scheduled| s.init.is_some() && s.tiling.fusable() && !s.nested;
    if !fusable(d) || !fusable(p) || !d.epilogue {
        return None;
    }
    // The depthwise convolution's epilogue is the projection's input, used by it alone.
    let epilogue = stack::epilogue_of(d_op)?;
    let value = result(epilogue, 0)?;
    let readers = users(value);
    let [reader] = readers.as_slice() else {
        return None;
    };
    if reader.to_raw().ptr != p_op.to_raw().ptr || operand(p_op, 0)? != value {
        return None;
    }
    let (shape, _) = tensor_info(value)?;
    let [n, oh, ow, c] = shape[..] else {
        return None;
    };
    if p.output.get(1) != Some(&oh) || n * oh * ow * c * 4 <= L2_BYTES / 2 {
        return None;
    }
    let row_bytes = n * ow * c * 4;
    Some(super::tiles::largest_divisor_at_most(
        oh,
        (BLOCK_BYTES / row_bytes).max(1),
    ))
}

/// Script lines building the row loop of `group` and fusing its ops into it. `handles`
/// names each scheduled op's handle; the two kernels' entries are replaced by their
/// fused copies inside the loop, which the rest of the script schedules.
pub(super) fn fuse_rows(
    script: &mut String,
    group: RowGroup,
    ops: &[Scheduled],
    handles: &mut [String],
) {
    let any = "(!transform.any_op) -> !transform.any_op";
    let pair = "(!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)";
    let (d, p) = (group.depthwise, group.projection());
    let (Some(d_init), Some(p_init)) = (ops[d].init, ops[p].init) else {
        return;
    };
    let (dh, ph) = (handles[d].clone(), handles[p].clone());
    let _ = writeln!(
        script,
        "    %rows_d_init{d} = transform.get_producer_of_operand {dh}[{d_init}] : {any}\n    %rows_clip{d} = transform.get_consumers_of_result {dh}[0] : {any}\n    %rows_p_init{d} = transform.get_producer_of_operand {ph}[{p_init}] : {any}"
    );
    // The loop's root: the projection's stacked epilogue, else the projection.
    let output_rank = ops[p].output.len();
    let (root, root_rank) = if ops[p].epilogue {
        let _ = writeln!(
            script,
            "    %rows_root{d} = transform.get_consumers_of_result {ph}[0] : {any}"
        );
        (format!("%rows_root{d}"), output_rank)
    } else {
        (ph.clone(), ops[p].tiling.parallel.len())
    };
    let mut sizes = vec![0; root_rank];
    sizes[1] = group.rows;
    let _ = writeln!(
        script,
        "    %rows_tile{d}, %rows_loop{d}_0 = transform.structured.tile_using_forall {root} tile_sizes [{}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
        list(&sizes)
    );
    let mut fused = Vec::new();
    if ops[p].epilogue {
        fused.push((ph.clone(), format!("%rows_p{d}")));
    }
    fused.extend([
        (format!("%rows_p_init{d}"), format!("%rows_p_init_f{d}")),
        (format!("%rows_clip{d}"), format!("%rows_clip_f{d}")),
        (dh, format!("%rows_d{d}")),
        (format!("%rows_d_init{d}"), format!("%rows_d_init_f{d}")),
    ]);
    for (step, (producer, name)) in fused.iter().enumerate() {
        let _ = writeln!(
            script,
            "    {name}, %rows_loop{d}_{} = transform.structured.fuse_into_containing_op {producer} into %rows_loop{d}_{step} : {pair}",
            step + 1
        );
    }
    // Each block's slice of the depthwise result becomes a tensor of its own: one
    // block-sized buffer that every block reuses.
    let _ = writeln!(
        script,
        "    transform.apply_patterns to %rows_loop{d}_{} {{\n      transform.apply_patterns.tensor.fold_tensor_empty\n    }} : !transform.any_op",
        fused.len()
    );
    handles[d] = format!("%rows_d{d}");
    handles[p] = if ops[p].epilogue {
        format!("%rows_p{d}")
    } else {
        format!("%rows_tile{d}")
    };
}
