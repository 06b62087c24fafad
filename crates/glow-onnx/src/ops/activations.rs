//! ONNX activations and elementwise functions that glow.graph spells with other ops
//! (their ONNX function bodies, in numerically stable forms): Elu, Selu, Celu,
//! Softplus, Softsign, Mish, Swish, ThresholdedRelu, Shrink, Sign, IsInf, Mean; and
//! the trigonometric / hyperbolic functions, which are glow.graph ops of their own.

use super::compose::{bin, convert, scalar, select, un, Bin, Un};
use crate::builder::{Converted, NodeContext, Slot};
use crate::element::Element;
use glow_dialects::ods::glow_graph;

/// The float input 0.
fn float_input<'c, 'a>(cx: &NodeContext<'c, 'a, '_>) -> Result<Slot<'c, 'a>, String> {
    let x = cx.input(0)?;
    if !x.element.is_float() {
        return Err(format!(
            "{:?} inputs are not supported (floats only)",
            x.element
        ));
    }
    Ok(x)
}

/// `body(x)` computed in f32 for half-precision inputs (one rounding at the end, as
/// ONNX's reference computes them) and converted back.
fn in_f32<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    body: for<'e> fn(&mut NodeContext<'c, 'a, 'e>, &Slot<'c, 'a>) -> Result<Slot<'c, 'a>, String>,
) -> Converted<'c, 'a> {
    let x = float_input(cx)?;
    let half = matches!(x.element, Element::F16 | Element::BF16);
    let wide = if half {
        convert(cx, &x, Element::F32)?
    } else {
        x.clone()
    };
    let y = body(cx, &wide)?;
    Ok(vec![convert(cx, &y, x.element)?])
}

/// `exp(x) - 1`
fn exp_minus_one<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let e = un(cx, Un::Exp, x)?;
    bin(cx, Bin::Sub, &e, &scalar(x.element, 1.0))
}

/// Elu: x < 0 ? alpha (exp(x) - 1) : x
pub fn elu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        let alpha = scalar(x.element, cx.attr_f("alpha", 1.0) as f64);
        let negative = bin(cx, Bin::Less, &x, &scalar(x.element, 0.0))?;
        let e = exp_minus_one(cx, &x)?;
        let scaled = bin(cx, Bin::Mul, &e, &alpha)?;
        select(cx, &negative, &scaled, &x)
    })
}

/// Selu: gamma (x > 0 ? x : alpha (exp(x) - 1))
pub fn selu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        let alpha = scalar(x.element, cx.attr_f("alpha", 1.673_263_2) as f64);
        let gamma = scalar(x.element, cx.attr_f("gamma", 1.050_701) as f64);
        let positive = bin(cx, Bin::Less, &scalar(x.element, 0.0), &x)?;
        let e = exp_minus_one(cx, &x)?;
        let scaled = bin(cx, Bin::Mul, &e, &alpha)?;
        let chosen = select(cx, &positive, &x, &scaled)?;
        bin(cx, Bin::Mul, &chosen, &gamma)
    })
}

/// Celu: max(0, x) + min(0, alpha (exp(x / alpha) - 1))
pub fn celu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        let alpha = scalar(x.element, cx.attr_f("alpha", 1.0) as f64);
        let zero = scalar(x.element, 0.0);
        let scaled = bin(cx, Bin::Div, &x, &alpha)?;
        let e = exp_minus_one(cx, &scaled)?;
        let negative_part = bin(cx, Bin::Mul, &e, &alpha)?;
        let negative_part = bin(cx, Bin::Min, &negative_part, &zero)?;
        let positive_part = bin(cx, Bin::Max, &x, &zero)?;
        bin(cx, Bin::Add, &positive_part, &negative_part)
    })
}

/// log(1 + exp(x)) as max(x, 0) + log(1 + exp(-|x|)), which neither overflows for
/// large x nor loses small results.
pub(super) fn softplus_of<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let magnitude = un(cx, Un::Abs, x)?;
    let negated = un(cx, Un::Neg, &magnitude)?;
    let e = un(cx, Un::Exp, &negated)?;
    let one_plus = bin(cx, Bin::Add, &e, &scalar(x.element, 1.0))?;
    let log = un(cx, Un::Log, &one_plus)?;
    let positive_part = bin(cx, Bin::Max, x, &scalar(x.element, 0.0))?;
    bin(cx, Bin::Add, &positive_part, &log)
}

/// Softplus: log(1 + exp(x))
pub fn softplus<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        softplus_of(cx, &x)
    })
}

/// Softsign: x / (1 + |x|)
pub fn softsign<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        let magnitude = un(cx, Un::Abs, &x)?;
        let denominator = bin(cx, Bin::Add, &magnitude, &scalar(x.element, 1.0))?;
        bin(cx, Bin::Div, &x, &denominator)
    })
}

/// Mish: x tanh(softplus(x))
pub fn mish<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        let s = softplus_of(cx, &x)?;
        let t = un(cx, Un::Tanh, &s)?;
        bin(cx, Bin::Mul, &x, &t)
    })
}

/// Swish: x sigmoid(alpha x)
pub fn swish<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        let alpha = cx.attr_f("alpha", 1.0) as f64;
        let scaled = if alpha == 1.0 {
            x.clone()
        } else {
            bin(cx, Bin::Mul, &x, &scalar(x.element, alpha))?
        };
        let s = un(cx, Un::Sigmoid, &scaled)?;
        bin(cx, Bin::Mul, &x, &s)
    })
}

/// ThresholdedRelu: x > alpha ? x : 0
pub fn thresholded_relu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    in_f32(cx, |cx, x| {
        let x = x.clone();
        let alpha = scalar(x.element, cx.attr_f("alpha", 1.0) as f64);
        let above = bin(cx, Bin::Less, &alpha, &x)?;
        select(cx, &above, &x, &scalar(x.element, 0.0))
    })
}

/// Shrink: x < -lambd ? x + bias : (x > lambd ? x - bias : 0)
pub fn shrink<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let lambd = cx.attr_f("lambd", 0.5) as f64;
    let bias = scalar(x.element, cx.attr_f("bias", 0.0) as f64);
    let below = bin(cx, Bin::Less, &x, &scalar(x.element, -lambd))?;
    let above = bin(cx, Bin::Less, &scalar(x.element, lambd), &x)?;
    let raised = bin(cx, Bin::Add, &x, &bias)?;
    let lowered = bin(cx, Bin::Sub, &x, &bias)?;
    let inner = select(cx, &above, &lowered, &scalar(x.element, 0.0))?;
    Ok(vec![select(cx, &below, &raised, &inner)?])
}

/// Sign: -1, 0 or 1 (NaN stays NaN: it is neither below nor above zero).
pub fn sign<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if matches!(x.element, Element::Bool) {
        return Err("bool inputs are not supported".into());
    }
    let zero = scalar(x.element, 0.0);
    let below = bin(cx, Bin::Less, &x, &zero)?;
    let above = bin(cx, Bin::Less, &zero, &x)?;
    let zero_or_x = if x.element.is_float() {
        // x itself: 0 (or -0) stays, NaN stays NaN.
        x.clone()
    } else {
        zero
    };
    let inner = select(cx, &above, &scalar(x.element, 1.0), &zero_or_x)?;
    Ok(vec![select(cx, &below, &scalar(x.element, -1.0), &inner)?])
}

/// IsInf: x == +inf (detect_positive) or x == -inf (detect_negative).
pub fn is_inf<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = float_input(cx)?;
    let positive = cx.attr_flag("detect_positive", true)?;
    let negative = cx.attr_flag("detect_negative", true)?;
    let mut found: Option<Slot> = None;
    for (wanted, infinity) in [(positive, f64::INFINITY), (negative, f64::NEG_INFINITY)] {
        if !wanted {
            continue;
        }
        let equal = bin(cx, Bin::Equal, &x, &scalar(x.element, infinity))?;
        found = Some(match found {
            Some(previous) => bin(cx, Bin::Or, &previous, &equal)?,
            None => equal,
        });
    }
    Ok(vec![match found {
        Some(found) => found,
        None => {
            let never = bin(cx, Bin::Less, &x, &x)?;
            // x < x is false for every x, NaN included.
            never
        }
    }])
}

/// Mean: the sum of the inputs divided by their count.
pub fn mean<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let count = cx.input_count();
    let mut sum = float_input(cx)?;
    for i in 1..count {
        let next = cx.input(i)?;
        sum = bin(cx, Bin::Add, &sum, &next)?;
    }
    if count == 1 {
        return Ok(vec![sum]);
    }
    Ok(vec![bin(
        cx,
        Bin::Div,
        &sum,
        &scalar(sum.element, count as f64),
    )?])
}

macro_rules! math_function {
    ($name:ident, $builder:ident) => {
        pub fn $name<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
            let x = float_input(cx)?;
            let value = cx.value(0)?;
            let out = cx.emit(glow_graph::$builder(cx.context, value, cx.location).into());
            Ok(vec![Slot::value(out, x.shape, x.element)])
        }
    };
}

math_function!(sin, sin);
math_function!(cos, cos);
math_function!(tan, tan);
math_function!(asin, asin);
math_function!(acos, acos);
math_function!(atan, atan);
math_function!(sinh, sinh);
math_function!(cosh, cosh);
math_function!(asinh, asinh);
math_function!(acosh, acosh);
math_function!(atanh, atanh);
