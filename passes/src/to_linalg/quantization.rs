//! glow.quant ops -> linalg.generic on the storage integers (ONNX QuantizeLinear /
//! DequantizeLinear semantics):
//! - quantize: q = clamp(roundeven(x / scale) + zero_point) in the storage range,
//!   stored as the signless storage integer and cast back to the `!quant` type with
//!   quant.scast (consumers still see the quantized type)
//! - dequantize: x = (q - zero_point) * scale, reading the storage behind the
//!   operand's quant.scast
//! - rescale: dequantize then quantize
//!
//! Per-axis types read their scale and zero point at the quantized dimension's index.
//! The signless sweep at the end of the pass turns the remaining `!quant` types into
//! their storage integers and drops the casts that became identities.

use super::builder::{BodyBuilder, LinalgBuilder};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use glow_dialects::quant_types::{uniform, UniformQuantization};
use melior::{
    ir::{
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// A quantization parameter inside a generic body: the constant, or for per-axis types
/// the element of a constant vector at the quantized dimension's index.
struct Parameters<'c, 'r> {
    scales: Option<Value<'c, 'r>>,
    zero_points: Option<Value<'c, 'r>>,
}

fn vector_constants<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    quantization: &UniformQuantization,
) -> Parameters<'c, 'r> {
    if quantization.axis.is_none() {
        return Parameters {
            scales: None,
            zero_points: None,
        };
    }
    let count = quantization.scales.len() as i64;
    let i32_type: Type = IntegerType::new(b.context, 32).into();
    let scale_bytes: Vec<u8> = quantization
        .scales
        .iter()
        .flat_map(|s| (*s as f32).to_le_bytes())
        .collect();
    let zero_bytes: Vec<u8> = quantization
        .zero_points
        .iter()
        .flat_map(|z| (*z as i32).to_le_bytes())
        .collect();
    let scale_type = b.tensor(&[count], Type::float32(b.context));
    let zero_type = b.tensor(&[count], i32_type);
    Parameters {
        scales: Some(b.constant(
            glow_dialects::elements::dense_elements(scale_type, &scale_bytes),
            scale_type,
        )),
        zero_points: Some(b.constant(
            glow_dialects::elements::dense_elements(zero_type, &zero_bytes),
            zero_type,
        )),
    }
}

/// (scale as f32, zero point as i32) at the current element.
fn parameters_here<'c, 'k>(
    body: &BodyBuilder<'c, 'k>,
    quantization: &UniformQuantization,
    parameters: &Parameters<'c, '_>,
) -> (Value<'c, 'k>, Value<'c, 'k>) {
    let f32_type = Type::float32(body.context);
    let i32_type: Type = IntegerType::new(body.context, 32).into();
    match (quantization.axis, parameters.scales, parameters.zero_points) {
        (Some(axis), Some(scales), Some(zero_points)) => {
            let index = body.index(axis);
            (
                body.value("tensor.extract", &[scales, index], f32_type, &[]),
                body.value("tensor.extract", &[zero_points, index], i32_type, &[]),
            )
        }
        _ => (
            body.value(
                "arith.constant",
                &[],
                f32_type,
                &[(
                    "value",
                    &format!("{:.9e} : f32", quantization.scales[0] as f32),
                )],
            ),
            body.value(
                "arith.constant",
                &[],
                i32_type,
                &[("value", &format!("{} : i32", quantization.zero_points[0]))],
            ),
        ),
    }
}

/// The storage integers of `x` (floats of `shape`) quantized with `quantization`.
fn quantize_values<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    x: Value<'c, '_>,
    shape: &[i64],
    quantization: &UniformQuantization,
) -> Value<'c, 'r> {
    let storage: Type = IntegerType::new(b.context, quantization.width).into();
    let f32_type = Type::float32(b.context);
    let parameters = vector_constants(b, quantization);
    let element = tensor_info(x).expect("static tensor").1;
    b.elementwise(&[x], shape, storage, |body, args| {
        let i32_type: Type = IntegerType::new(body.context, 32).into();
        let (scale, zero_point) = parameters_here(body, quantization, &parameters);
        let x = if element == f32_type {
            args[0]
        } else {
            let name = if element.is_f64() {
                "arith.truncf"
            } else {
                "arith.extf"
            };
            body.value(name, &[args[0]], f32_type, &[])
        };
        let scaled = body.value("arith.divf", &[x, scale], f32_type, &[]);
        let rounded = body.value("math.roundeven", &[scaled], f32_type, &[]);
        let zero = body.value("arith.sitofp", &[zero_point], f32_type, &[]);
        let shifted = body.value("arith.addf", &[rounded, zero], f32_type, &[]);
        let bound = |v: i64| {
            body.value(
                "arith.constant",
                &[],
                f32_type,
                &[("value", &format!("{:.1} : f32", v as f64))],
            )
        };
        let (low, high) = (bound(quantization.range.0), bound(quantization.range.1));
        let clamped = body.value("arith.maximumf", &[shifted, low], f32_type, &[]);
        let clamped = body.value("arith.minimumf", &[clamped, high], f32_type, &[]);
        let as_int = body.value("arith.fptosi", &[clamped], i32_type, &[]);
        if quantization.width == 32 {
            as_int.to_raw()
        } else {
            body.op("arith.trunci", &[as_int], storage, &[])
        }
    })
}

/// The floats (`element`) of storage integers `q` quantized with `quantization`.
fn dequantize_values<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    q: Value<'c, '_>,
    shape: &[i64],
    quantization: &UniformQuantization,
    element: Type<'c>,
) -> Value<'c, 'r> {
    let f32_type = Type::float32(b.context);
    let parameters = vector_constants(b, quantization);
    b.elementwise(&[q], shape, element, |body, args| {
        let i32_type: Type = IntegerType::new(body.context, 32).into();
        let (scale, zero_point) = parameters_here(body, quantization, &parameters);
        let wide = if quantization.width == 32 {
            args[0]
        } else {
            let name = if quantization.signed {
                "arith.extsi"
            } else {
                "arith.extui"
            };
            body.value(name, &[args[0]], i32_type, &[])
        };
        let centred = body.value("arith.subi", &[wide, zero_point], i32_type, &[]);
        let real = body.value("arith.sitofp", &[centred], f32_type, &[]);
        let value = body.value("arith.mulf", &[real, scale], f32_type, &[]);
        if element == f32_type {
            value.to_raw()
        } else {
            let name = if element.is_f64() {
                "arith.extf"
            } else {
                "arith.truncf"
            };
            body.op(name, &[value], element, &[])
        }
    })
}

/// The storage integers behind a quantized value: the operand of the quant.scast that
/// produced it.
fn storage_of<'c, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    let defining = crate::framework::values::defining_op(value)?;
    let name = defining.name();
    if name.as_string_ref().as_str().ok()? != "quant.scast" {
        return None;
    }
    let storage = defining.operand(0).ok()?;
    // SAFETY: the storage value lives in the same IR as `value`.
    Some(unsafe { Value::from_raw(storage.to_raw()) })
}

/// The signless storage tensor of the quantized tensor `value`: the operand of the
/// quant.scast that produced it, or a new quant.scast (which the signless sweep
/// removes once both sides are the same integers).
pub(super) fn storage_value<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    value: Value<'c, '_>,
) -> Option<Value<'c, 'r>> {
    if let Some(storage) = storage_of(value) {
        // SAFETY: the value lives in the IR being rewritten.
        return Some(unsafe { Value::from_raw(storage.to_raw()) });
    }
    let (shape, element) = tensor_info(value)?;
    let (width, _) = glow_dialects::quant_types::storage(element)?;
    let storage = b.tensor(&shape, IntegerType::new(b.context, width).into());
    let cast = OperationBuilder::new("quant.scast", b.location)
        .add_operands(&[value])
        .add_results(&[storage])
        .build()
        .ok()?;
    Some(b.rewriter.insert(cast).result(0).ok()?.into())
}

/// `storage` viewed as the quantized tensor type `quantized` (quant.scast).
pub(super) fn view_as_quantized<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    storage: Value<'c, '_>,
    quantized: Type<'c>,
) -> Option<Value<'c, 'r>> {
    let cast = OperationBuilder::new("quant.scast", b.location)
        .add_operands(&[storage])
        .add_results(&[quantized])
        .build()
        .ok()?;
    Some(b.rewriter.insert(cast).result(0).ok()?.into())
}

/// `storage` viewed as `quantized` (quant.scast).
fn as_quantized<'c, 'r>(
    rewriter: &'r RewriterBase<'c, '_>,
    storage: Value<'c, '_>,
    quantized: Type<'c>,
    location: melior::ir::Location<'c>,
) -> Option<Value<'c, 'r>> {
    let cast = OperationBuilder::new("quant.scast", location)
        .add_operands(&[storage])
        .add_results(&[quantized])
        .build()
        .ok()?;
    Some(rewriter.insert(cast).result(0).ok()?.into())
}

fn quantize<'c>(
    context: &'c Context,
    op: melior::ir::OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(x), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some((shape, quantized)) = tensor_info(result.into()) else {
        return false;
    };
    let Some(quantization) = uniform(quantized) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let storage = quantize_values(&b, x, &shape, &quantization);
    let Some(value) = as_quantized(rewriter, storage, result.r#type(), op.location()) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

/// The quantized operand of a dequantize / rescale: its storage integers, shape and
/// quantization, and the op's result element type.
fn quantized_operand<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    op: melior::ir::OperationRef<'c, '_>,
) -> Option<(Value<'c, 'r>, Vec<i64>, UniformQuantization, Type<'c>)> {
    let q = op.operand(0).ok()?;
    let (shape, quantized) = tensor_info(q)?;
    let (_, result_element) = tensor_info(op.result(0).ok()?.into())?;
    let quantization = uniform(quantized)?;
    Some((storage_value(b, q)?, shape, quantization, result_element))
}

fn dequantize<'c>(
    context: &'c Context,
    op: melior::ir::OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let b = LinalgBuilder::before(context, op, rewriter);
    let Some((storage, shape, quantization, element)) = quantized_operand(&b, op) else {
        return false;
    };
    let converted = dequantize_values(&b, storage, &shape, &quantization, element);
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

fn rescale<'c>(
    context: &'c Context,
    op: melior::ir::OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let b = LinalgBuilder::before(context, op, rewriter);
    let (Ok(result), Some((storage, shape, from, quantized))) =
        (op.result(0), quantized_operand(&b, op))
    else {
        return false;
    };
    let Some(to) = uniform(quantized) else {
        return false;
    };
    let real = dequantize_values(&b, storage, &shape, &from, Type::float32(context));
    let stored = quantize_values(&b, real, &shape, &to);
    let Some(value) = as_quantized(rewriter, stored, result.r#type(), op.location()) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

/// `glow.quant.quantize`.
pub static QUANTIZE: Rule = Rule {
    root: "glow.quant.quantize",
    generates: &["linalg.generic", "quant.scast"],
    rewrite: quantize,
};
/// `glow.quant.dequantize`.
pub static DEQUANTIZE: Rule = Rule {
    root: "glow.quant.dequantize",
    generates: &["linalg.generic"],
    rewrite: dequantize,
};
/// `glow.quant.rescale`.
pub static RESCALE: Rule = Rule {
    root: "glow.quant.rescale",
    generates: &["linalg.generic", "quant.scast"],
    rewrite: rescale,
};
