//! Comparisons, logic, select, conversions, pow, slice and pad to linalg /
//! tensor ops:
//! - cmp_eq/neq/lt/lte, is_nan, and/or/xor/not -> linalg.generic with arith.cmpf/cmpi
//!   or the i1 logic ops
//! - select -> linalg.select; pow -> linalg.powf
//! - convert -> linalg.generic with the arith cast for the element types (to i1:
//!   x != 0, as ONNX Cast)
//! - slice -> tensor.extract_slice; pad -> tensor.pad

use super::builder::{binary_operands, is_float, BodyBuilder, LinalgBuilder};
use crate::framework::attributes::i64_array;
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::{
    ir::{
        operation::OperationLike, r#type::IntegerType, OperationRef, Type, TypeLike, Value,
        ValueLike,
    },
    Context, RewriterBase,
};

fn int_info(element: Type) -> Option<(u32, bool)> {
    IntegerType::try_from(element)
        .ok()
        .map(|t| (t.width(), t.is_unsigned()))
}

/// arith.cmpf / arith.cmpi predicates are I64EnumAttrs: their generic form is the
/// case's integer.
pub(super) fn predicate_code(name: &str) -> String {
    let code = match name {
        // cmpf
        "oeq" => 1,
        "ogt" => 2,
        "oge" => 3,
        "olt" => 4,
        "ole" => 5,
        "une" => 13,
        "uno" => 14,
        // cmpi
        "eq" => 0,
        "ne" => 1,
        "slt" => 2,
        "sle" => 3,
        "sgt" => 4,
        "sge" => 5,
        "ugt" => 8,
        "uge" => 9,
        "ult" => 6,
        "ule" => 7,
        other => unreachable!("predicate {other} is not used"),
    };
    format!("{code} : i64")
}

/// A comparison: (float predicate, signed int predicate, unsigned int predicate).
fn compare<'c>(
    predicates: (&str, &str, &str),
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((lhs, rhs, shape, element)) = binary_operands(op) else {
        return false;
    };
    let i1: Type = IntegerType::new(context, 1).into();
    let (name, predicate) = if is_float(element) {
        ("arith.cmpf", predicate_code(predicates.0))
    } else if let Some((_, unsigned)) = int_info(element) {
        (
            "arith.cmpi",
            predicate_code(if unsigned { predicates.2 } else { predicates.1 }),
        )
    } else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[lhs, rhs], &shape, i1, |body, args| {
        body.op(name, &args[..2], i1, &[("predicate", &predicate)])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

rule!(CMP_EQ, "glow.graph.cmp_eq", |c, o, r| compare(
    ("oeq", "eq", "eq"),
    c,
    o,
    r
));
rule!(CMP_NEQ, "glow.graph.cmp_neq", |c, o, r| compare(
    ("une", "ne", "ne"),
    c,
    o,
    r
));
rule!(CMP_LT, "glow.graph.cmp_lt", |c, o, r| compare(
    ("olt", "slt", "ult"),
    c,
    o,
    r
));
rule!(CMP_LTE, "glow.graph.cmp_lte", |c, o, r| compare(
    ("ole", "sle", "ule"),
    c,
    o,
    r
));

rule!(IS_NAN, "glow.graph.is_nan", |context, op, rewriter| {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, _)) = tensor_info(x) else {
        return false;
    };
    let i1: Type = IntegerType::new(context, 1).into();
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[x], &shape, i1, |body, args| {
        body.op(
            "arith.cmpf",
            &[args[0], args[0]],
            i1,
            &[("predicate", &predicate_code("uno"))],
        )
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

fn logic<'c>(
    name: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((lhs, rhs, shape, i1)) = binary_operands(op) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[lhs, rhs], &shape, i1, |body, args| {
        body.op(name, &args[..2], i1, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

rule!(AND, "glow.graph.and", |c, o, r| logic(
    "arith.andi",
    c,
    o,
    r
));
rule!(OR, "glow.graph.or", |c, o, r| logic("arith.ori", c, o, r));
rule!(XOR, "glow.graph.xor", |c, o, r| logic(
    "arith.xori",
    c,
    o,
    r
));

rule!(NOT, "glow.graph.not", |context, op, rewriter| {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, i1)) = tensor_info(x) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[x], &shape, i1, |body, args| {
        let one = body.op("arith.constant", &[], i1, &[("value", "true")]);
        // SAFETY: `one` was just defined in the body.
        let one = unsafe { Value::from_raw(one) };
        body.op("arith.xori", &[args[0], one], i1, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(SELECT, "glow.graph.select", |context, op, rewriter| {
    let (Ok(cond), Ok(a), Ok(b_value), Ok(result)) =
        (op.operand(0), op.operand(1), op.operand(2), op.result(0))
    else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.empty(result.r#type());
    let converted = b.named(
        "linalg.select",
        &[cond, a, b_value],
        init,
        result.r#type(),
        &[],
    );
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

// pow: linalg.powf on one float type; otherwise a linalg.generic that casts the
// exponent to the float base's type, or computes an integer base's power in f64 and
// converts it back (ONNX Pow allows mixed base / exponent types).
rule!(POW, "glow.graph.pow", |context, op, rewriter| {
    let (Ok(lhs), Ok(rhs), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let (Some((shape, base)), Some((_, exponent))) = (tensor_info(lhs), tensor_info(rhs)) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    // x^2 and x^3 as products (as onnxruntime computes them): math.powf has no vector
    // lowering, so GPT-2's tanh-Gelu spent 3 ms per layer in scalar powf calls.
    if let (true, Some(power @ (2 | 3))) = (is_float(base), small_integer_exponent(rhs)) {
        let converted = b.elementwise(&[lhs], &shape, base, |body, args| {
            let square = body.value("arith.mulf", &[args[0], args[0]], base, &[]);
            match power {
                2 => square.to_raw(),
                _ => body
                    .value("arith.mulf", &[square, args[0]], base, &[])
                    .to_raw(),
            }
        });
        rewriter.replace_op_with_values(op, &[converted]);
        return true;
    }
    if is_float(base) && base == exponent {
        let init = b.empty(result.r#type());
        let converted = b.named("linalg.powf", &[lhs, rhs], init, result.r#type(), &[]);
        rewriter.replace_op_with_values(op, &[converted]);
        return true;
    }
    let compute: Type = if is_float(base) {
        base
    } else {
        melior::ir::r#type::Type::float64(context)
    };
    let mut supported = true;
    let converted = b.elementwise(&[lhs, rhs], &shape, base, |body, args| {
        match mixed_power(body, args, base, exponent, compute) {
            Some(value) => value,
            None => {
                supported = false;
                args[0].to_raw()
            }
        }
    });
    if !supported {
        return false;
    }
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

/// The exponent when `value` is a float splat (glow.graph.splat, or a splat constant)
/// of a small integer.
fn small_integer_exponent(value: Value) -> Option<i64> {
    let producer = crate::framework::values::defining_op(value)?;
    let attribute = producer.attribute("value").ok()?;
    let scalar = match producer.name().as_string_ref().as_str().ok()? {
        "glow.graph.splat" => attribute,
        "arith.constant" | "glow.graph.constant" => {
            // SAFETY: the splat value is read only from a splat dense elements attribute.
            unsafe {
                let raw = melior::ir::attribute::AttributeLike::to_raw(&attribute);
                if !mlir_sys::mlirAttributeIsADenseElements(raw)
                    || !mlir_sys::mlirDenseElementsAttrIsSplat(raw)
                {
                    return None;
                }
                melior::ir::Attribute::from_raw(mlir_sys::mlirDenseElementsAttrGetSplatValue(raw))
            }
        }
        _ => return None,
    };
    let exponent = melior::ir::attribute::FloatAttribute::try_from(scalar)
        .ok()?
        .value();
    (exponent.fract() == 0.0 && exponent.abs() <= 16.0).then_some(exponent as i64)
}

/// base ^ exponent computed in `compute` (a float type), in the base's type.
fn mixed_power<'c>(
    body: &BodyBuilder<'c, '_>,
    args: &[Value<'c, '_>],
    base: Type<'c>,
    exponent: Type<'c>,
    compute: Type<'c>,
) -> Option<mlir_sys::MlirValue> {
    let widen = |value: Value<'c, '_>, from: Type<'c>| -> Option<mlir_sys::MlirValue> {
        if from == compute {
            Some(value.to_raw())
        } else {
            cast(body, value, from, compute)
        }
    };
    // SAFETY: both values are defined in the body.
    let (x, y) = unsafe {
        (
            Value::from_raw(widen(args[0], base)?),
            Value::from_raw(widen(args[1], exponent)?),
        )
    };
    let power = body.value("math.powf", &[x, y], compute, &[]);
    if compute == base {
        Some(power.to_raw())
    } else {
        cast(body, power, compute, base)
    }
}

/// The arith op converting one scalar element type to another, appended to `body`.
fn cast<'c>(
    body: &BodyBuilder<'c, '_>,
    value: Value<'c, '_>,
    from: Type<'c>,
    to: Type<'c>,
) -> Option<mlir_sys::MlirValue> {
    let (from_float, to_float) = (is_float(from), is_float(to));
    let bits = |t: Type| -> u32 {
        // SAFETY: width queries on valid float / integer types.
        unsafe {
            if is_float(t) {
                mlir_sys::mlirFloatTypeGetWidth(t.to_raw())
            } else {
                mlir_sys::mlirIntegerTypeGetWidth(t.to_raw())
            }
        }
    };
    if to_float {
        return Some(if from_float {
            let name = if bits(to) > bits(from) {
                "arith.extf"
            } else {
                "arith.truncf"
            };
            body.op(name, &[value], to, &[])
        } else {
            let (width, unsigned) = int_info(from)?;
            let name = if unsigned || width == 1 {
                "arith.uitofp"
            } else {
                "arith.sitofp"
            };
            body.op(name, &[value], to, &[])
        });
    }
    let (to_width, to_unsigned) = int_info(to)?;
    if to_width == 1 {
        // ONNX Cast to bool: x != 0.
        let zero = if from_float {
            body.op(
                "arith.constant",
                &[],
                from,
                &[("value", &format!("0.0 : {from}"))],
            )
        } else {
            body.op(
                "arith.constant",
                &[],
                from,
                &[("value", &format!("0 : {from}"))],
            )
        };
        // SAFETY: `zero` was just defined in the body.
        let zero = unsafe { Value::from_raw(zero) };
        let i1: Type = IntegerType::new(body.context, 1).into();
        return Some(if from_float {
            body.op(
                "arith.cmpf",
                &[value, zero],
                i1,
                &[("predicate", &predicate_code("une"))],
            )
        } else {
            body.op(
                "arith.cmpi",
                &[value, zero],
                i1,
                &[("predicate", &predicate_code("ne"))],
            )
        });
    }
    if from_float {
        let name = if to_unsigned {
            "arith.fptoui"
        } else {
            "arith.fptosi"
        };
        return Some(body.op(name, &[value], to, &[]));
    }
    let (from_width, from_unsigned) = int_info(from)?;
    Some(if to_width > from_width {
        let name = if from_unsigned || from_width == 1 {
            "arith.extui"
        } else {
            "arith.extsi"
        };
        body.op(name, &[value], to, &[])
    } else if to_width < from_width {
        body.op("arith.trunci", &[value], to, &[])
    } else {
        body.op("arith.bitcast", &[value], to, &[])
    })
}

/// Replaces the one-operand elementwise `op` by a `linalg.generic` whose body maps each
/// element with `element(body, value, from, to)`; false (nothing changed) when that
/// has no arith form for these types.
fn convert_elements<'c>(
    context: &'c melior::Context,
    op: melior::ir::OperationRef<'c, '_>,
    rewriter: &melior::RewriterBase<'c, '_>,
    element: impl Fn(
        &BodyBuilder<'c, '_>,
        Value<'c, '_>,
        Type<'c>,
        Type<'c>,
    ) -> Option<mlir_sys::MlirValue>,
) -> bool {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((shape, from)), Some((_, to))) = (tensor_info(input), tensor_info(result.into()))
    else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let mut supported = true;
    let converted = b.elementwise(&[input], &shape, to, |body, args| {
        element(body, args[0], from, to).unwrap_or_else(|| {
            supported = false;
            args[0].to_raw()
        })
    });
    if !supported {
        return false;
    }
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

rule!(CONVERT, "glow.graph.convert", |context, op, rewriter| {
    // Signless / signed / unsigned integers of one width need no arith op.
    convert_elements(context, op, rewriter, cast)
});

rule!(BITCAST, "glow.graph.bitcast", |context, op, rewriter| {
    // Integers of one width (a boolean and its byte too) convert as Cast does: no
    // value changes. Otherwise the bits move as they are.
    convert_elements(context, op, rewriter, |body, value, from, to| {
        if !is_float(from) && !is_float(to) {
            cast(body, value, from, to)
        } else {
            Some(body.op("arith.bitcast", &[value], to, &[]))
        }
    })
});

rule!(SLICE, "glow.graph.slice", |context, op, rewriter| {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some((sizes, _)) = tensor_info(result.into()) else {
        return false;
    };
    let Some(offsets) = i64_array(op, "start") else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    // An empty slice may start at the end, which tensor.extract_slice rejects.
    if sizes.contains(&0) {
        let empty = b.empty(result.r#type());
        rewriter.replace_op_with_values(op, &[empty]);
        return true;
    }
    let converted = b.extract_slice(input, &offsets, &sizes);
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(PAD, "glow.graph.pad", |context, op, rewriter| {
    let (Ok(input), Ok(value)) = (op.operand(0), op.attribute("value")) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(input) else {
        return false;
    };
    let Some(pads) = i64_array(op, "pads") else {
        return false;
    };
    let rank = shape.len();
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.pad(input, &pads[..rank], &pads[rank..], value, element);
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

/// Every rule of this file.
pub const RULES: &[&Rule] = &[
    &CMP_EQ, &CMP_NEQ, &CMP_LT, &CMP_LTE, &IS_NAN, &AND, &OR, &XOR, &NOT, &SELECT, &POW, &CONVERT,
    &BITCAST, &SLICE, &PAD,
];
