//! conv_transpose2d -> a stride-1 glow.graph.conv2d (which the convolution rule then
//! converts) over the input spread out by the strides, as the gradient of a
//! convolution is computed:
//! - z: zeros of [N, C, OH + dh*(KH-1), OW + dw*(KW-1)] with input pixel (i, j)
//!   inserted at (dh*(KH-1) - top + i*sh, dw*(KW-1) - left + j*sw)
//!   (tensor.insert_slice with strides; input rows or columns that pads push out of
//!   range are sliced off first); output_padding is already in the result shape
//! - the filter [C, F/g, KH, KW] flipped spatially and transposed per group to
//!   [F, C/g, KH, KW] by a linalg.generic (constant-folded for constant weights)
//! - conv2d z, filter, bias, stride 1, no pads, the same dilations and group

use super::builder::LinalgBuilder;
use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    ValueLike,
};

/// The input rows (of `extent`) that land inside [0, size) when row i goes to
/// `low + i * stride`: (first, count).
fn rows_in_range(extent: i64, low: i64, stride: i64, size: i64) -> (i64, i64) {
    let first = if low < 0 {
        (-low + stride - 1) / stride
    } else {
        0
    };
    let last = ((size - 1 - low).div_euclid(stride)).min(extent - 1);
    (first, (last - first + 1).max(0))
}

rule!(
    CONV_TRANSPOSE2D,
    "glow.graph.conv_transpose2d",
    |context, op, rewriter| {
        let (Ok(result), Some(conv)) = (op.result(0), super::windows::convolution(op)) else {
            return false;
        };
        let super::windows::Convolution {
            input,
            filter,
            x_shape: x,
            w_shape: w,
            y_shape: y,
            element,
            strides,
            pads,
            dilations,
            group,
        } = conv;
        let (n, c, kh, kw) = (x[0], x[1], w[2], w[3]);
        let per_group_out = w[1];
        let per_group_in = c / group;
        let z_shape = [
            n,
            c,
            y[2] + dilations[0] * (kh - 1),
            y[3] + dilations[1] * (kw - 1),
        ];
        let low = [
            dilations[0] * (kh - 1) - pads[0],
            dilations[1] * (kw - 1) - pads[1],
        ];
        let (row, rows) = rows_in_range(x[2], low[0], strides[0], z_shape[2]);
        let (col, cols) = rows_in_range(x[3], low[1], strides[1], z_shape[3]);
        if rows == 0 || cols == 0 {
            return false;
        }
        let b = LinalgBuilder::before(context, op, rewriter);
        let zero = super::windows::scalar(context, element, 0.0);
        let kept = if (row, rows, col, cols) == (0, x[2], 0, x[3]) {
            // SAFETY: the value belongs to the IR being rewritten.
            unsafe { melior::ir::Value::from_raw(input.to_raw()) }
        } else {
            b.extract_slice(input, &[0, 0, row, col], &[n, c, rows, cols])
        };
        let zeros = b.zeros(b.tensor(&z_shape, element), zero);
        let spread = b.insert_slice(
            kept,
            zeros,
            &[0, 0, low[0] + row * strides[0], low[1] + col * strides[1]],
            &[1, 1, strides[0], strides[1]],
        );
        // flipped[o, ci, i, j] = w[(o / Fg) * Cg + ci, o mod Fg, KH-1-i, KW-1-j]
        let flipped_shape = [group * per_group_out, per_group_in, kh, kw];
        let flipped_init = b.empty(b.tensor(&flipped_shape, element));
        let maps = [
            format!(
                "affine_map<(d0, d1, d2, d3) -> ((d0 floordiv {per_group_out}) * {per_group_in} + d1, d0 mod {per_group_out}, {} - d2, {} - d3)>",
                kh - 1,
                kw - 1
            ),
            "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>".to_string(),
        ];
        let flipped = b.generic(
            &[filter],
            &[flipped_init],
            &maps,
            &["parallel"; 4],
            |_, args| vec![args[0]],
        );
        let array = |values: &[i64]| DenseI64ArrayAttribute::new(context, values).into();
        let mut conv = glow_graph::Conv2DOperationBuilder::new(context, op.location())
            .input(spread)
            .filter(flipped[0])
            .strides(array(&[1, 1]))
            .pads(array(&[0, 0, 0, 0]))
            .dilations(array(&dilations))
            .group(IntegerAttribute::new(
                IntegerType::new(context, 64).into(),
                group,
            ));
        if let Some(bias) = crate::quantization::ir::operand(op, 2) {
            conv = conv.bias(bias);
        }
        let conv = conv.build();
        let Ok(built) = conv.as_operation().result(0).map(|r| r.r#type()) else {
            return false;
        };
        if built != result.r#type() {
            return false;
        }
        let inserted = rewriter.insert(conv.into());
        let Ok(value) = inserted.result(0) else {
            return false;
        };
        rewriter.replace_op_with_values(op, &[value.into()]);
        true
    }
);
