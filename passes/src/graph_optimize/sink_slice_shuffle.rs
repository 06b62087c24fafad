//! Two rules that let the channels-last transposes pass a channel shuffle (ShuffleNet's
//! `reshape [N, g, C/g, H, W] -> transpose -> reshape [N, C, H, W]`, written on NCHW)
//! and the channel split after it, so they meet the next convolution's and cancel:
//! - slice(transpose(x, p)) -> transpose(slice(x), p), when every user of the
//!   transpose is a slice (each slice then moves only its own part, and the whole
//!   transpose goes);
//! - the shuffle of one dimension of a transpose, reshape(transpose(reshape(
//!   transpose(x, p)), swap k, k+1)) splitting dimension k into (a, b), swapping the
//!   two and merging them back -> transpose(reshape(transpose(reshape(x)), p)): the
//!   same shuffle on the source's dimension p[k], then the transpose. Data moved: the
//!   same (one shuffle, one transpose), but the transpose is now outermost, where it
//!   can sink on.
//!
//! ShuffleNetV2 x1.0 before: each block transposed its concatenation to NCHW, shuffled
//! it there and transposed the split half back to NHWC (three whole-tensor transposes
//! a block).

use super::{
    compose_transposes::{defining_op, has_one_use, permutation},
    sink_pad_reduce::replace_transposed,
};
use crate::{
    framework::{
        attributes::{i64_array, name_of},
        Rule,
    },
    lower_nodes::builder::tensor_info,
    quantization::ir::{operand, tensor_type, users},
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, Value},
    Context, RewriterBase,
};

/// slice(transpose(x, p)) -> transpose(slice(x), p).
pub static SINK_TRANSPOSE_BELOW_SLICE: Rule = Rule {
    root: "glow.graph.slice",
    generates: &["glow.graph.slice", "glow.graph.transpose"],
    rewrite: sink_below_slice,
};

/// A shuffle of one dimension of a transpose -> the shuffle on the source, then the
/// transpose.
pub static SINK_TRANSPOSE_BELOW_SHUFFLE: Rule = Rule {
    root: "glow.graph.reshape",
    generates: &[
        "glow.graph.reshape",
        "glow.graph.transpose",
        "glow.graph.reshape",
        "glow.graph.transpose",
    ],
    rewrite: sink_below_shuffle,
};

fn sink_below_slice<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(transpose) = operand(op, 0).and_then(|v| defining_op(v, "glow.graph.transpose"))
    else {
        return false;
    };
    let (Some(perm), Some(source), Some(start)) = (
        permutation(transpose),
        operand(transpose, 0),
        i64_array(op, "start"),
    ) else {
        return false;
    };
    let Some(transposed) = transpose.result(0).ok().map(Value::from) else {
        return false;
    };
    if !users(transposed)
        .iter()
        .all(|user| name_of(*user) == "glow.graph.slice")
    {
        return false;
    }
    let (Some((shape, element)), Some(source_shape)) = (
        op.result(0).ok().and_then(|r| tensor_info(r.into())),
        tensor_info(source).map(|(s, _)| s),
    ) else {
        return false;
    };
    if perm.len() != shape.len() || start.len() != shape.len() || source_shape.len() != shape.len()
    {
        return false;
    }
    // result[i] = x[perm[i]]: the slice of x starts and extends along perm[i] as the
    // slice of the transpose does along i.
    let (mut source_start, mut source_sizes) = (vec![0; perm.len()], source_shape.clone());
    for (i, &d) in perm.iter().enumerate() {
        source_start[d as usize] = start[i];
        source_sizes[d as usize] = shape[i];
    }
    rewriter.set_insertion_point_before(op);
    let sliced = glow_graph::slice(
        context,
        tensor_type(&source_sizes, element),
        source,
        DenseI64ArrayAttribute::new(context, &source_start).into(),
        op.location(),
    );
    let Some(sliced) = inserted(rewriter, sliced.into()) else {
        return false;
    };
    replace_transposed(context, op, sliced, &perm, rewriter)
}

fn sink_below_shuffle<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    // op = reshape(swap(split(transpose(x, p)))): follow the chain up.
    let Some(swap) = operand(op, 0).and_then(|v| defining_op(v, "glow.graph.transpose")) else {
        return false;
    };
    let Some(split) = operand(swap, 0).and_then(|v| defining_op(v, "glow.graph.reshape")) else {
        return false;
    };
    let Some(transpose) = operand(split, 0).and_then(|v| defining_op(v, "glow.graph.transpose"))
    else {
        return false;
    };
    let (Some(swap_perm), Some(perm), Some(x)) = (
        permutation(swap),
        permutation(transpose),
        operand(transpose, 0),
    ) else {
        return false;
    };
    let inner_values = [swap, split, transpose].map(|o| o.result(0).ok().map(Value::from));
    if inner_values
        .iter()
        .any(|v| !v.is_some_and(|v| has_one_use(v)))
    {
        return false;
    }
    let (Some((shape, element)), Some((split_shape, _)), Some((x_shape, _)), Some((y_shape, _))) = (
        op.result(0).ok().and_then(|r| tensor_info(r.into())),
        split.result(0).ok().and_then(|r| tensor_info(r.into())),
        tensor_info(x),
        transpose.result(0).ok().and_then(|r| tensor_info(r.into())),
    ) else {
        return false;
    };
    if y_shape != shape {
        return false;
    }
    let Some((k, a, b)) = one_dimension_shuffle(&shape, &split_shape, &swap_perm) else {
        return false;
    };
    if perm.len() != shape.len() || x_shape.len() != shape.len() {
        return false;
    }
    // The same shuffle on x's dimension d = perm[k].
    let d = perm[k] as usize;
    let mut x_split = x_shape.clone();
    x_split.splice(d..=d, [a, b]);
    let mut swap_on_x: Vec<i64> = (0..x_split.len() as i64).collect();
    swap_on_x.swap(d, d + 1);
    rewriter.set_insertion_point_before(op);
    let location = op.location();
    let swap_attribute = DenseI64ArrayAttribute::new(context, &swap_on_x).into();
    let shuffled = inserted(
        rewriter,
        glow_graph::reshape(context, tensor_type(&x_split, element), x, location).into(),
    )
    .and_then(|split| {
        inserted(
            rewriter,
            glow_graph::transpose(context, split, swap_attribute, location).into(),
        )
    })
    .and_then(|swapped| {
        inserted(
            rewriter,
            glow_graph::reshape(context, tensor_type(&x_shape, element), swapped, location).into(),
        )
    });
    let Some(shuffled) = shuffled else {
        return false;
    };
    replace_transposed(context, op, shuffled, &perm, rewriter)
}

/// Inserts `op` at the rewriter's insertion point; its result.
fn inserted<'c, 'r>(
    rewriter: &'r RewriterBase<'c, '_>,
    op: melior::ir::Operation<'c>,
) -> Option<Value<'c, 'r>> {
    rewriter.insert(op).result(0).ok().map(Value::from)
}

/// Whether `split` (the shape of a reshape of a tensor of `shape`) splits one
/// dimension k of `shape` into (a, b), and `swap` exchanges exactly those two: then
/// a reshape back to `shape` shuffles dimension k. Returns (k, a, b).
fn one_dimension_shuffle(shape: &[i64], split: &[i64], swap: &[i64]) -> Option<(usize, i64, i64)> {
    if split.len() != shape.len() + 1 || swap.len() != split.len() {
        return None;
    }
    let k = (0..shape.len()).find(|&k| shape[k] != split[k])?;
    let (a, b) = (split[k], split[k + 1]);
    let rest_matches = shape[..k] == split[..k] && shape[k + 1..] == split[k + 2..];
    let swaps_k: Vec<i64> = (0..split.len() as i64)
        .map(|i| match i {
            i if i == k as i64 => k as i64 + 1,
            i if i == k as i64 + 1 => k as i64,
            i => i,
        })
        .collect();
    (rest_matches && a * b == shape[k] && a > 1 && b > 1 && swap == swaps_k.as_slice())
        .then_some((k, a, b))
}
