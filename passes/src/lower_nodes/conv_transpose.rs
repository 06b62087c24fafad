//! conv_transpose2d whose kernel equals its strides (no pads, dilations, output
//! padding or groups: the upsampling layers of U-Nets, decoders and 3-D U-Nets' planes)
//! -> a matmul and a pixel shuffle. Each output pixel then takes exactly one filter tap:
//! y[n, f, i*sh + a, j*sw + b] = sum_c x[n, c, i, j] w[c, f, a, b] + bias[f], so
//! - x [N, C, H, W] -> [N, H, W, C] -> [N*H*W, C], times w viewed as [C, F*sh*sw]
//! - the product [N, H, W, F, sh, sw] -> [N, H, sh, W, sw, F] -> [N, H*sh, W*sw, F]
//! - transposed to NCHW (the transposes around it cancel against glow-channels-last's)
//! - + bias broadcast over the channels.
//!
//! glow-graph-to-linalg's general rule spreads the input by the strides and runs a
//! stride-1 NCHW convolution over it: (sh*sw - 1) / (sh*sw) of its products are with
//! inserted zeros, on an NCHW loop nest the CPU schedule does not tile (a 3-D U-Net's
//! 2x2x2 upsampling took 88 ms, 0.76 GFLOP/s).

use super::{
    builder::{tensor_info, GraphBuilder},
    conv_transpose_phases,
};
use crate::framework::{
    attributes::{i64_array, i64_value},
    Rule,
};
use melior::{
    ir::{operation::OperationLike, OperationRef, TypeLike},
    Context, RewriterBase,
};

/// The rule lowering `glow.graph.conv_transpose2d` with kernel == strides.
pub static LOWER_CONV_TRANSPOSE: Rule = Rule {
    root: "glow.graph.conv_transpose2d",
    generates: &[
        "glow.graph.transpose",
        "glow.graph.reshape",
        "glow.graph.matmul",
        "glow.graph.broadcast",
        "glow.graph.add",
    ],
    rewrite,
};

/// Whether `op` has the shape of an upsampling: strides == kernel, the defaults
/// otherwise.
fn is_upsampling(op: OperationRef, kernel: &[i64]) -> bool {
    let strides = i64_array(op, "strides").unwrap_or(vec![1, 1]);
    let pads = i64_array(op, "pads").unwrap_or(vec![0; 4]);
    let dilations = i64_array(op, "dilations").unwrap_or(vec![1, 1]);
    let output_padding = i64_array(op, "output_padding").unwrap_or(vec![0, 0]);
    strides == kernel
        && pads.iter().all(|p| *p == 0)
        && dilations == [1, 1]
        && output_padding == [0, 0]
        && i64_value(op, "group").unwrap_or(1) == 1
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(filter), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let (Some((x, element)), Some((w, _)), Some((y, _))) = (
        tensor_info(input),
        tensor_info(filter),
        tensor_info(result.into()),
    ) else {
        return false;
    };
    if !element.is_f32() || x.len() != 4 || w.len() != 4 || y.len() != 4 {
        return false;
    }
    let ([n, c, h, wd], [f, sh, sw]) = ([x[0], x[1], x[2], x[3]], [w[1], w[2], w[3]]);
    let bias = op.operand(2).ok();
    if w[0] != c || bias.is_some_and(|b| tensor_info(b).is_none_or(|(shape, _)| shape != [f])) {
        return false;
    }
    // The form is chosen before any op is built: a rule that fails must leave the IR
    // as it was.
    let phases = if is_upsampling(op, &w[2..]) {
        if y != [n, f, h * sh, wd * sw] {
            return false;
        }
        None
    } else {
        let Some(deconvolution) =
            conv_transpose_phases::deconvolution(op, input, filter, (&x, &w, &y), element)
        else {
            return false;
        };
        let Some(plans) = conv_transpose_phases::plans(&deconvolution) else {
            return false;
        };
        Some((deconvolution, plans))
    };
    rewriter.set_insertion_point_before(op);
    let b = GraphBuilder {
        context,
        rewriter,
        location: op.location(),
    };
    let mut out = match &phases {
        None => upsample(&b, input, filter, element, [n, c, h, wd, f, sh, sw]),
        Some((deconvolution, plans)) => {
            let Some(out) = conv_transpose_phases::lower(&b, deconvolution, plans) else {
                return false;
            };
            out
        }
    };
    if let Some(bias) = bias {
        let bias = b.broadcast(bias, &y, element, 1);
        out = b.binary(super::builder::Binary::Add, out, bias);
    }
    rewriter.replace_op_with_values(op, &[out]);
    true
}

/// The upsampling form (kernel == strides): NHWC rows times the filter viewed as
/// [C, F*KH*KW], pixel-shuffled, back to NCHW.
fn upsample<'c, 'r>(
    b: &GraphBuilder<'c, 'r, '_>,
    input: melior::ir::Value<'c, '_>,
    filter: melior::ir::Value<'c, '_>,
    element: melior::ir::Type<'c>,
    [n, c, h, wd, f, sh, sw]: [i64; 7],
) -> melior::ir::Value<'c, 'r> {
    let rows = b.transpose(input, &[0, 2, 3, 1]);
    let rows = b.reshape(rows, &[n * h * wd, c], element);
    let taps = b.reshape(filter, &[c, f * sh * sw], element);
    let product = b.matmul(rows, taps);
    let product = b.reshape(product, &[n, h, wd, f, sh, sw], element);
    let shuffled = b.transpose(product, &[0, 1, 4, 2, 5, 3]);
    let shuffled = b.reshape(shuffled, &[n, h * sh, wd * sw, f], element);
    b.transpose(shuffled, &[0, 3, 1, 2])
}
