//! resize(transpose(x, p)) -> transpose(resize(x), p), when the transpose has no other
//! user: ONNX Resize resamples every dimension on its own (its `scales` and `roi`
//! entries), so the resize runs in the source's layout with those entries moved by p.
//! A nearest or bilinear upsampling between convolutions (YOLO's neck, U-Net and FPN
//! decoders) then stays channels-last: the transposes the layout put around it meet
//! the next convolution's and cancel, and the resize reads whole channel rows (a
//! YOLO-style head at 96 x 128, one thread: its upsampling and average pool had run
//! as a strided gather behind an NCHW -> NHWC transpose, 0.18 ms of 0.40-0.50; now
//! 0.29-0.30 ms in all, onnxruntime 0.35). A resize the function returns keeps its
//! layout (see [`returned`]).

use super::{
    compose_transposes::{defining_op, has_one_use, permutation},
    sink_pad_reduce::{cloned_on, replace_transposed},
};
use crate::{
    framework::{
        attributes::{f64_array, set_attribute},
        Rule,
    },
    lower_nodes::builder::tensor_info,
    quantization::ir::{name_of, users},
};
use melior::{
    ir::{operation::OperationLike, Attribute, OperationRef, Value, ValueLike},
    Context, RewriterBase,
};

/// Sinks a transpose below `glow.graph.resize`.
pub static SINK_TRANSPOSE_BELOW_RESIZE: Rule = Rule {
    root: "glow.graph.resize",
    generates: &["glow.graph.transpose", "glow.graph.resize"],
    rewrite: rewrite_resize,
};

/// A dense f64 array attribute (`array<f64: ...>`).
fn f64_array_attribute<'c>(context: &'c Context, values: &[f64]) -> Attribute<'c> {
    // SAFETY: a live context and `values.len()` readable doubles.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDenseF64ArrayGet(
            context.to_raw(),
            values.len() as isize,
            values.as_ptr(),
        ))
    }
}

/// `values` (one entry per dimension, `per` entries per dimension in blocks) moved so
/// that entry i goes to position perm[i] in each block.
fn moved(values: &[f64], perm: &[usize], per: usize) -> Option<Vec<f64>> {
    let rank = perm.len();
    if values.len() != rank * per {
        return None;
    }
    let mut out = values.to_vec();
    for block in 0..per {
        for (i, p) in perm.iter().enumerate() {
            out[block * rank + p] = values[block * rank + i];
        }
    }
    Some(out)
}

/// Whether the function returns `op`'s result: a model's final upsampling (LR-ASPP's
/// 21 x 224 x 224 logits) is written in the result's layout directly, where resizing
/// channels-last would leave a large transpose behind it (9.4 -> 12.7 ms).
fn returned(op: OperationRef) -> bool {
    op.result(0).map_or(true, |result| {
        users(result.into())
            .iter()
            .any(|user| name_of(*user) == "func.return")
    })
}

fn rewrite_resize<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(input) = op.operand(0) else {
        return false;
    };
    if returned(op) {
        return false;
    }
    let Some(transpose) = defining_op(input, "glow.graph.transpose") else {
        return false;
    };
    let (Some(perm), true) = (permutation(transpose), has_one_use(input)) else {
        return false;
    };
    let Ok(source) = transpose.operand(0) else {
        return false;
    };
    // SAFETY: the source lives in the same IR as `op`.
    let source = unsafe { Value::from_raw(source.to_raw()) };
    let Some((output, _)) = op.result(0).ok().and_then(|r| tensor_info(r.into())) else {
        return false;
    };
    let Some(perm) = perm
        .iter()
        .map(|p| usize::try_from(*p).ok().filter(|p| *p < output.len()))
        .collect::<Option<Vec<usize>>>()
    else {
        return false;
    };
    if perm.len() != output.len() {
        return false;
    }
    let mut shape = output.clone();
    for (i, p) in perm.iter().enumerate() {
        shape[*p] = output[i];
    }
    let scales = match f64_array(op, "scales") {
        Some(scales) => match moved(&scales, &perm, 1) {
            Some(scales) => Some(scales),
            None => return false,
        },
        None => None,
    };
    let roi = match f64_array(op, "roi") {
        Some(roi) => match moved(&roi, &perm, 2) {
            Some(roi) => Some(roi),
            None => return false,
        },
        None => None,
    };
    let Some((resize, resized)) = cloned_on(op, source, &shape, rewriter) else {
        return false;
    };
    if let Some(scales) = scales {
        set_attribute(resize, "scales", f64_array_attribute(context, &scales));
    }
    if let Some(roi) = roi {
        set_attribute(resize, "roi", f64_array_attribute(context, &roi));
    }
    let perm: Vec<i64> = perm.iter().map(|p| *p as i64).collect();
    replace_transposed(context, op, resized, &perm, rewriter)
}
