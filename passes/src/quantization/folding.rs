//! Glow's quantization folding, on QDQ graphs (ONNX models quantized by onnxruntime,
//! or float graphs glow-quantize wrapped in quantize / dequantize):
//! - quantize(op(dequantize(x), dequantize(w), ...)) -> the integer op
//!   (glow.quant.conv2d / fully_connected / batch_matmul / add / mul / avg_pool, a
//!   lookup_table for sigmoid and tanh, a concat of rescaled inputs), with a ReLU or
//!   Clip between op and quantize fused as the op's clamp; a float constant bias is
//!   quantized to int32 at compile time              ([`FOLD_QUANTIZED_COMPUTE`])
//! - quantize(dequantize(x)) -> rescale(x), or x when the types match
//! - max_pool / reshape / transpose / slice / broadcast / concat of dequantized
//!   per-tensor values -> the op on the quantized values, then one dequantize
//!   ([`SINK_DEQUANTIZE`])
//! - quantize(reshape / transpose(v)) -> reshape / transpose(quantize(v)) for a
//!   per-tensor quantize, so products whose 3-D operands the importer flattened to
//!   2-D (`reshape(matmul(reshape(x), w))`) meet their quantize      ([`HOIST_QUANTIZE`])
//! - rescale of an integer op's only result -> the op requantizing to that type
//!   directly                                          ([`MERGE_RESCALE`])
//! - dequantize of a quantized constant left over (weights of float islands) -> a
//!   float constant, computed now                      ([`FOLD_CONSTANT_DEQUANTIZE`])

use super::{
    ir::{
        dequantized, float_constant, name_of, operand, produced_by, producer, quantized,
        quantized_constant, tensor_type, Emitter,
    },
    quantize::KEEP_FLOAT,
};
use crate::{
    framework::{attributes, Rule},
    graph_optimize::compose_transposes::has_one_use,
    lower_nodes::builder::tensor_info,
};
use glow_dialects::quant_types::{self, UniformQuantization};
use melior::{
    ir::{
        attribute::FloatAttribute, operation::OperationLike, Attribute, OperationRef, Type,
        TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// quantize(op(dequantize ...)) -> the integer op; quantize(dequantize(x)) -> rescale.
pub static FOLD_QUANTIZED_COMPUTE: Rule = Rule {
    root: "glow.quant.quantize",
    generates: &[
        "glow.quant.conv2d",
        "glow.quant.fully_connected",
        "glow.quant.batch_matmul",
        "glow.quant.add",
        "glow.quant.mul",
        "glow.quant.avg_pool",
        "glow.quant.lookup_table",
        "glow.quant.rescale",
        "glow.graph.concat",
    ],
    rewrite: fold_quantized_compute,
};

macro_rules! sink_rules {
    ($($name:ident => $root:literal),* $(,)?) => {
        $(
            #[doc = concat!("`", $root, "` of dequantized values -> the op on the quantized values.")]
            pub static $name: Rule = Rule {
                root: $root,
                generates: &[$root, "glow.quant.dequantize"],
                rewrite: sink_dequantize,
            };
        )*
        /// Every dequantize-sinking rule.
        pub static SINK_DEQUANTIZE: &[&Rule] = &[$(&$name),*];
    };
}

sink_rules! {
    SINK_DEQUANTIZE_MAX_POOL => "glow.graph.max_pool",
    SINK_DEQUANTIZE_RESHAPE => "glow.graph.reshape",
    SINK_DEQUANTIZE_TRANSPOSE => "glow.graph.transpose",
    SINK_DEQUANTIZE_SLICE => "glow.graph.slice",
    SINK_DEQUANTIZE_BROADCAST => "glow.graph.broadcast",
    SINK_DEQUANTIZE_CONCAT => "glow.graph.concat",
}

macro_rules! hoist_rules {
    ($($name:ident => $root:literal),* $(,)?) => {
        $(
            #[doc = concat!("quantize(`", $root, "`(v)) -> `", $root, "`(quantize(v)).")]
            pub static $name: Rule = Rule {
                root: "glow.quant.quantize",
                generates: &["glow.quant.quantize", $root],
                rewrite: |context, op, rewriter| hoist_quantize(context, op, rewriter, $root),
            };
        )*
        /// Every quantize-hoisting rule.
        pub static HOIST_QUANTIZE: &[&Rule] = &[$(&$name),*];
    };
}

hoist_rules! {
    HOIST_QUANTIZE_RESHAPE => "glow.graph.reshape",
    HOIST_QUANTIZE_TRANSPOSE => "glow.graph.transpose",
}

/// rescale(integer op) -> the op with the rescale's result type.
pub static MERGE_RESCALE: Rule = Rule {
    root: "glow.quant.rescale",
    generates: &[],
    rewrite: merge_rescale,
};

/// dequantize(quantized constant) -> float constant.
pub static FOLD_CONSTANT_DEQUANTIZE: Rule = Rule {
    root: "glow.quant.dequantize",
    generates: &["glow.graph.constant"],
    rewrite: fold_constant_dequantize,
};

/// The integer ops whose result type is their requantization target.
const REQUANTIZING_OPS: &[&str] = &[
    "glow.quant.conv2d",
    "glow.quant.fully_connected",
    "glow.quant.batch_matmul",
    "glow.quant.add",
    "glow.quant.mul",
    "glow.quant.avg_pool",
];

/// `value` without a ReLU / Clip on top (only used once): the op's output and the
/// clamp those activations apply, in real values.
fn peel_activation<'c: 'a, 'a>(value: Value<'c, 'a>) -> (Value<'c, 'a>, Option<f64>, Option<f64>) {
    let Some(op) = producer(value) else {
        return (value, None, None);
    };
    let Some(input) = operand(op, 0) else {
        return (value, None, None);
    };
    if !has_one_use(input) {
        return (value, None, None);
    }
    match name_of(op).as_str() {
        "glow.graph.relu" => (input, Some(0.0), None),
        "glow.graph.clip" => (
            input,
            attributes::f64_value(op, "min"),
            attributes::f64_value(op, "max"),
        ),
        _ => (value, None, None),
    }
}

/// The attributes named `names` that `op` has.
fn copied<'c>(
    op: OperationRef<'c, '_>,
    names: &[&'static str],
) -> Vec<(&'static str, Attribute<'c>)> {
    names
        .iter()
        .filter_map(|name| op.attribute(name).ok().map(|a| (*name, a)))
        .collect()
}

fn f64_attribute(context: &Context, value: f64) -> Attribute<'_> {
    FloatAttribute::new(context, Type::float64(context), value).into()
}

/// The int32 bias of an integer op whose input and weights are `x` and `w` (weights
/// quantized along `axis` or per tensor): a dequantized int32 value as is, or a
/// float constant quantized now with scale_x * scale_w per output channel.
fn quantized_bias<'c, 'r>(
    e: &Emitter<'c, 'r, '_>,
    bias: Value<'c, '_>,
    x: &UniformQuantization,
    w: &UniformQuantization,
) -> Option<Value<'c, 'r>> {
    if let Some(quantized_bias) = dequantized(bias) {
        let (_, q) = quantized(quantized_bias)?;
        // SAFETY: the value lives in the IR being rewritten.
        return (q.width == 32).then(|| unsafe { Value::from_raw(quantized_bias.to_raw()) });
    }
    let (shape, element) = tensor_info(bias)?;
    let count = shape.iter().product::<i64>() as usize;
    let values = float_constant(bias, count)?;
    // The product rounded to f32, as onnxruntime computes bias scales.
    let scales: Vec<f64> = (0..count)
        .map(|c| (x.scales[0] as f32 * w.scale(c) as f32) as f64)
        .collect();
    let quantization = UniformQuantization {
        axis: w.axis.map(|_| 0),
        scales: if w.axis.is_some() {
            scales.clone()
        } else {
            vec![scales[0]]
        },
        zero_points: vec![0; if w.axis.is_some() { count } else { 1 }],
        ..UniformQuantization::per_tensor(1.0, 0, 32, true)
    };
    let stored: Vec<i64> = values
        .iter()
        .zip(&scales)
        .map(|(v, s)| {
            (*v as f64 / s)
                .round_ties_even()
                .clamp(i32::MIN as f64, i32::MAX as f64) as i64
        })
        .collect();
    Some(e.quantized_constant(&shape, &stored, &quantization, element))
}

/// The 256-entry table of `f` from `input`'s 8-bit storage to `output`'s.
fn lookup_table(
    f: fn(f64) -> f64,
    input: &UniformQuantization,
    output: &UniformQuantization,
) -> Vec<u8> {
    let low = input.range.0;
    (0..256)
        .map(|i| {
            let stored = low + i;
            let real = (stored - input.zero_points[0]) as f64 * input.scales[0];
            let q = (f(real) / output.scales[0]).round_ties_even() + output.zero_points[0] as f64;
            q.clamp(output.range.0 as f64, output.range.1 as f64) as i64 as u8
        })
        .collect()
}

fn fold_quantized_compute<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(y), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let result_type = result.r#type();
    let Some((_, out)) = quantized(result.into()) else {
        return false;
    };
    let out_element = tensor_info(result.into()).expect("static").1;
    let e = Emitter::before(context, op, rewriter);
    if let Some(x) = dequantized(y) {
        // SAFETY: the value lives in the IR being rewritten.
        let x = unsafe { Value::from_raw(x.to_raw()) };
        let value = e.rescale(x, out_element);
        rewriter.replace_op_with_values(op, &[value]);
        return true;
    }
    let (core, min, max) = peel_activation(y);
    if !has_one_use(core) || out.axis.is_some() {
        return false;
    }
    let Some(compute) = producer(core) else {
        return false;
    };
    if compute.has_attribute(KEEP_FLOAT) {
        return false;
    }
    let clamp: Vec<(&str, Attribute)> = [("min", min), ("max", max)]
        .into_iter()
        .filter_map(|(n, v)| v.map(|v| (n, f64_attribute(context, v))))
        .collect();
    let dq = |i: usize| operand(compute, i).and_then(dequantized);
    let with_clamp = |mut attributes: Vec<(&'static str, Attribute<'c>)>| {
        attributes.extend(clamp.iter().copied());
        attributes
    };
    let name = name_of(compute);
    let value = match name.as_str() {
        "glow.graph.conv2d" | "glow.graph.fully_connected" | "glow.graph.matmul" => {
            let (Some(x), Some(w)) = (dq(0), dq(1)) else {
                return false;
            };
            let (Some((_, xq)), Some((_, wq))) = (quantized(x), quantized(w)) else {
                return false;
            };
            let mut operands = vec![x, w];
            if compute.operand_count() == 3 {
                let Some(bias) = compute
                    .operand(2)
                    .ok()
                    .and_then(|b| quantized_bias(&e, b, &xq, &wq))
                else {
                    return false;
                };
                operands.push(bias);
            }
            let (target, attributes) = if name == "glow.graph.conv2d" {
                let geometry = copied(
                    compute,
                    &["strides", "pads", "dilations", "group", "channels_last"],
                );
                ("glow.quant.conv2d", with_clamp(geometry))
            } else {
                ("glow.quant.fully_connected", with_clamp(Vec::new()))
            };
            e.op(target, &operands, &attributes, result_type)
        }
        "glow.graph.batch_matmul" => {
            let (Some(a), Some(b)) = (dq(0), dq(1)) else {
                return false;
            };
            if min.is_some() || max.is_some() {
                return false;
            }
            e.op("glow.quant.batch_matmul", &[a, b], &[], result_type)
        }
        "glow.graph.add" | "glow.graph.mul" => {
            let (Some(a), Some(b)) = (dq(0), dq(1)) else {
                return false;
            };
            let target = if name == "glow.graph.add" {
                "glow.quant.add"
            } else {
                "glow.quant.mul"
            };
            e.op(target, &[a, b], &with_clamp(Vec::new()), result_type)
        }
        "glow.graph.avg_pool" => {
            let Some(x) = dq(0) else {
                return false;
            };
            let unit_dilations = attributes::i64_array(compute, "dilations")
                .is_none_or(|d| d.iter().all(|v| *v == 1));
            if !unit_dilations || !clamp.is_empty() {
                return false;
            }
            let attributes = copied(
                compute,
                &[
                    "kernel",
                    "strides",
                    "pads",
                    "count_include_pad",
                    "channels_last",
                ],
            );
            e.op("glow.quant.avg_pool", &[x], &attributes, result_type)
        }
        "glow.graph.sigmoid" | "glow.graph.tanh" => {
            let Some(x) = dq(0) else {
                return false;
            };
            let Some((shape, xq)) = quantized(x) else {
                return false;
            };
            if xq.width != 8 || out.width != 8 || !clamp.is_empty() {
                return false;
            }
            let f: fn(f64) -> f64 = if name == "glow.graph.sigmoid" {
                |v| 1.0 / (1.0 + (-v).exp())
            } else {
                f64::tanh
            };
            let table = lookup_table(f, &xq, &out);
            let table_type = tensor_type(
                &[256],
                melior::ir::r#type::IntegerType::new(context, 8).into(),
            );
            let attribute = glow_dialects::elements::dense_elements(table_type, &table);
            let _ = shape;
            e.op(
                "glow.quant.lookup_table",
                &[x],
                &[("table", attribute)],
                result_type,
            )
        }
        "glow.graph.concat" => {
            let inputs: Option<Vec<Value>> = (0..compute.operand_count()).map(dq).collect();
            let Some(inputs) = inputs else {
                return false;
            };
            if !clamp.is_empty() {
                return false;
            }
            let rescaled: Vec<Value> = inputs
                .iter()
                .map(|x| {
                    // SAFETY: the value lives in the IR being rewritten.
                    let x = unsafe { Value::from_raw(x.to_raw()) };
                    e.rescale(x, out_element)
                })
                .collect();
            e.op(
                "glow.graph.concat",
                &rescaled,
                &copied(compute, &["dim"]),
                result_type,
            )
        }
        _ => return false,
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn hoist_quantize<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    movement: &str,
) -> bool {
    let (Ok(y), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some(moved) = produced_by(y, movement) else {
        return false;
    };
    let Some((_, out)) = quantized(result.into()) else {
        return false;
    };
    let Some(v) = operand(moved, 0) else {
        return false;
    };
    if out.axis.is_some() || !has_one_use(y) || moved.has_attribute(KEEP_FLOAT) {
        return false;
    }
    let (Some((v_shape, _)), Some((_, element))) = (tensor_info(v), tensor_info(result.into()))
    else {
        return false;
    };
    let e = Emitter::before(context, op, rewriter);
    let quantized_v = e.op(
        "glow.quant.quantize",
        &[v],
        &[],
        tensor_type(&v_shape, element),
    );
    let attributes = copied(moved, &["perm"]);
    let value = e.op(movement, &[quantized_v], &attributes, result.r#type());
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn sink_dequantize<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    if op.has_attribute(KEEP_FLOAT) {
        return false;
    }
    let Some((shape, _)) = tensor_info(result.into()) else {
        return false;
    };
    let mut element: Option<Type> = None;
    let mut inputs = Vec::new();
    for i in 0..op.operand_count() {
        let Some(x) = operand(op, i).and_then(dequantized) else {
            return false;
        };
        let Some((_, q)) = quantized(x) else {
            return false;
        };
        let x_element = tensor_info(x).expect("static").1;
        if q.axis.is_some() || element.is_some_and(|e| e != x_element) {
            return false;
        }
        element = Some(x_element);
        inputs.push(x);
    }
    let Some(element) = element else {
        return false;
    };
    let e = Emitter::before(context, op, rewriter);
    let moved = rewriter.clone_op(op);
    for (i, x) in inputs.iter().enumerate() {
        // SAFETY: the clone is alive and takes the quantized value in place of its
        // dequantized twin (same shape).
        unsafe { mlir_sys::mlirOperationSetOperand(moved.to_raw(), i as isize, x.to_raw()) };
    }
    let moved_result = moved.result(0).expect("one result");
    // SAFETY: the moved op now yields quantized elements of the same shape.
    unsafe {
        mlir_sys::mlirValueSetType(moved_result.to_raw(), tensor_type(&shape, element).to_raw())
    };
    let value = e.dequantize(moved_result.into());
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn merge_rescale<'c>(
    _: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some(producer) = producer(input) else {
        return false;
    };
    if !REQUANTIZING_OPS.contains(&name_of(producer).as_str()) || !has_one_use(input) {
        return false;
    }
    let (Some((_, from)), Some((_, to))) = (quantized(input), quantized(result.into())) else {
        return false;
    };
    // An exact int32 accumulator (ConvInteger) is not requantized by its op.
    if from.width == 32 || to.width != 8 {
        return false;
    }
    rewriter.start_op_modification(producer);
    // SAFETY: the producer's result takes the rescale's type; its only use is the
    // rescale, which is replaced by it.
    unsafe { mlir_sys::mlirValueSetType(input.to_raw(), result.r#type().to_raw()) };
    rewriter.finalize_op_modification(producer);
    rewriter.replace_op_with_values(op, &[input]);
    true
}

fn fold_constant_dequantize<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some((shape, values, q)) = quantized_constant(input) else {
        return false;
    };
    let Some((_, element)) = tensor_info(result.into()) else {
        return false;
    };
    if !element.is_f32() {
        return false;
    }
    let inner: usize = match q.axis {
        Some(axis) => shape[axis + 1..].iter().product::<i64>() as usize,
        None => 1,
    };
    let channels = q.scales.len();
    let bytes: Vec<u8> = values
        .iter()
        .enumerate()
        .flat_map(|(i, v)| {
            let c = if q.axis.is_some() {
                (i / inner) % channels
            } else {
                0
            };
            let real = (v - q.zero_points[c]) as f32 * q.scales[c] as f32;
            real.to_le_bytes()
        })
        .collect();
    let e = Emitter::before(context, op, rewriter);
    let r#type = tensor_type(&shape, element);
    let attribute = super::ir::elements_attribute(r#type, &bytes, "dequantized");
    let value = e.op("glow.graph.constant", &[], &[("value", attribute)], r#type);
    rewriter.replace_op_with_values(op, &[value]);
    true
}

/// Whether `value` is produced by a `glow.quant.dequantize`.
pub fn is_dequantized(value: Value) -> bool {
    produced_by(value, "glow.quant.dequantize").is_some()
}

/// The expressed float type of a quantized value.
pub fn expressed_of<'c>(value: Value<'c, '_>) -> Option<Type<'c>> {
    quant_types::expressed(tensor_info(value)?.1)
}
