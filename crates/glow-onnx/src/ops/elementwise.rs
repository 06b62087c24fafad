//! Elementwise ONNX ops: math, activations, comparisons, logic, Where, Cast, Clip.
//! Binary ops broadcast explicitly; inputs known at import time are folded.

use super::broadcast::broadcast_to;
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    folding::{self, broadcast_shapes, FOLD_LIMIT},
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{Attribute, Location, Operation, Type, Value},
    Context,
};

type Unary = for<'c> fn(&'c Context, Type<'c>, Value<'c, '_>, Location<'c>) -> Operation<'c>;
type Binary =
    for<'c> fn(&'c Context, Type<'c>, Value<'c, '_>, Value<'c, '_>, Location<'c>) -> Operation<'c>;

pub(super) fn small_constant(slot: &Slot) -> Option<std::rc::Rc<TensorData>> {
    slot.constant.clone().filter(|c| c.len() <= FOLD_LIMIT)
}

/// A unary op: folded with `fold` when the input is a small constant.
fn unary<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    build: Unary,
    fold: Option<fn(f64) -> f64>,
    result: Option<Element>,
) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let element = result.unwrap_or(input.element);
    if let (Some(fold), Some(data)) = (fold, small_constant(&input)) {
        let folded = folding::elementwise(&[&data], element, |v| fold(v[0]))?;
        return Ok(vec![Slot::constant(folded)]);
    }
    let value = cx.value(0)?;
    let r#type = cx.tensor_type(&input.shape, element);
    let out = cx.emit(build(cx.context, r#type, value, cx.location));
    Ok(vec![Slot::value(out, input.shape, element)])
}

macro_rules! unary_op {
    ($name:ident, $builder:ident, $fold:expr) => {
        pub fn $name<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
            unary(
                cx,
                |c, _, v, l| glow_graph::$builder(c, v, l).into(),
                $fold,
                None,
            )
        }
    };
}

unary_op!(relu, relu, Some(|x: f64| x.max(0.0)));
unary_op!(sigmoid, sigmoid, None);
unary_op!(tanh, tanh, None);
unary_op!(sqrt, sqrt, Some(f64::sqrt));
unary_op!(exp, exp, None);
unary_op!(log, log, None);
unary_op!(erf, erf, None);
unary_op!(floor, floor, Some(f64::floor));
unary_op!(ceil, ceil, Some(f64::ceil));
unary_op!(round, round, Some(f64::round_ties_even));
unary_op!(hard_swish, hard_swish, None);
unary_op!(neg, neg, Some(|x: f64| -x));
unary_op!(abs, abs, Some(f64::abs));
unary_op!(not, not, Some(|x: f64| if x == 0.0 { 1.0 } else { 0.0 }));

pub fn is_nan<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    unary(
        cx,
        |c, t, v, l| glow_graph::is_nan(c, t, v, l).into(),
        Some(|x: f64| if x.is_nan() { 1.0 } else { 0.0 }),
        Some(Element::Bool),
    )
}

/// The broadcast shape and both operands as values of it.
fn broadcast_pair<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    lhs: &Slot<'c, 'a>,
    rhs: &Slot<'c, 'a>,
) -> Result<(Vec<i64>, Value<'c, 'a>, Value<'c, 'a>), String> {
    if lhs.element != rhs.element {
        return Err(format!(
            "operand element types differ ({:?} vs {:?})",
            lhs.element, rhs.element
        ));
    }
    let shape = broadcast_shapes(&lhs.shape, &rhs.shape)?;
    let l = broadcast_to(cx, lhs, &shape)?;
    let r = broadcast_to(cx, rhs, &shape)?;
    Ok((shape, l, r))
}

/// A binary op on inputs 0 and 1 (or a fold of all inputs for variadic ops).
fn binary<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    build: Binary,
    fold: fn(f64, f64) -> f64,
    int_fold: fn(i64, i64) -> Result<i64, String>,
    result: Option<Element>,
) -> Converted<'c, 'a> {
    binary_with(cx, build, fold, int_fold, result, false)
}

/// [`binary`], optionally converting later operands to the first one's element type.
fn binary_with<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    build: Binary,
    fold: fn(f64, f64) -> f64,
    int_fold: fn(i64, i64) -> Result<i64, String>,
    result: Option<Element>,
    coerce: bool,
) -> Converted<'c, 'a> {
    let count = cx.input_count();
    if count == 0 {
        return Err("needs at least one input".into());
    }
    let mut accumulated = cx.input(0)?;
    for i in 1..count {
        let mut next = cx.input(i)?;
        if coerce {
            next = convert_slot(cx, &next, accumulated.element)?;
        }
        let element = result.unwrap_or(accumulated.element);
        if let (Some(a), Some(b)) = (small_constant(&accumulated), small_constant(&next)) {
            let folded = if accumulated.element.is_float() {
                folding::elementwise(&[&a, &b], element, |v| fold(v[0], v[1]))?
            } else {
                folding::elementwise_int(&[&a, &b], element, |v| int_fold(v[0], v[1]))?
            };
            accumulated = Slot::constant(folded);
            continue;
        }
        let (shape, l, r) = broadcast_pair(cx, &accumulated, &next)?;
        let r#type = cx.tensor_type(&shape, element);
        let out = cx.emit(build(cx.context, r#type, l, r, cx.location));
        accumulated = Slot::value(out, shape, element);
    }
    Ok(vec![accumulated])
}

fn int_div(a: i64, b: i64) -> Result<i64, String> {
    a.checked_div(b)
        .ok_or_else(|| "integer division by zero".to_string())
}

fn bool_of(x: bool) -> f64 {
    if x {
        1.0
    } else {
        0.0
    }
}

macro_rules! binary_op {
    ($name:ident, $builder:ident, $fold:expr, $int_fold:expr, $result:expr) => {
        pub fn $name<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
            binary(
                cx,
                |c, _, l, r, loc| glow_graph::$builder(c, l, r, loc).into(),
                $fold,
                $int_fold,
                $result,
            )
        }
    };
}

binary_op!(add, add, |a, b| a + b, |a, b| Ok(a.wrapping_add(b)), None);
binary_op!(sum, add, |a, b| a + b, |a, b| Ok(a.wrapping_add(b)), None);
binary_op!(sub, sub, |a, b| a - b, |a, b| Ok(a.wrapping_sub(b)), None);
binary_op!(mul, mul, |a, b| a * b, |a, b| Ok(a.wrapping_mul(b)), None);
binary_op!(div, div, |a, b| a / b, int_div, None);
binary_op!(max, max, f64::max, |a, b| Ok(a.max(b)), None);
binary_op!(min, min, f64::min, |a, b| Ok(a.min(b)), None);
binary_op!(
    and,
    and,
    |a, b| bool_of(a != 0.0 && b != 0.0),
    |a, b| Ok((a != 0 && b != 0) as i64),
    None
);
binary_op!(
    or,
    or,
    |a, b| bool_of(a != 0.0 || b != 0.0),
    |a, b| Ok((a != 0 || b != 0) as i64),
    None
);
binary_op!(
    xor,
    xor,
    |a, b| bool_of((a != 0.0) != (b != 0.0)),
    |a, b| Ok(((a != 0) != (b != 0)) as i64),
    None
);
binary_op!(integer_and, and, |_, _| f64::NAN, |a, b| Ok(a & b), None);
binary_op!(integer_or, or, |_, _| f64::NAN, |a, b| Ok(a | b), None);
binary_op!(integer_xor, xor, |_, _| f64::NAN, |a, b| Ok(a ^ b), None);

macro_rules! compare_op {
    ($name:ident, $builder:ident, $fold:expr, $int_fold:expr) => {
        pub fn $name<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
            binary(
                cx,
                |c, t, l, r, loc| glow_graph::$builder(c, t, l, r, loc).into(),
                $fold,
                $int_fold,
                Some(Element::Bool),
            )
        }
    };
}

compare_op!(equal, cmp_eq, |a, b| bool_of(a == b), |a, b| Ok(
    (a == b) as i64
));
compare_op!(less, cmp_lt, |a, b| bool_of(a < b), |a, b| Ok(
    (a < b) as i64
));
compare_op!(less_or_equal, cmp_lte, |a, b| bool_of(a <= b), |a, b| Ok(
    (a <= b) as i64
));

/// `a > b` is `b < a`.
pub fn greater<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    binary(
        cx,
        |c, t, l, r, loc| glow_graph::cmp_lt(c, t, r, l, loc).into(),
        |a, b| bool_of(a > b),
        |a, b| Ok((a > b) as i64),
        Some(Element::Bool),
    )
}

/// `a >= b` is `b <= a`.
pub fn greater_or_equal<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    binary(
        cx,
        |c, t, l, r, loc| glow_graph::cmp_lte(c, t, r, l, loc).into(),
        |a, b| bool_of(a >= b),
        |a, b| Ok((a >= b) as i64),
        Some(Element::Bool),
    )
}

/// Pow: an exponent of another element type is converted to the base's type.
pub fn pow<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    binary_with(
        cx,
        |c, _, l, r, loc| glow_graph::pow(c, l, r, loc).into(),
        f64::powf,
        |a, b| Ok(if b < 0 { 0 } else { a.wrapping_pow(b as u32) }),
        None,
        true,
    )
}

/// 1 / x.
pub fn reciprocal<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    if let Some(data) = small_constant(&input) {
        return Ok(vec![Slot::constant(folding::elementwise(
            &[&data],
            input.element,
            |v| 1.0 / v[0],
        )?)]);
    }
    let x = cx.value(0)?;
    let r#type = cx.tensor_type(&input.shape, input.element);
    let one = cx.scalar_attr(input.element, 1.0);
    let ones = cx.emit(glow_graph::splat(cx.context, r#type, one, cx.location).into());
    let out = cx.emit(glow_graph::div(cx.context, ones, x, cx.location).into());
    Ok(vec![Slot::value(out, input.shape, input.element)])
}

/// Dropout: the identity in inference mode, or whenever the ratio is 0 (its optional
/// mask is then all true). Training mode with a non-zero ratio draws random masks,
/// which an inference compiler does not reproduce: refused.
pub fn dropout<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let ratio_is_zero = match cx.has_input(1) {
        true => cx
            .input(1)?
            .constant
            .is_some_and(|r| r.to_f64s().iter().all(|v| *v == 0.0)),
        false => false,
    };
    if cx.has_input(2) && !ratio_is_zero {
        let training = cx.constant_input(2, "training_mode")?;
        if training.to_f64s().iter().any(|v| *v != 0.0) {
            return Err(
                "training mode with a non-zero ratio (random masks) is not supported: \
                 glow compiles inference"
                    .into(),
            );
        }
    }
    identity(cx)
}

/// Identity, and inference-mode Dropout (whose optional mask is all true).
pub fn identity<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let mut outputs = vec![input.clone()];
    if cx.node.output.len() > 1 && !cx.node.output[1].is_empty() {
        let ones = vec![1i64; input.shape.iter().product::<i64>() as usize];
        outputs.push(Slot::constant(TensorData::from_i64s(
            Element::Bool,
            input.shape.clone(),
            &ones,
        )));
    }
    Ok(outputs)
}

/// `slot` converted to `element`.
fn convert_slot<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: &Slot<'c, 'a>,
    element: Element,
) -> Result<Slot<'c, 'a>, String> {
    if slot.element == element {
        return Ok(slot.clone());
    }
    if let Some(data) = small_constant(slot) {
        let converted = if element.is_float() {
            TensorData::from_f64s(element, data.dims.clone(), &data.to_f64s())
        } else if element == Element::Bool {
            let values: Vec<i64> = data.to_f64s().iter().map(|v| (*v != 0.0) as i64).collect();
            TensorData::from_i64s(element, data.dims.clone(), &values)
        } else {
            TensorData::from_i64s(element, data.dims.clone(), &data.to_i64s())
        };
        return Ok(Slot::constant(converted));
    }
    let value = cx.materialize(slot)?;
    let r#type = cx.tensor_type(&slot.shape, element);
    let out = cx.emit(glow_graph::convert(cx.context, r#type, value, cx.location).into());
    Ok(Slot::value(out, slot.shape.clone(), element))
}

pub fn cast<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let to = cx.attr_i("to", 0) as i32;
    let element = Element::from_onnx(to)
        .ok_or_else(|| format!("cannot cast to {}", Element::onnx_name(to)))?;
    let input = cx.input(0)?;
    Ok(vec![convert_slot(cx, &input, element)?])
}

/// BitCast (opset 26): each element's bits read as the `to` type, of the same width (a
/// boolean is its byte: true when not zero). Constants are reinterpreted at import.
pub fn bit_cast<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let to = cx.attr_i("to", 0) as i32;
    let element = Element::from_onnx(to)
        .ok_or_else(|| format!("cannot reinterpret as {}", Element::onnx_name(to)))?;
    let input = cx.input(0)?;
    if input.element.size() != element.size() {
        return Err(format!(
            "the input's {}-byte elements cannot be read as {} ({} bytes): BitCast keeps each element's bits",
            input.element.size(),
            Element::onnx_name(to),
            element.size()
        ));
    }
    if input.element == element {
        return Ok(vec![input]);
    }
    // Any size: the bytes are shared, not copied.
    if let Some(data) = input.constant.clone() {
        let reinterpreted = if element == Element::Bool {
            let values: Vec<i64> = data.bytes.iter().map(|b| i64::from(*b != 0)).collect();
            TensorData::from_i64s(element, data.dims.clone(), &values)
        } else {
            TensorData {
                element,
                dims: data.dims.clone(),
                bytes: data.bytes.clone(),
            }
        };
        return Ok(vec![Slot::constant(reinterpreted)]);
    }
    let value = cx.materialize(&input)?;
    let r#type = cx.tensor_type(&input.shape, element);
    let out = cx.emit(glow_graph::bitcast(cx.context, r#type, value, cx.location).into());
    Ok(vec![Slot::value(out, input.shape.clone(), element)])
}

pub fn clip<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let bound = |cx: &NodeContext, i: usize, default: f64| -> Result<f64, String> {
        if cx.opset() < 11 {
            // Before opset 11 the bounds are attributes.
            let name = if i == 1 { "min" } else { "max" };
            return Ok(if cx.has_attr(name) {
                cx.attr_f(name, 0.0) as f64
            } else {
                default
            });
        }
        if cx.has_input(i) {
            let data = cx.constant_input(i, if i == 1 { "min" } else { "max" })?;
            data.to_f64s()
                .first()
                .copied()
                .ok_or_else(|| "empty bound".to_string())
        } else {
            Ok(default)
        }
    };
    let (lowest, highest) = match input.element {
        Element::F32 | Element::F16 | Element::BF16 => (f32::MIN as f64, f32::MAX as f64),
        Element::F64 => (f64::MIN, f64::MAX),
        Element::I8 => (i8::MIN as f64, i8::MAX as f64),
        Element::U8 => (0.0, u8::MAX as f64),
        Element::U16 => (0.0, u16::MAX as f64),
        Element::U32 => (0.0, u32::MAX as f64),
        Element::U64 => (0.0, u64::MAX as f64),
        Element::I16 => (i16::MIN as f64, i16::MAX as f64),
        Element::I32 => (i32::MIN as f64, i32::MAX as f64),
        Element::I64 => (i64::MIN as f64, i64::MAX as f64),
        Element::Bool => return Err("Clip of booleans".into()),
    };
    let min = bound(cx, 1, lowest)?;
    let max = bound(cx, 2, highest)?;
    if let Some(data) = small_constant(&input) {
        return Ok(vec![Slot::constant(folding::elementwise(
            &[&data],
            input.element,
            |v| v[0].max(min).min(max),
        )?)]);
    }
    let x = cx.value(0)?;
    let (min_attr, max_attr) = (
        cx.scalar_attr(input.element, min),
        cx.scalar_attr(input.element, max),
    );
    let out = cx.emit(glow_graph::clip(cx.context, x, min_attr, max_attr, cx.location).into());
    Ok(vec![Slot::value(out, input.shape, input.element)])
}

pub fn leaky_relu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let alpha = cx.f32_attr(cx.attr_f("alpha", 0.01) as f64);
    let x = cx.value(0)?;
    let op = glow_graph::LeakyReluOperationBuilder::new(cx.context, cx.location)
        .input(x)
        .alpha(alpha)
        .build();
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, input.shape, input.element)])
}

pub fn hard_sigmoid<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let alpha = cx.f32_attr(cx.attr_f("alpha", 0.2) as f64);
    let beta = cx.f32_attr(cx.attr_f("beta", 0.5) as f64);
    let x = cx.value(0)?;
    let op = glow_graph::HardSigmoidOperationBuilder::new(cx.context, cx.location)
        .input(x)
        .alpha(alpha)
        .beta(beta)
        .build();
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, input.shape, input.element)])
}

pub fn gelu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let approximate = match cx.attr_s("approximate", "none").as_str() {
        "none" => false,
        "tanh" => true,
        other => return Err(format!("unknown approximate '{other}'")),
    };
    let x = cx.value(0)?;
    let mut op = glow_graph::gelu(cx.context, x, cx.location);
    if approximate {
        op.set_approximate(Attribute::unit(cx.context));
    }
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, input.shape, input.element)])
}

/// PRelu's slope broadcasts to the input (unidirectionally).
pub fn prelu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let slope = cx.input(1)?;
    let x = cx.value(0)?;
    let s = broadcast_to(cx, &slope, &input.shape)?;
    let out = cx.emit(glow_graph::prelu(cx.context, x, s, cx.location).into());
    Ok(vec![Slot::value(out, input.shape, input.element)])
}

/// Where(cond, a, b) -> select over the broadcast of all three.
pub fn r#where<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (cond, a, b) = (cx.input(0)?, cx.input(1)?, cx.input(2)?);
    if a.element != b.element {
        return Err("X and Y element types differ".into());
    }
    if let (Some(c), Some(x), Some(y)) = (
        small_constant(&cond),
        small_constant(&a),
        small_constant(&b),
    ) {
        let folded = folding::elementwise(&[&c, &x, &y], a.element, |v| {
            if v[0] != 0.0 {
                v[1]
            } else {
                v[2]
            }
        })?;
        return Ok(vec![Slot::constant(folded)]);
    }
    let shape = broadcast_shapes(&broadcast_shapes(&cond.shape, &a.shape)?, &b.shape)?;
    let c = broadcast_to(cx, &cond, &shape)?;
    let x = broadcast_to(cx, &a, &shape)?;
    let y = broadcast_to(cx, &b, &shape)?;
    let r#type = cx.tensor_type(&shape, a.element);
    let out = cx.emit(glow_graph::select(cx.context, r#type, c, x, y, cx.location).into());
    Ok(vec![Slot::value(out, shape, a.element)])
}

/// CastLike: Cast to the element type of input #1.
pub fn cast_like<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let input = cx.input(0)?;
    let target = cx.input(1)?;
    Ok(vec![convert_slot(cx, &input, target.element)?])
}

/// The truncated remainder (sign of the dividend); 0 for a zero divisor, as the
/// compiled code gives.
fn truncated_remainder(a: i64, b: i64) -> i64 {
    if b == 0 {
        0
    } else {
        a.wrapping_rem(b)
    }
}

/// Mod: fmod = 1 is C's fmod (truncated); fmod = 0 is Python's % (the sign of the
/// divisor; numpy.mod on floats).
pub fn r#mod<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    if cx.attr_flag("fmod", false)? {
        return binary(
            cx,
            |c, _, l, r, loc| {
                glow_graph::ModOperationBuilder::new(c, loc)
                    .lhs(l)
                    .rhs(r)
                    .build()
                    .into()
            },
            |a, b| a % b,
            |a, b| Ok(truncated_remainder(a, b)),
            None,
        );
    }
    binary(
        cx,
        |c, _, l, r, loc| {
            glow_graph::ModOperationBuilder::new(c, loc)
                .lhs(l)
                .rhs(r)
                .sign_follow_divisor(Attribute::unit(c))
                .build()
                .into()
        },
        |a, b| {
            let r = a % b;
            if r != 0.0 && (r < 0.0) != (b < 0.0) {
                r + b
            } else {
                r
            }
        },
        |a, b| {
            let r = truncated_remainder(a, b);
            Ok(if r != 0 && (r < 0) != (b < 0) {
                r + b
            } else {
                r
            })
        },
        None,
    )
}

/// BitShift (unsigned integers): shifts by at least the bit width give 0.
pub fn bit_shift<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let element = cx.input(0)?.element;
    if element.is_float() || element == Element::Bool {
        return Err(format!("BitShift needs integer inputs, got {element:?}"));
    }
    match cx.attr_s("direction", "").as_str() {
        "LEFT" => binary(
            cx,
            |c, _, l, r, loc| glow_graph::shift_left(c, l, r, loc).into(),
            |_, _| f64::NAN,
            |a, b| {
                Ok(if (0..64).contains(&b) {
                    a.wrapping_shl(b as u32)
                } else {
                    0
                })
            },
            None,
        ),
        "RIGHT" => binary(
            cx,
            |c, _, l, r, loc| glow_graph::shift_right(c, l, r, loc).into(),
            |_, _| f64::NAN,
            |a, b| {
                Ok(if (0..64).contains(&b) {
                    ((a as u64) >> b) as i64
                } else {
                    0
                })
            },
            None,
        ),
        other => Err(format!("'direction' must be LEFT or RIGHT, got '{other}'")),
    }
}
