//! ONNX QDQ (QuantizeLinear / DequantizeLinear, as onnxruntime's quantizer writes them)
//! into `glow.quant` ops on `!quant.uniform` tensors. Quantized constants feeding
//! DequantizeLinear (int8 weights, int32 biases) stay quantized constants followed by
//! a dequantize (their floats are also kept for import-time folding); a runtime integer
//! tensor is reinterpreted with `quant.scast`.

use crate::{
    builder::{normalize_axis, Converted, NodeContext, Quantization, Slot},
    element::Element,
    tensor::TensorData,
};
use glow_dialects::ods::glow_quant;
use melior::ir::{operation::OperationBuilder, Value};
use std::rc::Rc;

/// The quantization parameters given by a Q/DQ node's scale and zero-point inputs.
fn parameters(
    cx: &NodeContext,
    shape: &[i64],
    storage_default: Element,
    allow_int32: bool,
) -> Result<(Quantization, Element), String> {
    if cx.attr_i("block_size", 0) > 0 {
        return Err("blocked quantization (block_size) is not supported".into());
    }
    let storage_default = match cx.attr_i("output_dtype", 0) as i32 {
        0 => storage_default,
        code => Element::from_onnx(code)
            .ok_or_else(|| format!("output_dtype {}", Element::onnx_name(code)))?,
    };
    let axis = cx.attr_i("axis", 1);
    let inputs = ParameterInputs {
        scale: Some(1),
        zero_point: 2,
        axis,
    };
    parameters_at(cx, &inputs, shape, storage_default, allow_int32)
}

/// Where a node keeps one operand's quantization parameters.
pub struct ParameterInputs {
    /// Input index of the scale (None: scale 1, as ConvInteger / MatMulInteger).
    pub scale: Option<usize>,
    /// Input index of the (optional) zero point.
    pub zero_point: usize,
    /// The quantized axis of a 1-D scale or zero point (negative from the back).
    pub axis: i64,
}

/// The quantization of a tensor of `shape` from the node's scale and zero-point inputs.
pub fn parameters_at(
    cx: &NodeContext,
    inputs: &ParameterInputs,
    shape: &[i64],
    storage_default: Element,
    allow_int32: bool,
) -> Result<(Quantization, Element), String> {
    let zero_point = cx
        .has_input(inputs.zero_point)
        .then(|| cx.constant_input(inputs.zero_point, "zero point"))
        .transpose()?;
    let (scales, expressed, scale_dims) = match inputs.scale {
        Some(index) => {
            let scale = cx.constant_input(index, "scale")?;
            if !scale.element.is_float() {
                return Err(format!("scale of type {:?}", scale.element));
            }
            (scale.to_f64s(), scale.element, scale.dims.clone())
        }
        None => {
            let count = zero_point.as_ref().map_or(1, |z| z.to_i64s().len());
            (vec![1.0; count], Element::F32, vec![count as i64])
        }
    };
    if let Some(bad) = scales.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
        return Err(format!("scale {bad} is not a positive finite number"));
    }
    let (zero_points, storage) = match zero_point {
        Some(zp) => (zp.to_i64s(), zp.element),
        None => (vec![0; scales.len()], storage_default),
    };
    let int32 = allow_int32 && storage == Element::I32;
    if !matches!(storage, Element::I8 | Element::U8) && !int32 {
        return Err(format!(
            "quantization to {storage:?} is not supported (int8 and uint8 tensors, and \
             int32 constants such as biases)"
        ));
    }
    if zero_points.len() != scales.len() || scales.is_empty() {
        return Err(format!(
            "{} scales but {} zero points",
            scales.len(),
            zero_points.len()
        ));
    }
    let axis = if scales.len() > 1 || !scale_dims.is_empty() && scale_dims[0] > 1 {
        let axis = normalize_axis(inputs.axis, shape.len())?;
        if shape[axis] as usize != scales.len() {
            return Err(format!(
                "{} scales for dimension {axis} of {shape:?}",
                scales.len()
            ));
        }
        Some(axis)
    } else {
        None
    };
    Ok((
        Quantization {
            scales,
            zero_points,
            axis,
            expressed,
        },
        storage,
    ))
}

/// Input `i` as a tensor of quantization `q` over `storage`: a quantized value as is
/// (rescaled when its parameters differ), integers reinterpreted (`quant.scast`).
pub fn quantized_input<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    i: usize,
    q: &Quantization,
    storage: Element,
) -> Result<Value<'c, 'a>, String> {
    let x = cx.input(i)?;
    if x.element != storage {
        return Err(format!(
            "input #{i} is {:?} but its zero point is {storage:?}",
            x.element
        ));
    }
    let quantized_type = cx.quantized_tensor_type(&x.shape, storage, q);
    match (&x.quantization, x.value) {
        (Some(given), Some(value)) if **given == *q => Ok(value),
        (Some(_), Some(value)) => {
            Ok(cx.emit(glow_quant::rescale(cx.context, quantized_type, value, cx.location).into()))
        }
        (Some(_), None) => Err("quantized input has no value".into()),
        (None, _) => {
            let storage_value = cx.value(i)?;
            stored_as_quantized(cx, storage_value, &x.shape, q, storage)
        }
    }
}

/// A plain `storage` tensor of `shape` (int8 / uint8 / int32) viewed as quantized by
/// `q` (`quant.scast`; uint8 through a signless bitcast first).
pub fn stored_as_quantized<'c, 'a>(
    cx: &NodeContext<'c, 'a, '_>,
    mut storage_value: Value<'c, 'a>,
    shape: &[i64],
    q: &Quantization,
    storage: Element,
) -> Result<Value<'c, 'a>, String> {
    if storage == Element::U8 {
        let signless = cx.tensor_type(shape, Element::I8);
        let bitcast = OperationBuilder::new("tensor.bitcast", cx.location)
            .add_operands(&[storage_value])
            .add_results(&[signless])
            .build()
            .map_err(|e| e.to_string())?;
        storage_value = cx.emit(bitcast);
    }
    let cast = OperationBuilder::new("quant.scast", cx.location)
        .add_operands(&[storage_value])
        .add_results(&[cx.quantized_tensor_type(shape, storage, q)])
        .build()
        .map_err(|e| e.to_string())?;
    Ok(cx.emit(cast))
}

pub fn quantize_linear<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    if super::dynamic_quantization::has_runtime_parameters(cx) {
        return super::dynamic_quantization::quantize_with_runtime_parameters(cx);
    }
    let x = cx.input(0)?;
    let (quantization, storage) = parameters(cx, &x.shape, Element::U8, false)?;
    if x.element != quantization.expressed {
        return Err(format!(
            "input {:?} but scale {:?}",
            x.element, quantization.expressed
        ));
    }
    let input = cx.value(0)?;
    let r#type = cx.quantized_tensor_type(&x.shape, storage, &quantization);
    let out = cx.emit(glow_quant::quantize(cx.context, r#type, input, cx.location).into());
    let mut slot = Slot::value(out, x.shape, storage);
    slot.quantization = Some(Rc::new(quantization));
    Ok(vec![slot])
}

pub fn dequantize_linear<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    if super::dynamic_quantization::has_runtime_parameters(cx) {
        return super::dynamic_quantization::dequantize_with_runtime_parameters(cx);
    }
    let x = cx.input(0)?;
    let (quantization, storage) = parameters(cx, &x.shape, x.element, x.constant.is_some())?;
    let expressed = quantization.expressed;
    if storage != x.element {
        return Err(format!("zero point {storage:?} but input {:?}", x.element));
    }
    // Quantized constants (int8 weights, int32 biases): the floats for import-time
    // folding, and the data itself for integer compute.
    if let Some(data) = &x.constant {
        let values = data.to_i64s();
        let inner: usize = match quantization.axis {
            Some(axis) => x.shape[axis + 1..].iter().product::<i64>() as usize,
            None => 1,
        };
        let channels = quantization.scales.len();
        let floats: Vec<f64> = values
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let c = if quantization.axis.is_some() {
                    (i / inner) % channels
                } else {
                    0
                };
                (q - quantization.zero_points[c]) as f64 * quantization.scales[c]
            })
            .collect();
        let floats = TensorData::from_f64s(expressed, x.shape.clone(), &floats);
        return Ok(vec![Slot::dequantized_constant(
            floats,
            (**data).clone(),
            quantization,
        )]);
    }
    let value = quantized_input(cx, 0, &quantization, storage)?;
    let float_type = cx.tensor_type(&x.shape, expressed);
    let out = cx.emit(glow_quant::dequantize(cx.context, float_type, value, cx.location).into());
    Ok(vec![Slot::value(out, x.shape, expressed)])
}
