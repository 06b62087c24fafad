//! The reference lowering of glow.quant's elementwise and pooling ops:
//! - add: y = clamp(roundeven((a - za) * sa / sy + (b - zb) * sb / sy) + zy)
//! - mul: y = clamp(roundeven((a - za) * (b - zb) * sa * sb / sy) + zy)
//! - lookup_table: y = table[x - storage_min] (tensor.extract in a linalg.generic)
//! - avg_pool: dequantize, the float average pool, quantize
//! - glow.graph.max_pool on `!quant` tensors: the maximum of the storage integers
//!   (unsigned for u8) over windows padded with the storage minimum

use super::{
    builder::LinalgBuilder,
    quantization::view_as_quantized,
    quantized_contraction::{centred, clamp_bounds, constant, i32_type, map, operand, Operand},
};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use glow_dialects::quant_types::{self, uniform};
use melior::{
    ir::{
        attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Attribute,
        OperationRef, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// `glow.quant.add`.
pub static QUANT_ADD: Rule = Rule {
    root: "glow.quant.add",
    generates: &["linalg.generic"],
    rewrite: add,
};
/// `glow.quant.mul`.
pub static QUANT_MUL: Rule = Rule {
    root: "glow.quant.mul",
    generates: &["linalg.generic"],
    rewrite: mul,
};
/// `glow.quant.lookup_table`.
pub static QUANT_LOOKUP_TABLE: Rule = Rule {
    root: "glow.quant.lookup_table",
    generates: &["linalg.generic"],
    rewrite: lookup_table,
};
/// `glow.quant.avg_pool`.
pub static QUANT_AVG_POOL: Rule = Rule {
    root: "glow.quant.avg_pool",
    generates: &[
        "glow.quant.dequantize",
        "glow.graph.avg_pool",
        "glow.quant.quantize",
    ],
    rewrite: avg_pool,
};

/// The requantizing elementwise op over `a` and `b`: `combine` receives the centred
/// i32 operands and returns the real result divided by the output scale (f32).
fn elementwise<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    combine: impl for<'k> Fn(
        &super::builder::BodyBuilder<'c, 'k>,
        Value<'c, 'k>,
        Value<'c, 'k>,
        (f64, f64, f64),
    ) -> Value<'c, 'k>,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let Some((shape, out_element)) = tensor_info(result.into()) else {
        return false;
    };
    let Some(out) = uniform(out_element) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let (Some(lhs), Some(rhs)) = (operand(&b, op, 0), operand(&b, op, 1)) else {
        return false;
    };
    let (low, high) = clamp_bounds(op, &out);
    let storage_element: Type = IntegerType::new(context, out.width).into();
    let scales = (lhs.q.scales[0], rhs.q.scales[0], out.scales[0]);
    let (lq, rq) = (lhs.q.clone(), rhs.q.clone());
    let zero_point = out.zero_points[0];
    let storage = b.elementwise(
        &[lhs.storage, rhs.storage],
        &shape,
        storage_element,
        |body, args| {
            let f32 = Type::float32(body.context);
            let a = centred(body, args[0], &lq, None);
            let c = centred(body, args[1], &rq, None);
            let scaled = combine(body, a, c, scales);
            let rounded = body.value("math.roundeven", &[scaled], f32, &[]);
            let zero = constant(body, &format!("{:.1} : f32", zero_point as f64), f32);
            let shifted = body.value("arith.addf", &[rounded, zero], f32, &[]);
            let lo = constant(body, &format!("{:.1} : f32", low as f64), f32);
            let hi = constant(body, &format!("{:.1} : f32", high as f64), f32);
            let clamped = body.value("arith.maximumf", &[shifted, lo], f32, &[]);
            let clamped = body.value("arith.minimumf", &[clamped, hi], f32, &[]);
            let integer = body.value("arith.fptosi", &[clamped], i32_type(body.context), &[]);
            body.op("arith.trunci", &[integer], storage_element, &[])
        },
    );
    let Some(value) = view_as_quantized(&b, storage, result.r#type()) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

/// `text` as an f32 constant of a body.
fn f32_constant<'c, 'k>(body: &super::builder::BodyBuilder<'c, 'k>, value: f64) -> Value<'c, 'k> {
    constant(
        body,
        &format!("{:.9e} : f32", value as f32),
        Type::float32(body.context),
    )
}

fn add<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    elementwise(context, op, rewriter, |body, a, c, (sa, sb, sy)| {
        let f32 = Type::float32(body.context);
        let a = body.value("arith.sitofp", &[a], f32, &[]);
        let c = body.value("arith.sitofp", &[c], f32, &[]);
        let a = body.value("arith.mulf", &[a, f32_constant(body, sa / sy)], f32, &[]);
        let c = body.value("arith.mulf", &[c, f32_constant(body, sb / sy)], f32, &[]);
        body.value("arith.addf", &[a, c], f32, &[])
    })
}

fn mul<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    elementwise(context, op, rewriter, |body, a, c, (sa, sb, sy)| {
        let f32 = Type::float32(body.context);
        let product = body.value("arith.muli", &[a, c], i32_type(body.context), &[]);
        let product = body.value("arith.sitofp", &[product], f32, &[]);
        body.value(
            "arith.mulf",
            &[product, f32_constant(body, sa * sb / sy)],
            f32,
            &[],
        )
    })
}

fn lookup_table<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(result), Ok(table)) = (op.result(0), op.attribute("table")) else {
        return false;
    };
    let Some((shape, _)) = tensor_info(result.into()) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let Some(x) = operand(&b, op, 0) else {
        return false;
    };
    let i8: Type = IntegerType::new(context, 8).into();
    // The table widened to i32: a vectorized lookup is then one 32-bit gather
    // (vpgatherdd on AVX-512) instead of a byte gather LLVM scalarizes.
    let Some(bytes) = glow_dialects::elements::raw_bytes(table, 1, false) else {
        return false;
    };
    let words: Vec<u8> = bytes
        .iter()
        .flat_map(|b| i32::from(*b as i8).to_le_bytes())
        .collect();
    let table_type = b.tensor(&[256], i32_type(context));
    let table = b.constant(
        glow_dialects::elements::dense_elements(table_type, &words),
        table_type,
    );
    let signed = x.q.signed;
    let storage = b.elementwise(&[x.storage], &shape, i8, |body, args| {
        let index_type = Type::index(body.context);
        let i32 = i32_type(body.context);
        let position = if signed {
            let wide = body.value("arith.extsi", &[args[0]], i32, &[]);
            let offset = constant(body, "128 : i32", i32);
            body.value("arith.addi", &[wide, offset], i32, &[])
        } else {
            body.value("arith.extui", &[args[0]], i32, &[])
        };
        let index = body.value("arith.index_cast", &[position], index_type, &[]);
        let word = body.value("tensor.extract", &[table, index], i32, &[]);
        body.op("arith.trunci", &[word], i8, &[])
    });
    let Some(value) = view_as_quantized(&b, storage, result.r#type()) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn avg_pool<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((x_shape, x_element)), Some((y_shape, _))) =
        (tensor_info(input), tensor_info(result.into()))
    else {
        return false;
    };
    let Some(expressed) = quant_types::expressed(x_element) else {
        return false;
    };
    let e = crate::quantization::ir::Emitter::before(context, op, rewriter);
    let real = e.op(
        "glow.quant.dequantize",
        &[input],
        &[],
        crate::quantization::ir::tensor_type(&x_shape, expressed),
    );
    let attributes: Vec<(&str, Attribute)> = [
        "kernel",
        "strides",
        "pads",
        "count_include_pad",
        "channels_last",
    ]
    .iter()
    .filter_map(|n| op.attribute(n).ok().map(|a| (*n, a)))
    .collect();
    let pooled = e.op(
        "glow.graph.avg_pool",
        &[real],
        &attributes,
        crate::quantization::ir::tensor_type(&y_shape, expressed),
    );
    let value = e.op("glow.quant.quantize", &[pooled], &[], result.r#type());
    rewriter.replace_op_with_values(op, &[value]);
    true
}

/// `glow.graph.max_pool` of a `!quant` tensor (called by the max_pool rule).
pub(super) fn quantized_max_pool<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let Some((y_shape, _)) = tensor_info(result.into()) else {
        return false;
    };
    let array = |name| crate::framework::attributes::i64_array(op, name);
    let (Some(kernel), Some(strides), Some(pads), Some(dilations)) = (
        array("kernel"),
        array("strides"),
        array("pads"),
        array("dilations"),
    ) else {
        return false;
    };
    let channels_last = op.attribute("channels_last").is_ok();
    let b = LinalgBuilder::before(context, op, rewriter);
    let Some(Operand { storage, q, .. }) = operand(&b, op, 0) else {
        return false;
    };
    if q.width != 8 {
        return false;
    }
    let i8: Type = IntegerType::new(context, 8).into();
    let lowest = IntegerAttribute::new(i8, if q.signed { -128 } else { 0 });
    let (low, high) = if channels_last {
        ([0, pads[0], pads[1], 0], [0, pads[2], pads[3], 0])
    } else {
        ([0, 0, pads[0], pads[1]], [0, 0, pads[2], pads[3]])
    };
    let padded = if pads.iter().any(|p| *p != 0) {
        b.pad(storage, &low, &high, lowest.into(), i8)
    } else {
        storage
    };
    // d0 n, d1 oh, d2 ow, d3 c, d4 kh, d5 kw
    let row = format!("d1 * {} + d4 * {}", strides[0], dilations[0]);
    let col = format!("d2 * {} + d5 * {}", strides[1], dilations[1]);
    let (input_map, out_map) = if channels_last {
        (
            map(6, &["d0".into(), row, col, "d3".into()]),
            map(6, &["d0".into(), "d1".into(), "d2".into(), "d3".into()]),
        )
    } else {
        (
            map(6, &["d0".into(), "d3".into(), row, col]),
            map(6, &["d0".into(), "d3".into(), "d1".into(), "d2".into()]),
        )
    };
    let window = b.empty(b.tensor(&kernel, i8));
    let init = b.zeros(b.tensor(&y_shape, i8), lowest.into());
    let combine = if q.signed {
        "arith.maxsi"
    } else {
        "arith.maxui"
    };
    let pooled = b
        .generic(
            &[padded, window],
            &[init],
            &[input_map, map(6, &["d4".into(), "d5".into()]), out_map],
            &[
                "parallel",
                "parallel",
                "parallel",
                "parallel",
                "reduction",
                "reduction",
            ],
            |body, args| vec![body.value(combine, &[args[0], args[2]], i8, &[])],
        )
        .remove(0);
    let Some(value) = view_as_quantized(&b, pooled, result.r#type()) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}
