//! A matmul with constant f32 weights `[K, N]` whose `N` is above 16 and no multiple of
//! it (a classifier's 1000 classes) is computed `N` rounded up to a multiple of 16
//! wide, from zero columns added to the weights at compile time, and sliced: the CPU
//! schedule's register tiles are then 16-lane vectors instead of 8-lane ones, and a
//! single-row product (batch 1) keeps independent accumulators instead of one chain of
//! dependent multiply-adds per 8 columns. Widened to a multiple of 64 when that adds
//! at most 1/16 of the columns (1000 -> 1024: four accumulators per row), else of 16.
//! Measured (one thread, AMD EPYC Zen 5 class): the 1 x 1280 x 1000 classifier of
//! MobileNetV2 and EfficientNet-B0 0.146 -> 0.042 ms (onnxruntime 0.053).

use super::builder::LinalgBuilder;
use crate::{
    framework::dead_weights::erase_dead_weights,
    lower_nodes::builder::tensor_info,
    quantization::ir::{elements_attribute, float_constant},
};
use melior::{
    ir::{operation::OperationLike, Attribute, OperationRef, TypeLike, ValueLike},
    Context, RewriterBase,
};

/// Lanes of the register tiles the widened width is a multiple of.
const LANES: i64 = 16;

/// Replaces `op` (a `glow.graph.matmul` of a 2-D input and constant weights) with the
/// widened linalg.matmul and a slice; `false` (nothing changed) when it does not
/// qualify.
pub fn widened_matmul<'c>(
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
    if !element.is_f32() || !x_element.is_f32() || x_shape.len() != 2 || w_shape.len() != 2 {
        return false;
    }
    let (k, n) = (w_shape[0], w_shape[1]);
    if n <= LANES || n % LANES == 0 || k <= 0 || y_shape != [x_shape[0], n] {
        return false;
    }
    let Some(values) = float_constant(rhs, (k * n) as usize) else {
        return false;
    };
    // A multiple of 64 (a register tile's four vectors) when that adds little (at most
    // 1/16 of the columns: 1000 -> 1024), else of 16.
    let wide64 = (n + 63) / 64 * 64;
    let wide = if (wide64 - n) * 16 <= n {
        wide64
    } else {
        (n + LANES - 1) / LANES * LANES
    };
    let mut widened = vec![0f32; (k * wide) as usize];
    for (row, chunk) in values.chunks_exact(n as usize).enumerate() {
        let start = row * wide as usize;
        widened[start..start + n as usize].copy_from_slice(chunk);
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let bytes: Vec<u8> = widened.iter().flat_map(|v| v.to_le_bytes()).collect();
    let weights_type = b.tensor(&[k, wide], element);
    let weights = b.constant(
        elements_attribute(weights_type, &bytes, "widened"),
        weights_type,
    );
    let computed = b.tensor(&[x_shape[0], wide], element);
    let init = b.zeros(computed, zero);
    let product = b.named("linalg.matmul", &[lhs, weights], init, computed, &[]);
    let sliced = b.extract_slice(product, &[0, 0], &y_shape);
    debug_assert_eq!(sliced.r#type(), result.r#type());
    rewriter.replace_op_with_values(op, &[sliced]);
    erase_dead_weights(rewriter, &[rhs]);
    true
}
