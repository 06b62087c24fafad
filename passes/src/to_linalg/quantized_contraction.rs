//! The reference lowering of glow.quant's contractions to linalg on the storage
//! integers: glow.quant.conv2d (any group, NCHW or NHWC) becomes a `linalg.generic`
//! accumulating sum((x - zx) * (w - zw)) in int32 (the input padded with its zero
//! point); fully_connected and batch_matmul an int32 `linalg.matmul` /
//! `linalg.batch_matmul` of the operands widened and centred on their zero points
//! (which the CPU schedule tiles and vectorizes); then an elementwise requantization
//! y = clamp(roundeven(acc * sx * sw[c] / sy + (bias[c] - zb[c]) * sb[c] / sy) + zy).
//! Any zero points and per-channel parameters; an int32 result is the exact
//! accumulator plus bias (ONNX ConvInteger / MatMulInteger). glow-quant-kernels
//! replaces the common cases with VNNI micro-kernels before this runs.

use super::{
    builder::{BodyBuilder, LinalgBuilder},
    quantization::{storage_value, view_as_quantized},
};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use glow_dialects::{
    elements::dense_elements,
    quant_types::{uniform, UniformQuantization},
};
use melior::{
    ir::{
        attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, OperationRef,
        Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// `glow.quant.conv2d`.
pub static QUANT_CONV2D: Rule = Rule {
    root: "glow.quant.conv2d",
    generates: &["linalg.generic", "tensor.pad"],
    rewrite: conv2d,
};
/// `glow.quant.fully_connected`.
pub static QUANT_FULLY_CONNECTED: Rule = Rule {
    root: "glow.quant.fully_connected",
    generates: &["linalg.generic"],
    rewrite: fully_connected,
};
/// `glow.quant.batch_matmul`.
pub static QUANT_BATCH_MATMUL: Rule = Rule {
    root: "glow.quant.batch_matmul",
    generates: &["linalg.generic"],
    rewrite: batch_matmul,
};

/// A quantized operand: its storage tensor, shape and parameters.
pub(super) struct Operand<'c, 'r> {
    pub storage: Value<'c, 'r>,
    pub shape: Vec<i64>,
    pub q: UniformQuantization,
}

pub(super) fn operand<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    op: OperationRef<'c, '_>,
    i: usize,
) -> Option<Operand<'c, 'r>> {
    let value = op.operand(i).ok()?;
    let (shape, element) = tensor_info(value)?;
    let q = uniform(element)?;
    Some(Operand {
        storage: storage_value(b, value)?,
        shape,
        q,
    })
}

pub(super) fn i32_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 32).into()
}

/// A constant 1-D tensor: f32 `values` or i32 `integers`.
pub(super) fn vector<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    floats: Option<&[f64]>,
    integers: Option<&[i64]>,
) -> Value<'c, 'r> {
    let (element, bytes): (Type, Vec<u8>) = match (floats, integers) {
        (Some(values), _) => (
            Type::float32(b.context),
            values
                .iter()
                .flat_map(|v| (*v as f32).to_le_bytes())
                .collect(),
        ),
        (_, Some(values)) => (
            i32_type(b.context),
            values
                .iter()
                .flat_map(|v| (*v as i32).to_le_bytes())
                .collect(),
        ),
        _ => unreachable!("one of floats or integers"),
    };
    let count = (bytes.len() / 4) as i64;
    let r#type = b.tensor(&[count], element);
    b.constant(dense_elements(r#type, &bytes), r#type)
}

/// An arith constant in a body.
pub(super) fn constant<'c, 'k>(
    body: &BodyBuilder<'c, 'k>,
    text: &str,
    r#type: Type<'c>,
) -> Value<'c, 'k> {
    body.value("arith.constant", &[], r#type, &[("value", text)])
}

/// `value` (an 8-bit storage integer) widened to i32 and centred on `zero_point`
/// (a constant, or a value of the body).
pub(super) fn centred<'c, 'k>(
    body: &BodyBuilder<'c, 'k>,
    value: Value<'c, 'k>,
    q: &UniformQuantization,
    zero_point: Option<Value<'c, 'k>>,
) -> Value<'c, 'k> {
    let i32 = i32_type(body.context);
    let wide = if q.width == 32 {
        value
    } else {
        let extend = if q.signed {
            "arith.extsi"
        } else {
            "arith.extui"
        };
        body.value(extend, &[value], i32, &[])
    };
    let zero_point = match zero_point {
        Some(z) => z,
        None if q.zero_points.iter().all(|z| *z == 0) => return wide,
        None => constant(body, &format!("{} : i32", q.zero_points[0]), i32),
    };
    body.value("arith.subi", &[wide, zero_point], i32, &[])
}

/// The storage value of the real number `value` in `q` (per tensor), clamped to the
/// storage range.
fn stored(value: f64, q: &UniformQuantization) -> i64 {
    let v = (value / q.scales[0]).round_ties_even() + q.zero_points[0] as f64;
    v.clamp(q.range.0 as f64, q.range.1 as f64) as i64
}

/// The bounds a requantization clamps to: the storage range, narrowed by the op's
/// `min` / `max` (real values).
pub(crate) fn clamp_bounds(op: OperationRef, out: &UniformQuantization) -> (i64, i64) {
    let min = crate::framework::attributes::f64_value(op, "min");
    let max = crate::framework::attributes::f64_value(op, "max");
    (
        min.map_or(out.range.0, |m| stored(m, out).max(out.range.0)),
        max.map_or(out.range.1, |m| stored(m, out).min(out.range.1)),
    )
}

/// The affine map text `(d0, ..., dn) -> (exprs)`.
pub(super) fn map(dims: usize, exprs: &[String]) -> String {
    let names: Vec<String> = (0..dims).map(|d| format!("d{d}")).collect();
    format!(
        "affine_map<({}) -> ({})>",
        names.join(", "),
        exprs.join(", ")
    )
}

/// The requantization multiplier (scale_x * scale_w) / scale_y, rounded to f32 at
/// each step as onnxruntime's QLinearConv computes it from its f32 scales (the
/// scales themselves are f32 values held as f64), so both round alike.
pub(crate) fn multiplier(product: f64, output_scale: f64) -> f64 {
    (product as f32 / output_scale as f32) as f64
}

/// What an accumulator is requantized with.
pub(super) struct Requantization<'c, 'r, 'v> {
    /// Dimension of the accumulator indexing the output channels.
    pub channel: usize,
    /// scale_input * scale_weights[c] (one value per channel, or one).
    pub products: Vec<f64>,
    /// The int32 bias operand, if any.
    pub bias: Option<&'v Operand<'c, 'r>>,
    /// Result parameters.
    pub out: UniformQuantization,
    /// Clamp bounds in storage values.
    pub bounds: (i64, i64),
}

/// The requantized storage tensor of the int32 accumulator `acc` of `shape`.
pub(super) fn requantize<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    acc: Value<'c, '_>,
    shape: &[i64],
    r: &Requantization<'c, 'r, '_>,
) -> Value<'c, 'r> {
    let rank = shape.len();
    let channels = shape[r.channel];
    let per_channel = |values: &[f64]| -> Vec<f64> {
        (0..channels as usize)
            .map(|c| values[if values.len() == 1 { 0 } else { c }])
            .collect()
    };
    let identity: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let channel_map = map(rank, &[format!("d{}", r.channel)]);
    let storage_element: Type = IntegerType::new(b.context, r.out.width).into();
    let init = b.empty(b.tensor(shape, storage_element));
    let exact = r.out.width == 32;
    let mut ins: Vec<Value> = vec![acc];
    let mut maps = vec![map(rank, &identity)];
    if !exact {
        let multipliers: Vec<f64> = per_channel(&r.products)
            .iter()
            .map(|p| multiplier(*p, r.out.scales[0]))
            .collect();
        ins.push(vector(b, Some(&multipliers), None));
        maps.push(channel_map.clone());
    }
    if let Some(bias) = r.bias {
        let scales: Vec<f64> = (0..channels as usize)
            .map(|c| bias.q.scale(c) / r.out.scales[0])
            .collect();
        let zero_points: Vec<i64> = (0..channels as usize)
            .map(|c| bias.q.zero_point(c))
            .collect();
        ins.push(bias.storage);
        ins.push(vector(b, Some(&scales), None));
        ins.push(vector(b, None, Some(&zero_points)));
        maps.extend(vec![channel_map.clone(); 3]);
    }
    maps.push(map(rank, &identity));
    let has_bias = r.bias.is_some();
    // A bias in units of the accumulator (scale_b = scale_x * scale_w, as
    // onnxruntime's quantizer writes it) is added as an integer before the one
    // rounding, as QLinearConv does; another scale is added in float.
    let integer_bias = r.bias.is_some_and(|bias| {
        (0..channels as usize).all(|c| {
            let product = per_channel(&r.products)[c];
            (bias.q.scale(c) - product).abs() <= 1e-6 * product.abs().max(f64::MIN_POSITIVE)
        })
    });
    let (low, high) = r.bounds;
    let zero_point = r.out.zero_points[0];
    let width = r.out.width;
    b.generic(
        &ins,
        &[init],
        &maps,
        &vec!["parallel"; rank],
        |body, args| {
            let i32 = i32_type(body.context);
            let f32 = Type::float32(body.context);
            let mut acc = args[0];
            if exact || integer_bias {
                let (bias, bias_zero) = if exact { (1, 3) } else { (2, 4) };
                if has_bias {
                    let centred =
                        body.value("arith.subi", &[args[bias], args[bias_zero]], i32, &[]);
                    acc = body.value("arith.addi", &[acc, centred], i32, &[]);
                }
                if exact {
                    return vec![acc];
                }
            }
            let real = body.value("arith.sitofp", &[acc], f32, &[]);
            let mut scaled = body.value("arith.mulf", &[real, args[1]], f32, &[]);
            if has_bias && !integer_bias {
                let bias = body.value("arith.subi", &[args[2], args[4]], i32, &[]);
                let bias = body.value("arith.sitofp", &[bias], f32, &[]);
                let bias = body.value("arith.mulf", &[bias, args[3]], f32, &[]);
                scaled = body.value("arith.addf", &[scaled, bias], f32, &[]);
            }
            let rounded = body.value("math.roundeven", &[scaled], f32, &[]);
            let zero = constant(body, &format!("{:.1} : f32", zero_point as f64), f32);
            let shifted = body.value("arith.addf", &[rounded, zero], f32, &[]);
            let lo = constant(body, &format!("{:.1} : f32", low as f64), f32);
            let hi = constant(body, &format!("{:.1} : f32", high as f64), f32);
            let clamped = body.value("arith.maximumf", &[shifted, lo], f32, &[]);
            let clamped = body.value("arith.minimumf", &[clamped, hi], f32, &[]);
            let integer = body.value("arith.fptosi", &[clamped], i32, &[]);
            let narrow = IntegerType::new(body.context, width).into();
            vec![body.value("arith.trunci", &[integer], narrow, &[])]
        },
    )
    .remove(0)
}

/// A zero-filled i32 accumulator of `shape`.
fn accumulator<'c, 'r>(b: &LinalgBuilder<'c, 'r, '_>, shape: &[i64]) -> Value<'c, 'r> {
    let i32 = i32_type(b.context);
    b.zeros(b.tensor(shape, i32), IntegerAttribute::new(i32, 0).into())
}

/// sum((lhs - zl) * (rhs - zr[c])) over the reduction dimensions of `iterators`, into
/// an i32 accumulator of `shape`; `channel_map` selects the rhs zero point of a
/// per-axis rhs.
#[allow(clippy::too_many_arguments)]
fn contract<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    lhs: &Operand<'c, 'r>,
    rhs: &Operand<'c, 'r>,
    shape: &[i64],
    lhs_map: String,
    rhs_map: String,
    out_map: String,
    channel_map: String,
    iterators: &[&str],
) -> Value<'c, 'r> {
    let acc = accumulator(b, shape);
    let per_channel_zero = rhs.q.axis.is_some() && rhs.q.zero_points.iter().any(|z| *z != 0);
    let mut ins = vec![lhs.storage, rhs.storage];
    let mut maps = vec![lhs_map, rhs_map];
    if per_channel_zero {
        ins.push(vector(b, None, Some(&rhs.q.zero_points)));
        maps.push(channel_map);
    }
    maps.push(out_map);
    let (lq, rq) = (lhs.q.clone(), rhs.q.clone());
    b.generic(&ins, &[acc], &maps, iterators, |body, args| {
        let i32 = i32_type(body.context);
        let x = centred(body, args[0], &lq, None);
        let zero = per_channel_zero.then(|| args[2]);
        let rq_tensor = UniformQuantization {
            axis: None,
            ..rq.clone()
        };
        let w = centred(body, args[1], &rq_tensor, zero);
        let product = body.value("arith.muli", &[x, w], i32, &[]);
        vec![body.value("arith.addi", &[args[args.len() - 1], product], i32, &[])]
    })
    .remove(0)
}

/// `x`'s storage widened to i32 and centred on its zero points (per tensor, or per
/// channel along `channel` for a per-axis operand).
fn centred_tensor<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    x: &Operand<'c, 'r>,
    channel: usize,
) -> Value<'c, 'r> {
    let rank = x.shape.len();
    let identity: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let per_channel_zero = x.q.axis.is_some() && x.q.zero_points.iter().any(|z| *z != 0);
    let mut ins = vec![x.storage];
    let mut maps = vec![map(rank, &identity)];
    if per_channel_zero {
        ins.push(vector(b, None, Some(&x.q.zero_points)));
        maps.push(map(rank, &[format!("d{channel}")]));
    }
    maps.push(map(rank, &identity));
    let init = b.empty(b.tensor(&x.shape, i32_type(b.context)));
    let q = UniformQuantization {
        axis: None,
        ..x.q.clone()
    };
    b.generic(
        &ins,
        &[init],
        &maps,
        &vec!["parallel"; rank],
        |body, args| {
            let zero = per_channel_zero.then(|| args[1]);
            vec![centred(body, args[0], &q, zero)]
        },
    )
    .remove(0)
}

/// sum((lhs - zl) * (rhs - zr)) as the named int32 `linalg.matmul` /
/// `linalg.batch_matmul` (`name`) of the centred operands, which the CPU schedule
/// tiles and vectorizes like its float twin.
fn named_contraction<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    name: &str,
    lhs: &Operand<'c, 'r>,
    rhs: &Operand<'c, 'r>,
    shape: &[i64],
) -> Value<'c, 'r> {
    let rank = shape.len();
    let (l, r) = (
        centred_tensor(b, lhs, rank - 1),
        centred_tensor(b, rhs, rank - 1),
    );
    let acc = accumulator(b, shape);
    b.named(
        name,
        &[l, r],
        acc,
        b.tensor(shape, i32_type(b.context)),
        &[],
    )
}

fn replace_with<'c>(
    b: &LinalgBuilder<'c, '_, '_>,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    storage: Value<'c, '_>,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let Some(value) = view_as_quantized(b, storage, result.r#type()) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn result_parameters(op: OperationRef) -> Option<(Vec<i64>, UniformQuantization)> {
    let (shape, element) = tensor_info(op.result(0).ok()?.into())?;
    Some((shape, uniform(element)?))
}

fn conv2d<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((y_shape, out)) = result_parameters(op) else {
        return false;
    };
    let array = |name| crate::framework::attributes::i64_array(op, name);
    let (Some(strides), Some(pads), Some(dilations)) =
        (array("strides"), array("pads"), array("dilations"))
    else {
        return false;
    };
    let group = op
        .attribute("group")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(1, |g| g.value());
    let channels_last = op.attribute("channels_last").is_ok();
    let b = LinalgBuilder::before(context, op, rewriter);
    let (Some(x), Some(w)) = (operand(&b, op, 0), operand(&b, op, 1)) else {
        return false;
    };
    let bias = if op.operand_count() == 3 {
        match operand(&b, op, 2) {
            Some(bias) => Some(bias),
            None => return false,
        }
    } else {
        None
    };
    let (f, cg, kh, kw) = (w.shape[0], w.shape[1], w.shape[2], w.shape[3]);
    let fg = f / group;
    // Padded positions hold the input's zero point (real 0).
    let zx = x.q.zero_points[0];
    let pad_value =
        IntegerAttribute::new(IntegerType::new(context, 8).into(), zx as u8 as i8 as i64);
    let (low, high) = if channels_last {
        ([0, pads[0], pads[1], 0], [0, pads[2], pads[3], 0])
    } else {
        ([0, 0, pads[0], pads[1]], [0, 0, pads[2], pads[3]])
    };
    let padded = if pads.iter().any(|p| *p != 0) {
        b.pad(
            x.storage,
            &low,
            &high,
            pad_value.into(),
            IntegerType::new(context, 8).into(),
        )
    } else {
        x.storage
    };
    let padded = Operand {
        storage: padded,
        shape: x.shape.clone(),
        q: x.q.clone(),
    };
    // d0 n, d1 oh, d2 ow, d3 g, d4 fg, d5 kh, d6 kw, d7 cg
    let row = format!("d1 * {} + d5 * {}", strides[0], dilations[0]);
    let col = format!("d2 * {} + d6 * {}", strides[1], dilations[1]);
    let channel_in = format!("d3 * {cg} + d7");
    let (oh, ow) = if channels_last {
        (y_shape[1], y_shape[2])
    } else {
        (y_shape[2], y_shape[3])
    };
    let n = y_shape[0];
    let (input_map, grouped_shape, out_exprs) = if channels_last {
        (
            map(8, &["d0".into(), row, col, channel_in]),
            vec![n, oh, ow, group, fg],
            vec!["d0", "d1", "d2", "d3", "d4"],
        )
    } else {
        (
            map(8, &["d0".into(), channel_in, row, col]),
            vec![n, group, fg, oh, ow],
            vec!["d0", "d3", "d4", "d1", "d2"],
        )
    };
    let filter_map = map(
        8,
        &[
            format!("d3 * {fg} + d4"),
            "d7".into(),
            "d5".into(),
            "d6".into(),
        ],
    );
    let out_map = map(
        8,
        &out_exprs.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
    );
    let channel_map = map(8, &[format!("d3 * {fg} + d4")]);
    let _ = (kh, kw);
    let grouped = contract(
        &b,
        &padded,
        &w,
        &grouped_shape,
        input_map,
        filter_map,
        out_map,
        channel_map,
        &[
            "parallel",
            "parallel",
            "parallel",
            "parallel",
            "parallel",
            "reduction",
            "reduction",
            "reduction",
        ],
    );
    let acc_shape = if channels_last {
        vec![n, oh, ow, f]
    } else {
        vec![n, f, oh, ow]
    };
    let acc = b.reshape(grouped, &acc_shape, i32_type(context));
    let products: Vec<f64> = (0..f as usize)
        .map(|c| (x.q.scales[0] as f32 * w.q.scale(c) as f32) as f64)
        .collect();
    let requantization = Requantization {
        channel: if channels_last { 3 } else { 1 },
        products,
        bias: bias.as_ref(),
        bounds: clamp_bounds(op, &out),
        out,
    };
    let storage = requantize(&b, acc, &acc_shape, &requantization);
    replace_with(&b, op, rewriter, storage)
}

fn fully_connected<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((y_shape, out)) = result_parameters(op) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let (Some(x), Some(w)) = (operand(&b, op, 0), operand(&b, op, 1)) else {
        return false;
    };
    let bias = if op.operand_count() == 3 {
        match operand(&b, op, 2) {
            Some(bias) => Some(bias),
            None => return false,
        }
    } else {
        None
    };
    let acc = named_contraction(&b, "linalg.matmul", &x, &w, &y_shape);
    let products: Vec<f64> = (0..y_shape[1] as usize)
        .map(|c| (x.q.scales[0] as f32 * w.q.scale(c) as f32) as f64)
        .collect();
    let requantization = Requantization {
        channel: 1,
        products,
        bias: bias.as_ref(),
        bounds: clamp_bounds(op, &out),
        out,
    };
    let storage = requantize(&b, acc, &y_shape, &requantization);
    replace_with(&b, op, rewriter, storage)
}

fn batch_matmul<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((y_shape, out)) = result_parameters(op) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let (Some(lhs), Some(rhs)) = (operand(&b, op, 0), operand(&b, op, 1)) else {
        return false;
    };
    let acc = named_contraction(&b, "linalg.batch_matmul", &lhs, &rhs, &y_shape);
    let requantization = Requantization {
        channel: 2,
        products: vec![(lhs.q.scales[0] as f32 * rhs.q.scales[0] as f32) as f64],
        bias: None,
        bounds: clamp_bounds(op, &out),
        out,
    };
    let storage = requantize(&b, acc, &y_shape, &requantization);
    replace_with(&b, op, rewriter, storage)
}
