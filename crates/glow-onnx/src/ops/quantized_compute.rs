//! ONNX's integer operators into glow.quant's integer ops:
//! - QLinearConv -> glow.quant.conv2d (int32 bias in units of x_scale * w_scale)
//! - QLinearMatMul -> glow.quant.fully_connected (a 2-D right operand; the left
//!   operand's leading dimensions folded into rows) or batch_matmul (equal batch
//!   dimensions folded into one), reshaped back to MatMul's result shape
//! - ConvInteger / MatMulInteger -> the same ops with unit scales and an int32 result
//!   (the exact accumulator), viewed back as int32
//!
//! Scales and zero points must be constants (frozen inputs in the node suite);
//! weights may be runtime tensors, with per-channel zero points.

use super::{
    compose,
    quantization::{parameters_at, quantized_input, ParameterInputs},
    window::window,
};
use crate::{
    builder::{Converted, NodeContext, Quantization, Slot},
    element::Element,
};
use glow_dialects::ods::glow_graph;
use melior::ir::{attribute::DenseI32ArrayAttribute, operation::OperationBuilder, Value};
use std::rc::Rc;

/// The parameters of input `index` (scale at `scale`, zero point at `zero_point`).
fn operand_parameters(
    cx: &NodeContext,
    index: usize,
    scale: Option<usize>,
    zero_point: usize,
    axis: i64,
) -> Result<(Quantization, Element), String> {
    let x = cx.input(index)?;
    parameters_at(
        cx,
        &ParameterInputs {
            scale,
            zero_point,
            axis,
        },
        &x.shape,
        x.element,
        false,
    )
}

/// Builds `name` with `operands` into `result_type`, with `attributes`.
fn emit<'c, 'a>(
    cx: &NodeContext<'c, 'a, '_>,
    name: &str,
    operands: &[Value<'c, 'a>],
    attributes: &[(&str, melior::ir::Attribute<'c>)],
    result_type: melior::ir::Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let attributes: Vec<(melior::ir::Identifier, melior::ir::Attribute)> = attributes
        .iter()
        .map(|(n, a)| (melior::ir::Identifier::new(cx.context, n), *a))
        .collect();
    let op = OperationBuilder::new(name, cx.location)
        .add_operands(operands)
        .add_attributes(&attributes)
        .add_results(&[result_type])
        .build()
        .map_err(|e| e.to_string())?;
    Ok(cx.emit(op))
}

/// The int32 result of an *Integer op (scale 1, zero point 0), viewed as int32.
fn exact_output<'c, 'a>(
    cx: &NodeContext<'c, 'a, '_>,
    name: &str,
    operands: &[Value<'c, 'a>],
    attributes: &[(&str, melior::ir::Attribute<'c>)],
    shape: Vec<i64>,
) -> Converted<'c, 'a> {
    let q = Quantization {
        scales: vec![1.0],
        zero_points: vec![0],
        axis: None,
        expressed: Element::F32,
    };
    let quantized = emit(
        cx,
        name,
        operands,
        attributes,
        cx.quantized_tensor_type(&shape, Element::I32, &q),
    )?;
    let integers = emit(
        cx,
        "quant.scast",
        &[quantized],
        &[],
        cx.tensor_type(&shape, Element::I32),
    )?;
    Ok(vec![Slot::value(integers, shape, Element::I32)])
}

/// Attributes of an op to build, by name.
type NamedAttributes<'c> = Vec<(&'static str, melior::ir::Attribute<'c>)>;

/// A quantized result slot.
fn quantized_output<'c, 'a>(
    value: Value<'c, 'a>,
    shape: Vec<i64>,
    storage: Element,
    q: Quantization,
) -> Slot<'c, 'a> {
    let mut slot = Slot::value(value, shape, storage);
    slot.quantization = Some(Rc::new(q));
    slot
}

/// Geometry attributes of a 2-D convolution over `x`'s spatial extents, and its output
/// shape for `filters` outputs.
fn convolution<'c>(
    cx: &NodeContext<'c, '_, '_>,
    x_shape: &[i64],
    w_shape: &[i64],
) -> Result<(NamedAttributes<'c>, Vec<i64>), String> {
    let (attributes, out, _) = convolution_with_pads(cx, x_shape, w_shape)?;
    Ok((attributes, out))
}

/// [`convolution`], and its resolved pads `[top, left, bottom, right]`.
fn convolution_with_pads<'c>(
    cx: &NodeContext<'c, '_, '_>,
    x_shape: &[i64],
    w_shape: &[i64],
) -> Result<(NamedAttributes<'c>, Vec<i64>, Vec<i64>), String> {
    if x_shape.len() != 4 || w_shape.len() != 4 {
        return Err("only 2-D integer convolutions are supported".into());
    }
    let kernel = cx
        .attr_ints("kernel_shape")
        .unwrap_or_else(|| w_shape[2..].to_vec());
    let geometry = window(cx, &x_shape[2..], &kernel, false)?;
    let group = cx.attr_i("group", 1);
    if group < 1
        || x_shape[1] % group != 0
        || w_shape[0] % group != 0
        || w_shape[1] * group != x_shape[1]
    {
        return Err(format!(
            "group {group} does not split input {x_shape:?} and weights {w_shape:?}"
        ));
    }
    let mut out = vec![x_shape[0], w_shape[0]];
    for d in 0..2 {
        let span = geometry.dilations[d] * (geometry.kernel[d] - 1) + 1;
        let padded = x_shape[2 + d] + geometry.pads[d] + geometry.pads[d + 2];
        out.push((padded - span) / geometry.strides[d] + 1);
    }
    let attributes = vec![
        ("strides", cx.array_attr(&geometry.strides)),
        ("pads", cx.array_attr(&geometry.pads)),
        ("dilations", cx.array_attr(&geometry.dilations)),
        ("group", cx.i64_attr(group).into()),
    ];
    Ok((attributes, out, geometry.pads.to_vec()))
}

pub fn qlinear_conv<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (xq, x_storage) = operand_parameters(cx, 0, Some(1), 2, 1)?;
    let (wq, w_storage) = operand_parameters(cx, 3, Some(4), 5, 0)?;
    let y_storage = cx.input(7).map(|z| z.element).unwrap_or(x_storage);
    let y_shape_probe = cx.input(0)?.shape;
    let (yq, y_storage) = parameters_at(
        cx,
        &ParameterInputs {
            scale: Some(6),
            zero_point: 7,
            axis: 1,
        },
        &y_shape_probe,
        y_storage,
        false,
    )?;
    if yq.axis.is_some() {
        return Err("a per-channel output quantization is not supported".into());
    }
    let (x_shape, w_shape) = (cx.input(0)?.shape, cx.input(3)?.shape);
    let (attributes, y_shape) = convolution(cx, &x_shape, &w_shape)?;
    let x = quantized_input(cx, 0, &xq, x_storage)?;
    let w = quantized_input(cx, 3, &wq, w_storage)?;
    let mut operands = vec![x, w];
    if cx.has_input(8) {
        let filters = w_shape[0] as usize;
        let scales: Vec<f64> = (0..filters)
            .map(|f| {
                (xq.scales[0] as f32 * wq.scales[if wq.axis.is_some() { f } else { 0 }] as f32)
                    as f64
            })
            .collect();
        let bq = Quantization {
            zero_points: vec![0; filters],
            axis: Some(0),
            scales,
            expressed: xq.expressed,
        };
        operands.push(quantized_input(cx, 8, &bq, Element::I32)?);
    }
    let result_type = cx.quantized_tensor_type(&y_shape, y_storage, &yq);
    let out = emit(cx, "glow.quant.conv2d", &operands, &attributes, result_type)?;
    Ok(vec![quantized_output(out, y_shape, y_storage, yq)])
}

pub fn conv_integer<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    if super::dynamic_quantization::has_runtime_left_zero_point(cx) {
        return conv_integer_with_runtime_zero_point(cx);
    }
    let (xq, x_storage) = operand_parameters(cx, 0, None, 2, 1)?;
    let (wq, w_storage) = operand_parameters(cx, 1, None, 3, 0)?;
    let (x_shape, w_shape) = (cx.input(0)?.shape, cx.input(1)?.shape);
    let (attributes, y_shape) = convolution(cx, &x_shape, &w_shape)?;
    let x = quantized_input(cx, 0, &xq, x_storage)?;
    let w = quantized_input(cx, 1, &wq, w_storage)?;
    exact_output(cx, "glow.quant.conv2d", &[x, w], &attributes, y_shape)
}

/// ConvInteger whose input zero point `zx` is computed at run time (onnxruntime's
/// `quantize_dynamic` of a CNN: DynamicQuantizeLinear -> ConvInteger). ONNX pads
/// `x - zx` with zeros, so the result is the unpadded convolution of `x` padded with
/// `zx` (shifted by `-zx`, zero-padded, shifted back) by `w - zw`, computed by the integer
/// kernels with input zero point 0, minus `zx` times each output channel's filter sum
/// `sum(w - zw)` (a constant computed here): `(x - zx)(w - zw) = x(w - zw) - zx(w - zw)`.
fn conv_integer_with_runtime_zero_point<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
) -> Converted<'c, 'a> {
    const NONE: usize = usize::MAX;
    let x = cx.input(0)?;
    let zx = super::dynamic_quantization::runtime_scalar_zero_point(cx, x.element)?;
    let (xq, x_storage) = operand_parameters(cx, 0, None, NONE, 1)?;
    let (wq, w_storage) = operand_parameters(cx, 1, None, 3, 0)?;
    let w_shape = cx.input(1)?.shape;
    let sums = super::dynamic_quantization::filter_sums(cx, &w_shape)?;
    let (mut attributes, y_shape, pads) = convolution_with_pads(cx, &x.shape, &w_shape)?;
    let padded = if pads.iter().all(|p| *p == 0) {
        x
    } else {
        for (name, value) in attributes.iter_mut() {
            if *name == "pads" {
                *value = cx.array_attr(&[0, 0, 0, 0]);
            }
        }
        padded_with(cx, &x, &pads, &zx)?
    };
    let x_value = cx.materialize(&padded)?;
    let xp = super::quantization::stored_as_quantized(cx, x_value, &padded.shape, &xq, x_storage)?;
    let w = quantized_input(cx, 1, &wq, w_storage)?;
    let exact = exact_output(cx, "glow.quant.conv2d", &[xp, w], &attributes, y_shape)?.remove(0);
    let sums = compose::reshape(cx, &Slot::constant(sums), &[1, w_shape[0], 1, 1])?;
    let zx = compose::convert(cx, &zx, Element::I32)?;
    let correction = compose::bin(cx, compose::Bin::Mul, &zx, &sums)?;
    Ok(vec![compose::bin(
        cx,
        compose::Bin::Sub,
        &exact,
        &correction,
    )?])
}

/// NCHW `x` padded by `pads` (`[top, left, bottom, right]`) with the scalar `fill`,
/// which is only known at run time: `pad(x - fill, 0) + fill` in wrapping 8-bit
/// arithmetic, which gives back `x` inside and `fill` on the border, with no mask.
fn padded_with<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    pads: &[i64],
    fill: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let (h, w) = (x.shape[2], x.shape[3]);
    let (hp, wp) = (h + pads[0] + pads[2], w + pads[1] + pads[3]);
    let shifted = compose::bin(cx, compose::Bin::Sub, x, fill)?;
    let value = cx.materialize(&shifted)?;
    let pads_attr = cx.array_attr(&[0, 0, pads[0], pads[1], 0, 0, pads[2], pads[3]]);
    let zero = cx.scalar_attr(x.element, 0.0);
    let padded = cx.emit(glow_graph::pad(cx.context, value, pads_attr, zero, cx.location).into());
    let padded = Slot::value(padded, vec![x.shape[0], x.shape[1], hp, wp], x.element);
    compose::bin(cx, compose::Bin::Add, &padded, fill)
}

/// `value` (of quantized or plain `element` type) reshaped to `shape`.
fn reshaped<'c, 'a>(
    cx: &NodeContext<'c, 'a, '_>,
    value: Value<'c, 'a>,
    shape: &[i64],
    element: Element,
    q: Option<&Quantization>,
) -> Value<'c, 'a> {
    let r#type = match q {
        Some(q) => cx.quantized_tensor_type(shape, element, q),
        None => cx.tensor_type(shape, element),
    };
    cx.emit(glow_dialects::ods::glow_graph::reshape(cx.context, r#type, value, cx.location).into())
}

/// How a MatMul's operands map onto glow's products: `[M, K] x [K, N]`
/// (fully_connected), leading dimensions of the left operand folded into M, or
/// `[B, M, K] x [B, K, N]` (batch_matmul), batch dimensions folded into B.
struct ProductShapes {
    a: Vec<i64>,
    b: Vec<i64>,
    y: Vec<i64>,
    /// The result's shape as the ONNX node gives it.
    output: Vec<i64>,
}

fn product_shapes(a: &[i64], b: &[i64]) -> Result<ProductShapes, String> {
    let (ra, rb) = (a.len(), b.len());
    if ra < 2 || rb < 2 || a[ra - 1] != b[rb - 2] {
        return Err(format!("operands {a:?} and {b:?} do not multiply"));
    }
    let (k, n) = (b[rb - 2], b[rb - 1]);
    let mut output = a[..ra - 1].to_vec();
    output.push(n);
    if rb == 2 {
        let m: i64 = a[..ra - 1].iter().product();
        return Ok(ProductShapes {
            a: vec![m, k],
            b: b.to_vec(),
            y: vec![m, n],
            output,
        });
    }
    if ra != rb || a[..ra - 2] != b[..rb - 2] {
        return Err(format!(
            "operands {a:?} and {b:?}: broadcast batch dimensions of an integer product are not supported"
        ));
    }
    let batch: i64 = a[..ra - 2].iter().product();
    let m = a[ra - 2];
    Ok(ProductShapes {
        a: vec![batch, m, k],
        b: vec![batch, k, n],
        y: vec![batch, m, n],
        output,
    })
}

/// A product of quantized operands with ONNX MatMul's shapes, as glow.quant's
/// fully_connected (a 2-D right operand) or batch_matmul (equal batch dimensions).
fn product<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a_inputs: (Option<usize>, usize),
    b_inputs: (Option<usize>, usize),
    output: Option<(usize, usize)>,
) -> Converted<'c, 'a> {
    let b_index = if a_inputs.0.is_some() { 3 } else { 1 };
    let (a_shape, b_shape) = (cx.input(0)?.shape, cx.input(b_index)?.shape);
    let shapes = product_shapes(&a_shape, &b_shape)?;
    let (aq, a_storage) = operand_parameters(cx, 0, a_inputs.0, a_inputs.1, 0)?;
    if aq.axis.is_some() {
        return Err("per-row quantization of the left operand is not supported".into());
    }
    let (bq, b_storage) = operand_parameters(cx, b_index, b_inputs.0, b_inputs.1, -1)?;
    if shapes.b.len() == 3 && bq.axis.is_some() {
        return Err("per-column quantization of a batched right operand is not supported".into());
    }
    let mut a = quantized_input(cx, 0, &aq, a_storage)?;
    let mut b = quantized_input(cx, b_index, &bq, b_storage)?;
    if shapes.a != a_shape {
        a = reshaped(cx, a, &shapes.a, a_storage, Some(&aq));
    }
    if shapes.b != b_shape {
        b = reshaped(cx, b, &shapes.b, b_storage, Some(&bq));
    }
    let name = if shapes.b.len() == 2 {
        "glow.quant.fully_connected"
    } else {
        "glow.quant.batch_matmul"
    };
    let segments: Vec<(&str, melior::ir::Attribute)> = if shapes.b.len() == 2 {
        vec![(
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(cx.context, &[1, 1, 0]).into(),
        )]
    } else {
        Vec::new()
    };
    match output {
        None => {
            let mut slots = exact_output(cx, name, &[a, b], &segments, shapes.y.clone())?;
            if shapes.y != shapes.output {
                let value = slots[0].value.expect("exact_output emits a value");
                let value = reshaped(cx, value, &shapes.output, Element::I32, None);
                slots = vec![Slot::value(value, shapes.output, Element::I32)];
            }
            Ok(slots)
        }
        Some((scale, zero_point)) => {
            let y_storage = cx.input(zero_point).map(|z| z.element).unwrap_or(a_storage);
            let (yq, y_storage) = parameters_at(
                cx,
                &ParameterInputs {
                    scale: Some(scale),
                    zero_point,
                    axis: 0,
                },
                &shapes.output,
                y_storage,
                false,
            )?;
            if yq.axis.is_some() {
                return Err("a per-channel output quantization is not supported".into());
            }
            let result_type = cx.quantized_tensor_type(&shapes.y, y_storage, &yq);
            let mut out = emit(cx, name, &[a, b], &segments, result_type)?;
            if shapes.y != shapes.output {
                out = reshaped(cx, out, &shapes.output, y_storage, Some(&yq));
            }
            Ok(vec![quantized_output(out, shapes.output, y_storage, yq)])
        }
    }
}

pub fn qlinear_matmul<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    product(cx, (Some(1), 2), (Some(4), 5), Some((6, 7)))
}

pub fn matmul_integer<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    if super::dynamic_quantization::has_runtime_left_zero_point(cx) {
        // The product with a zero left zero point, corrected by the run-time one.
        const NONE: usize = usize::MAX;
        let exact = product(cx, (None, NONE), (None, 3), None)?.remove(0);
        return super::dynamic_quantization::correct_left_zero_point(cx, exact);
    }
    product(cx, (None, 2), (None, 3), None)
}
