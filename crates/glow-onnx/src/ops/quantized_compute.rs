//! ONNX's integer operators into glow.quant's integer ops:
//! - QLinearConv -> glow.quant.conv2d (int32 bias in units of x_scale * w_scale)
//! - QLinearMatMul -> glow.quant.fully_connected (2-D) or batch_matmul (3-D)
//! - ConvInteger / MatMulInteger -> the same ops with unit scales and an int32 result
//!   (the exact accumulator), viewed back as int32
//!
//! Scales and zero points must be constants (frozen inputs in the node suite);
//! weights may be runtime tensors, with per-channel zero points.

use super::{
    nn::window,
    quantization::{parameters_at, quantized_input, ParameterInputs},
};
use crate::{
    builder::{Converted, NodeContext, Quantization, Slot},
    element::Element,
};
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
    Ok((attributes, out))
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
    let (xq, x_storage) = operand_parameters(cx, 0, None, 2, 1)?;
    let (wq, w_storage) = operand_parameters(cx, 1, None, 3, 0)?;
    let (x_shape, w_shape) = (cx.input(0)?.shape, cx.input(1)?.shape);
    let (attributes, y_shape) = convolution(cx, &x_shape, &w_shape)?;
    let x = quantized_input(cx, 0, &xq, x_storage)?;
    let w = quantized_input(cx, 1, &wq, w_storage)?;
    exact_output(cx, "glow.quant.conv2d", &[x, w], &attributes, y_shape)
}

/// A 2-D (fully_connected) or 3-D (batch_matmul) product of quantized operands.
fn product<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a_inputs: (Option<usize>, usize),
    b_inputs: (Option<usize>, usize),
    output: Option<(usize, usize)>,
) -> Converted<'c, 'a> {
    let (a_shape, b_shape) = (
        cx.input(0)?.shape,
        cx.input(a_inputs.0.map_or(1, |_| 3))?.shape,
    );
    let b_index = if a_inputs.0.is_some() { 3 } else { 1 };
    let rank = a_shape.len();
    if rank != b_shape.len() || !(rank == 2 || rank == 3) {
        return Err(format!(
            "operands {a_shape:?} and {b_shape:?} must both be 2-D or 3-D"
        ));
    }
    if a_shape[rank - 1] != b_shape[rank - 2] || (rank == 3 && a_shape[0] != b_shape[0]) {
        return Err(format!(
            "operands {a_shape:?} and {b_shape:?} do not multiply"
        ));
    }
    let (aq, a_storage) = operand_parameters(cx, 0, a_inputs.0, a_inputs.1, 0)?;
    if aq.axis.is_some() {
        return Err("per-row quantization of the left operand is not supported".into());
    }
    let (bq, b_storage) = operand_parameters(cx, b_index, b_inputs.0, b_inputs.1, -1)?;
    if rank == 3 && bq.axis.is_some() {
        return Err("per-column quantization of a 3-D right operand is not supported".into());
    }
    let mut y_shape = a_shape[..rank - 1].to_vec();
    y_shape.push(b_shape[rank - 1]);
    let a = quantized_input(cx, 0, &aq, a_storage)?;
    let b = quantized_input(cx, b_index, &bq, b_storage)?;
    let name = if rank == 2 {
        "glow.quant.fully_connected"
    } else {
        "glow.quant.batch_matmul"
    };
    let segments: Vec<(&str, melior::ir::Attribute)> = if rank == 2 {
        vec![(
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(cx.context, &[1, 1, 0]).into(),
        )]
    } else {
        Vec::new()
    };
    match output {
        None => exact_output(cx, name, &[a, b], &segments, y_shape),
        Some((scale, zero_point)) => {
            let y_storage = cx.input(zero_point).map(|z| z.element).unwrap_or(a_storage);
            let (yq, y_storage) = parameters_at(
                cx,
                &ParameterInputs {
                    scale: Some(scale),
                    zero_point,
                    axis: 0,
                },
                &y_shape,
                y_storage,
                false,
            )?;
            if yq.axis.is_some() {
                return Err("a per-channel output quantization is not supported".into());
            }
            let result_type = cx.quantized_tensor_type(&y_shape, y_storage, &yq);
            let out = emit(cx, name, &[a, b], &segments, result_type)?;
            Ok(vec![quantized_output(out, y_shape, y_storage, yq)])
        }
    }
}

pub fn qlinear_matmul<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    product(cx, (Some(1), 2), (Some(4), 5), Some((6, 7)))
}

pub fn matmul_integer<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    product(cx, (None, 2), (None, 3), None)
}
