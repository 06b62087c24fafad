//! f32 matmul / batch_matmul whose shapes leave the CPU schedule only thin register
//! tiles (tiles must divide their dimension) are computed on zero-padded operands and
//! sliced back:
//! - columns `N` above 16 and no multiple of it (a classifier's 1000 classes,
//!   attention scores over 197 tokens) round up to a multiple of 16 — of 64 when that
//!   adds at most 1/16 of the columns (1000 -> 1024) — so tiles are 16-lane vectors
//!   instead of 8-lane or single-lane ones; with 4 rows or more (tiles of several
//!   rows), a count that would still leave 16-lane tiles (at most 6 accumulators) goes
//!   to a multiple of 32 or 64 instead when that does more useful work per FMA,
//!   16-lane tiles counting half (100 -> 128, 80 -> 96, 197 -> 224: one thread,
//!   64 x 384 x 100 0.041 -> 0.025 ms, 128 x 768 x 80 0.116 -> 0.086 ms); widths that
//!   already give 32- or 64-lane tiles are kept;
//!   constant weights are widened at compile time, others by a `tensor.pad`;
//! - rows `M` whose divisors leave a register tile less than half its height (197
//!   tokens: prime, 1-row tiles with 4 accumulators) round up to a multiple of that
//!   height (`tensor.pad` of the left operand), so each tile keeps ~24 independent
//!   accumulators.
//!
//! Measured (one thread, AMD EPYC Zen 5 class): the 1 x 1280 x 1000 classifier 0.146 ->
//! 0.042 ms (onnxruntime 0.053); ViT-B/16's attention scores (12 x 197 x 64 by
//! 12 x 64 x 197) 9.95 -> 0.38 ms; a 197 x 768 x 3072 product with runtime weights
//! 22.9 -> 4.1 ms; torchvision ViT-B/16 389 -> 179 ms.

use super::builder::LinalgBuilder;
use crate::{
    cpu_schedule::tiles::{lane_tile, largest_divisor_at_most, row_tile_cap},
    framework::dead_weights::erase_dead_weights,
    lower_nodes::builder::tensor_info,
    quantization::ir::{elements_attribute, float_constant},
};
use melior::{
    ir::{operation::OperationLike, Attribute, OperationRef, TypeLike, Value, ValueLike},
    Context, RewriterBase,
};

/// Lanes of the register tiles the widened width is a multiple of.
const LANES: i64 = 16;

/// The column count `n` is computed at, for `m` rows.
fn padded_columns(m: i64, n: i64) -> i64 {
    if n <= LANES {
        return n;
    }
    let round = |to: i64| (n + to - 1) / to * to;
    // A multiple of 64 (a register tile's four vectors) when that adds little (at most
    // 1/16 of the columns: 1000 -> 1024), else of 16.
    let narrow = if n % LANES == 0 {
        n
    } else if (round(64) - n) * 16 <= n {
        round(64)
    } else {
        round(LANES)
    };
    let lanes = |wide: i64| lane_tile(wide, &[64, 32, 16, 8]);
    if m < 4 || lanes(narrow) >= 32 {
        return narrow;
    }
    // Tiles of several rows but only 16 lanes: at most 6 accumulators, half of what
    // hides the FMA latency. A multiple of 32 or 64 is taken when it does more useful
    // work per FMA, 16-lane tiles counting half (100 -> 128, 80 -> 96, 197 -> 224).
    let useful = |wide: i64| {
        let rate = if lanes(wide) >= 32 { 1.0 } else { 0.5 };
        n as f64 / wide as f64 * rate
    };
    [round(32), round(64)]
        .into_iter()
        .fold(narrow, |best, wide| {
            if useful(wide) > useful(best) {
                wide
            } else {
                best
            }
        })
}

/// The row count `m` is computed at when its columns are `n` wide.
fn padded_rows(m: i64, n: i64) -> i64 {
    let cap = row_tile_cap(lane_tile(n, &[64, 32, 16, 8]));
    if m <= cap || 2 * largest_divisor_at_most(m, cap) >= cap {
        return m;
    }
    (m + cap - 1) / cap * cap
}

/// Constant `[k, n]` weights widened to `wide` columns at compile time.
fn widened_constant<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    values: &[f32],
    k: i64,
    n: i64,
    wide: i64,
    element: melior::ir::Type<'c>,
) -> Value<'c, 'r> {
    let mut widened = vec![0f32; (k * wide) as usize];
    for (row, chunk) in values.chunks_exact(n as usize).enumerate() {
        let start = row * wide as usize;
        widened[start..start + n as usize].copy_from_slice(chunk);
    }
    let bytes: Vec<u8> = widened.iter().flat_map(|v| v.to_le_bytes()).collect();
    let r#type = b.tensor(&[k, wide], element);
    b.constant(elements_attribute(r#type, &bytes, "widened"), r#type)
}

/// Replaces `op` (`glow.graph.matmul` of 2-D operands, or `glow.graph.batch_matmul` of
/// 3-D ones) with the padded linalg contraction and a slice; `false` (nothing
/// changed) when its shapes tile well as they are.
pub fn padded_contraction<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    zero: Attribute<'c>,
) -> bool {
    let (Ok(lhs), Ok(rhs), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let (Some((x_shape, x_element)), Some((w_shape, element)), Some((y_shape, _))) = (
        tensor_info(lhs),
        tensor_info(rhs),
        tensor_info(result.into()),
    ) else {
        return false;
    };
    let rank = x_shape.len();
    let batched = rank == 3;
    if !element.is_f32() || !x_element.is_f32() || !(rank == 2 || batched) || w_shape.len() != rank
    {
        return false;
    }
    let (m, k, n) = (x_shape[rank - 2], w_shape[rank - 2], w_shape[rank - 1]);
    if m <= 0 || k <= 0 || n <= 0 {
        return false;
    }
    let wide = padded_columns(m, n);
    let tall = padded_rows(m, wide);
    if wide == n && tall == m {
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let pad = |value, dim: usize, extra: i64| {
        let mut high = vec![0; rank];
        high[dim] = extra;
        b.pad(value, &vec![0; rank], &high, zero, element)
    };
    let constant = (!batched && wide > n)
        .then(|| float_constant(rhs, (k * n) as usize))
        .flatten();
    let weights = match &constant {
        Some(values) => widened_constant(&b, values, k, n, wide, element),
        None if wide > n => pad(rhs, rank - 1, wide - n),
        None => rhs,
    };
    let input = if tall > m {
        pad(lhs, rank - 2, tall - m)
    } else {
        lhs
    };
    let mut computed_shape = y_shape.clone();
    computed_shape[rank - 2] = tall;
    computed_shape[rank - 1] = wide;
    let computed = b.tensor(&computed_shape, element);
    let init = b.zeros(computed, zero);
    let name = if batched {
        "linalg.batch_matmul"
    } else {
        "linalg.matmul"
    };
    let product = b.named(name, &[input, weights], init, computed, &[]);
    let sliced = b.extract_slice(product, &vec![0; rank], &y_shape);
    debug_assert_eq!(sliced.r#type(), result.r#type());
    rewriter.replace_op_with_values(op, &[sliced]);
    if constant.is_some() {
        erase_dead_weights(rewriter, &[rhs]);
    }
    true
}
