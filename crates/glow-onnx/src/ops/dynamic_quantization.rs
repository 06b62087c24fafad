//! Dynamic quantization, as onnxruntime's `quantize_dynamic` writes it for transformers:
//! `DynamicQuantizeLinear` computes a tensor's uint8 scale and zero point at run time,
//! and `MatMulInteger` multiplies the quantized activations by constant int8 / uint8
//! weights with that run-time zero point.
//!
//! - DynamicQuantizeLinear is its ONNX function body in glow.graph ops: the range
//!   `[min(x, 0), max(x, 0)]` by reductions, `scale = range / 255` (1 for an empty
//!   range, as onnxruntime computes it), `zero point = round(clamp(-min / scale, 0, 255))`,
//!   `y = clamp(round(x / scale) + zero point, 0, 255)` as uint8 (rounding to even).
//!   glow's types carry constant scales, so the outputs are plain uint8 / f32 tensors.
//! - MatMulInteger with a run-time zero point `za` of its left operand is the exact
//!   int32 product with `za = 0` (glow.quant.fully_connected / batch_matmul, the
//!   integer kernels' form) minus `za * colsum(B - zb)`, the column sums of the
//!   constant right operand computed at import time: `(A - za)(B - zb) = A(B - zb) -
//!   za 1 (B - zb)`.
//! - ConvInteger with a run-time input zero point (`quantize_dynamic` of a CNN) is
//!   built the same way in `quantized_compute`, with each filter's sum as the
//!   correction and the padding filled with the zero point.
//! - QuantizeLinear / DequantizeLinear whose scale or zero point is computed at run
//!   time (DynamicQuantizeLinear's function body spells them so) are their formulas on
//!   plain tensors: `clamp(round(x / scale) + zero point)` in the storage type's range,
//!   `(x - zero point) * scale`, per tensor or along `axis`.

use super::compose::{self, bin, reduce, scalar, un, Bin, Reduction, Un};
use crate::{
    builder::{normalize_axis, Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};

pub fn dynamic_quantize_linear<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if x.element != Element::F32 {
        return Err(format!("input of type {:?}; it must be float32", x.element));
    }
    let all: Vec<usize> = (0..x.shape.len()).collect();
    let zero = scalar(Element::F32, 0.0);
    let highest = reduce(cx, Reduction::Max, &x, &all, false)?;
    let highest = bin(cx, Bin::Max, &highest, &zero)?;
    let negated = un(cx, Un::Neg, &x)?;
    let lowest = reduce(cx, Reduction::Max, &negated, &all, false)?;
    let lowest = un(cx, Un::Neg, &lowest)?;
    let lowest = bin(cx, Bin::Min, &lowest, &zero)?;
    let range = bin(cx, Bin::Sub, &highest, &lowest)?;
    let empty = bin(cx, Bin::Equal, &range, &zero)?;
    // An empty range (x all zero) gets scale 1, as onnxruntime gives it (ONNX's
    // Python reference gives 1 / 255); y and the zero point are 0 either way.
    let scale = bin(cx, Bin::Div, &range, &scalar(Element::F32, 255.0))?;
    let scale = compose::select(cx, &empty, &scalar(Element::F32, 1.0), &scale)?;
    let clamp = |cx: &mut NodeContext<'c, 'a, '_>, v: &Slot<'c, 'a>| {
        let v = bin(cx, Bin::Max, v, &zero)?;
        bin(cx, Bin::Min, &v, &scalar(Element::F32, 255.0))
    };
    // zero point = round(clamp(0 - min / scale)), as ONNX's reference computes it.
    let shifted = bin(cx, Bin::Div, &lowest, &scale)?;
    let shifted = un(cx, Un::Neg, &shifted)?;
    let zero_point = clamp(cx, &shifted)?;
    let zero_point = un(cx, Un::Round, &zero_point)?;
    let y = bin(cx, Bin::Div, &x, &scale)?;
    let y = un(cx, Un::Round, &y)?;
    let y = bin(cx, Bin::Add, &y, &zero_point)?;
    let y = clamp(cx, &y)?;
    Ok(vec![
        compose::convert(cx, &y, Element::U8)?,
        scale,
        compose::convert(cx, &zero_point, Element::U8)?,
    ])
}

/// Whether MatMulInteger's left zero point (input 2) is given but not a constant.
pub fn has_runtime_left_zero_point(cx: &NodeContext) -> bool {
    cx.has_input(2) && cx.input(2).is_ok_and(|zp| zp.constant.is_none())
}

/// `sum_k (B[k, n] - zb[n])` of a constant 2-D right operand, as an int32 row [N].
fn column_sums(cx: &NodeContext) -> Result<TensorData, String> {
    let b = cx.input(1)?;
    let data = cx.constant_input(
        1,
        "with a run-time zero point of the left operand, the right operand",
    )?;
    let [k, n] = b.shape[..] else {
        return Err(format!(
            "a run-time zero point of the left operand needs a 2-D right operand, not {:?}",
            b.shape
        ));
    };
    let zero_points = if cx.has_input(3) {
        cx.constant_input(3, "zero point of the right operand")?
            .to_i64s()
    } else {
        vec![0]
    };
    if !(zero_points.len() == 1 || zero_points.len() == n as usize) {
        return Err(format!(
            "{} zero points for {n} columns of the right operand",
            zero_points.len()
        ));
    }
    let values = data.to_i64s();
    let sums: Vec<i64> = (0..n as usize)
        .map(|c| {
            let zb = zero_points[if zero_points.len() == 1 { 0 } else { c }];
            (0..k as usize)
                .map(|r| values[r * n as usize + c] - zb)
                .sum()
        })
        .collect();
    Ok(TensorData::from_i64s(Element::I32, vec![n], &sums))
}

/// The run-time zero point (input 2) of an `element` operand, one per tensor, as a
/// scalar.
pub fn runtime_scalar_zero_point<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    element: Element,
) -> Result<Slot<'c, 'a>, String> {
    let z = cx.input(2)?;
    if z.shape.iter().product::<i64>() != 1 {
        return Err(format!(
            "a run-time zero point of shape {:?}: only one per tensor is supported",
            z.shape
        ));
    }
    if z.element != element {
        return Err(format!(
            "a zero point of type {:?} for an operand of type {element:?}",
            z.element
        ));
    }
    compose::reshape(cx, &z, &[])
}

/// `sum(w[f] - zw[f])` over each filter `f` of ConvInteger's constant filter (input 1,
/// zero points at input 3, one or one per filter), as an int32 vector.
pub fn filter_sums(cx: &NodeContext, w_shape: &[i64]) -> Result<TensorData, String> {
    let data = cx.constant_input(1, "with a run-time input zero point, the filter")?;
    let filters = w_shape[0].max(0) as usize;
    let zero_points = if cx.has_input(3) {
        cx.constant_input(3, "zero point of the filter")?.to_i64s()
    } else {
        vec![0]
    };
    if !(zero_points.len() == 1 || zero_points.len() == filters) {
        return Err(format!(
            "{} zero points for {filters} filters",
            zero_points.len()
        ));
    }
    let values = data.to_i64s();
    let per_filter = values.len().checked_div(filters).unwrap_or(0);
    let sums: Vec<i64> = (0..filters)
        .map(|f| {
            let zw = zero_points[if zero_points.len() == 1 { 0 } else { f }];
            values[f * per_filter..(f + 1) * per_filter]
                .iter()
                .map(|v| v - zw)
                .sum()
        })
        .collect();
    Ok(TensorData::from_i64s(
        Element::I32,
        vec![filters as i64],
        &sums,
    ))
}

/// MatMulInteger whose left zero point is a run-time scalar (see the module
/// documentation); `exact` is the int32 product with a zero left zero point.
pub fn correct_left_zero_point<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    exact: Slot<'c, 'a>,
) -> Converted<'c, 'a> {
    let a = cx.input(0)?;
    let za = runtime_scalar_zero_point(cx, a.element)?;
    let sums = Slot::constant(column_sums(cx)?);
    let za = compose::convert(cx, &za, Element::I32)?;
    let correction = bin(cx, Bin::Mul, &za, &sums)?;
    Ok(vec![bin(cx, Bin::Sub, &exact, &correction)?])
}

/// Whether a QuantizeLinear / DequantizeLinear takes its scale or zero point from a
/// value computed at run time.
pub fn has_runtime_parameters(cx: &NodeContext) -> bool {
    (1..=2).any(|i| cx.has_input(i) && cx.input(i).is_ok_and(|p| p.constant.is_none()))
}

/// A scale or zero point of `x` shaped to broadcast against it: as is for one value
/// per tensor, a column along `axis` for a 1-D one.
fn broadcastable<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    parameter: &Slot<'c, 'a>,
    x_shape: &[i64],
) -> Result<Slot<'c, 'a>, String> {
    let count: i64 = parameter.shape.iter().product();
    if count == 1 {
        return compose::reshape(cx, parameter, &[]);
    }
    if cx.attr_i("block_size", 0) > 0 {
        return Err("blocked quantization (block_size) is not supported".into());
    }
    let axis = normalize_axis(cx.attr_i("axis", 1), x_shape.len())?;
    if parameter.shape.len() != 1 || x_shape[axis] != count {
        return Err(format!(
            "parameters of shape {:?} for dimension {axis} of {x_shape:?}",
            parameter.shape
        ));
    }
    let mut shape = vec![1; x_shape.len()];
    shape[axis] = count;
    compose::reshape(cx, parameter, &shape)
}

/// QuantizeLinear with run-time parameters (see the module documentation).
pub fn quantize_with_runtime_parameters<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let scale = cx.input(1)?;
    if !x.element.is_float() || scale.element != x.element {
        return Err(format!(
            "input {:?} and scale {:?}: both must be the same float type",
            x.element, scale.element
        ));
    }
    let storage = match (cx.attr_i("output_dtype", 0) as i32, cx.has_input(2)) {
        (0, true) => cx.input(2)?.element,
        (0, false) => Element::U8,
        (code, _) => Element::from_onnx(code)
            .ok_or_else(|| format!("output_dtype {}", Element::onnx_name(code)))?,
    };
    let (low, high) = match storage {
        Element::U8 => (0.0, 255.0),
        Element::I8 => (-128.0, 127.0),
        other => return Err(format!("quantization to {other:?} is not supported")),
    };
    let scale = broadcastable(cx, &scale, &x.shape)?;
    let mut y = bin(cx, Bin::Div, &x, &scale)?;
    y = un(cx, Un::Round, &y)?;
    if cx.has_input(2) {
        let zero_point = cx.input(2)?;
        let zero_point = broadcastable(cx, &zero_point, &x.shape)?;
        let zero_point = compose::convert(cx, &zero_point, x.element)?;
        y = bin(cx, Bin::Add, &y, &zero_point)?;
    }
    y = bin(cx, Bin::Max, &y, &scalar(x.element, low))?;
    y = bin(cx, Bin::Min, &y, &scalar(x.element, high))?;
    Ok(vec![compose::convert(cx, &y, storage)?])
}

/// DequantizeLinear with run-time parameters (see the module documentation).
pub fn dequantize_with_runtime_parameters<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if x.quantization.is_some() {
        return Err("a quantized tensor dequantized with run-time parameters".into());
    }
    let scale = cx.input(1)?;
    if !scale.element.is_float() {
        return Err(format!("scale of type {:?}", scale.element));
    }
    let mut y = compose::convert(cx, &x, scale.element)?;
    if cx.has_input(2) {
        let zero_point = cx.input(2)?;
        let zero_point = broadcastable(cx, &zero_point, &x.shape)?;
        let zero_point = compose::convert(cx, &zero_point, scale.element)?;
        y = bin(cx, Bin::Sub, &y, &zero_point)?;
    }
    let scale = broadcastable(cx, &scale, &x.shape)?;
    Ok(vec![bin(cx, Bin::Mul, &y, &scale)?])
}
