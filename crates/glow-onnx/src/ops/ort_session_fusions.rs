//! The fused float ops onnxruntime's own graph optimizer writes into a model it saves
//! (`SessionOptions.optimized_model_filepath` at the extended level), as the
//! glow.graph ops they fuse:
//! - FusedConv: Conv, plus input 3 (`Z`) when given, then `activation` (Relu, Tanh,
//!   Sigmoid, LeakyRelu, HardSigmoid or Clip, their parameters in
//!   `activation_params`); the graph optimizer then fuses them again its own way
//! - FusedMatMul: MatMul of A and B, each transposed in its last two axes under
//!   `transA` / `transB`, times `alpha` (`transBatchA` / `transBatchB` are refused)

use super::{
    compose::{bin, scalar, transpose, Bin},
    convolution, nn,
};
use crate::builder::{Converted, NodeContext, Slot};
use glow_dialects::ods::glow_graph;

/// `x` through FusedConv's `activation` with its `activation_params`.
fn activation<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    if !cx.has_attr("activation") {
        return Ok(x);
    }
    let kind = cx.attr_s("activation", "");
    let params = cx.attr_floats("activation_params").unwrap_or_default();
    let param = |i: usize, default: f32| params.get(i).copied().unwrap_or(default) as f64;
    let value = cx.materialize(&x)?;
    let (c, loc) = (cx.context, cx.location);
    let op: melior::ir::Operation = match kind.as_str() {
        "Relu" => glow_graph::relu(c, value, loc).into(),
        "Tanh" => glow_graph::tanh(c, value, loc).into(),
        "Sigmoid" => glow_graph::sigmoid(c, value, loc).into(),
        "LeakyRelu" => glow_graph::LeakyReluOperationBuilder::new(c, loc)
            .input(value)
            .alpha(cx.f32_attr(param(0, 0.01)))
            .build()
            .into(),
        "HardSigmoid" => glow_graph::HardSigmoidOperationBuilder::new(c, loc)
            .input(value)
            .alpha(cx.f32_attr(param(0, 0.2)))
            .beta(cx.f32_attr(param(1, 0.5)))
            .build()
            .into(),
        "Clip" => {
            let (min, max) = (
                cx.scalar_attr(x.element, param(0, f32::MIN)),
                cx.scalar_attr(x.element, param(1, f32::MAX)),
            );
            glow_graph::clip(c, value, min, max, loc).into()
        }
        other => return Err(format!("activation {other} is not supported")),
    };
    let out = cx.emit(op);
    Ok(Slot::value(out, x.shape, x.element))
}

pub fn fused_conv<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let mut y = convolution::conv(cx)?.remove(0);
    if cx.has_input(3) {
        let z = cx.input(3)?;
        y = bin(cx, Bin::Add, &y, &z)?;
    }
    Ok(vec![activation(cx, y)?])
}

/// `x` with its last two axes swapped (vectors as they are).
fn transposed<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let rank = x.shape.len();
    if rank < 2 {
        return Ok(x);
    }
    let mut perm: Vec<usize> = (0..rank).collect();
    perm.swap(rank - 2, rank - 1);
    transpose(cx, &x, &perm)
}

pub fn fused_matmul<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    for name in ["transBatchA", "transBatchB"] {
        if cx.attr_i(name, 0) != 0 {
            return Err(format!("{name} is not supported"));
        }
    }
    let (mut a, mut b) = (cx.input(0)?, cx.input(1)?);
    if cx.attr_i("transA", 0) != 0 {
        a = transposed(cx, a)?;
    }
    if cx.attr_i("transB", 0) != 0 {
        b = transposed(cx, b)?;
    }
    let element = a.element;
    let product = nn::numpy_matmul(cx, a, b)?;
    let alpha = cx.attr_f("alpha", 1.0) as f64;
    if alpha == 1.0 {
        return Ok(vec![product]);
    }
    Ok(vec![bin(cx, Bin::Mul, &product, &scalar(element, alpha))?])
}
