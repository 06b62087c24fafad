//! Transposes in `glow-cpu-vectorize-elementwise`: a parallel generic that reads an
//! operand across its innermost loop (NHWC -> NCHW at a model's output, the head
//! transposes around attention, ShuffleNet's channel shuffle, Swin's window
//! partitions) is tiled into square blocks — the innermost loop and the loop the
//! transposed operand reads along its last axis, 16 x 16 (or 8) elements each, every
//! other loop one step — and each block vectorized whole. The block's read becomes
//! contiguous rows of the operand and a `vector.transpose` in registers (shuffles), its
//! write contiguous rows of the result, so every cache line either side is used whole
//! by one block. Left scalar, each element is a strided load LLVM does not vectorize
//! (a 96 x 56 x 56 NHWC -> NCHW transpose ran at 0.21 ms, onnxruntime 0.10).
//!
//! A block loop that 8 does not divide (attention's key transpose at 197 or 300
//! tokens) is first split after its last whole 16 (`transform.structured.split`): the
//! blocks cover the main part, the few remaining rows or columns stay with LLVM.

use melior::ir::{
    operation::OperationLike, r#type::RankedTensorType, ShapedTypeLike, TypeLike, ValueLike,
};

/// The block side along one loop of `extent` iterations: 16 when it divides, else 8.
fn block_side(extent: i64) -> Option<i64> {
    [16, 8].into_iter().find(|side| extent % side == 0)
}

/// A transpose's blocks: the tile sizes of one block and the splits that come first,
/// `(loop, iterations of its main part)` for each block loop no side divides.
pub(super) struct TransposeTiling {
    pub sizes: Vec<i64>,
    pub splits: Vec<(usize, i64)>,
}

/// The block side along loop `dim` of `extent` iterations, recording a split in
/// `splits` when no side divides it (at least one block of 16).
fn side_or_split(dim: usize, extent: i64, splits: &mut Vec<(usize, i64)>) -> Option<i64> {
    if let Some(side) = block_side(extent) {
        return Some(side);
    }
    let main = extent / 16 * 16;
    (main > 0).then(|| {
        splits.push((dim, main));
        16
    })
}

/// Script lines splitting `target` along each of `splits` (the main part first), for
/// schedule `i`; the handle of the part the blocks then tile.
pub(super) fn split_main(
    script: &mut String,
    target: String,
    splits: &[(usize, i64)],
    i: usize,
) -> String {
    let mut target = target;
    for (k, (dim, main)) in splits.iter().enumerate() {
        target = super::split_after(script, &target, *dim, *main, &format!("%split{i}_{k}")).0;
    }
    target
}

/// The tile sizes that make each tile of `op` one transposing block, when `op` is a
/// transpose this schedule handles: every loop parallel, one result written in loop
/// order, 32-bit elements throughout (a 16 x 16 block is sixteen registers), and the
/// operands that read the innermost loop at another position than their last all
/// reading the same loop last, both loops of a multiple of 8 iterations or of at least
/// 16 (then split).
/// `dims`: the loops each operand's map reads (results last), `extents`: loop trips.
pub(super) fn transpose_tiling(
    op: melior::ir::OperationRef,
    dims: &[Vec<usize>],
    parallel: &[bool],
    extents: &[i64],
) -> Option<TransposeTiling> {
    let loops = parallel.len();
    if loops < 2 || op.result_count() != 1 || !parallel.iter().all(|p| *p) {
        return None;
    }
    let (inputs, output) = dims.split_at(dims.len() - 1);
    if !output[0].iter().copied().eq(0..loops) {
        return None;
    }
    let words = (0..op.operand_count()).all(|i| {
        op.operand(i)
            .ok()
            .and_then(|v| RankedTensorType::try_from(v.r#type()).ok())
            .is_some_and(|t| {
                let element = t.element();
                element.is_f32()
                    || melior::ir::r#type::IntegerType::try_from(element)
                        .is_ok_and(|i| i.width() == 32)
            })
    });
    if !words {
        return None;
    }
    let innermost = loops - 1;
    let mut across = None;
    for operand_dims in inputs {
        let Some(position) = operand_dims.iter().position(|d| *d == innermost) else {
            continue;
        };
        if position + 1 == operand_dims.len() {
            continue;
        }
        let last = *operand_dims.last()?;
        if across.is_some_and(|a| a != last) {
            return None;
        }
        across = Some(last);
    }
    let Some(across) = across else {
        return permuted_rows(inputs, loops, extents[innermost]).map(|sizes| TransposeTiling {
            sizes,
            splits: Vec::new(),
        });
    };
    let mut sizes = vec![1; loops];
    let mut splits = Vec::new();
    sizes[across] = side_or_split(across, extents[across], &mut splits)?;
    sizes[innermost] = side_or_split(innermost, extents[innermost], &mut splits)?;
    Some(TransposeTiling { sizes, splits })
}

/// Rows of a generic that permutes outer axes only (every operand reads the innermost
/// loop last, or not at all, and some operand reads the outer loops in another order
/// than the result: Swin's window partitions, attention's head transposes at 32 or 64
/// features a head): each row one vector, as LLVM's vectorizer leaves these loops
/// scalar behind its overlap checks. Rows of at most [`super::elementwise::MAX_ROW`]
/// elements, a multiple of 8.
fn permuted_rows(inputs: &[Vec<usize>], loops: usize, innermost: i64) -> Option<Vec<i64>> {
    let permuted = inputs.iter().any(|operand_dims| {
        operand_dims.len() == loops && !operand_dims.iter().copied().eq(0..loops)
    });
    if !permuted || innermost % 8 != 0 || innermost > super::elementwise::MAX_ROW {
        return None;
    }
    let mut sizes = vec![1; loops];
    sizes[loops - 1] = 0;
    Some(sizes)
}
