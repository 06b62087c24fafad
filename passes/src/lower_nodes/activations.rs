//! Glow's activation lowerings (Lower.cpp), onto max/min/mul/select/erf/tanh:
//! - relu(x)            -> select(x < 0, splat 0, x)  (Glow: Max(x, 0); the select keeps
//!   ONNX's reference value on -0, -0 rather than +0, and NaN)
//! - leaky_relu(x, a)   -> select(x < 0, x * splat a, x)   (Glow: PRelu(Splat a))
//! - prelu(x, s)        -> select(x < 0, x * s, x)          (Glow: CmpLTE + Mul + Select)
//! - clip(x, lo, hi)    -> min(max(x, splat lo), splat hi)
//! - hard_swish(x)      -> x * min(max(x + 3, 0), 6) / 6
//! - hard_sigmoid(x)    -> max(min(a x + b, 1), 0)
//! - gelu(x)            -> x * (1 + erf(x / sqrt 2)) / 2, or with `approximate` the
//!   tanh form x * (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) / 2 that Glow used

use super::builder::{tensor_info, Binary, GraphBuilder, Unary};
use crate::framework::Rule;
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        OperationRef, Value,
    },
    Context, RewriterBase,
};

/// Shared start of every activation rule: the input, its shape and element type, and
/// a builder positioned before `op`.
fn prologue<'c, 'a, 'r, 'b>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    rewriter: &'r RewriterBase<'c, 'b>,
) -> Option<(
    Value<'c, 'a>,
    Vec<i64>,
    melior::ir::Type<'c>,
    GraphBuilder<'c, 'r, 'b>,
)> {
    let input = op.operand(0).ok()?;
    let (shape, element) = tensor_info(input)?;
    rewriter.set_insertion_point_before(op);
    let build = GraphBuilder {
        context,
        rewriter,
        location: op.location(),
    };
    Some((input, shape, element, build))
}

fn float_attr(op: OperationRef, name: &str) -> Option<f64> {
    FloatAttribute::try_from(op.attribute(name).ok()?)
        .ok()
        .map(|a| a.value())
}

/// A scalar attribute (float or integer) as f64.
fn scalar_attr(op: OperationRef, name: &str) -> Option<f64> {
    let attribute = op.attribute(name).ok()?;
    if let Ok(f) = FloatAttribute::try_from(attribute) {
        return Some(f.value());
    }
    IntegerAttribute::try_from(attribute)
        .ok()
        .map(|i| i.value() as f64)
}

macro_rules! rule {
    ($name:ident, $root:literal, $rewrite:ident) => {
        #[doc = concat!("The rule lowering `", $root, "`.")]
        pub static $name: Rule = Rule {
            root: $root,
            generates: &[
                "glow.graph.splat",
                "glow.graph.max",
                "glow.graph.min",
                "glow.graph.mul",
                "glow.graph.add",
                "glow.graph.div",
                "glow.graph.select",
                "glow.graph.cmp_lt",
                "glow.graph.erf",
                "glow.graph.tanh",
            ],
            rewrite: $rewrite,
        };
    };
}

rule!(LOWER_RELU, "glow.graph.relu", relu);
rule!(LOWER_LEAKY_RELU, "glow.graph.leaky_relu", leaky_relu);
rule!(LOWER_PRELU, "glow.graph.prelu", prelu);
rule!(LOWER_CLIP, "glow.graph.clip", clip);
rule!(LOWER_HARD_SWISH, "glow.graph.hard_swish", hard_swish);
rule!(LOWER_HARD_SIGMOID, "glow.graph.hard_sigmoid", hard_sigmoid);
rule!(LOWER_GELU, "glow.graph.gelu", gelu);

fn relu<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((x, shape, element, b)) = prologue(context, op, rewriter) else {
        return false;
    };
    let zero = b.splat(&shape, element, 0.0);
    let negative = b.less(x, zero, &shape);
    let y = b.select(negative, zero, x);
    rewriter.replace_op_with_values(op, &[y]);
    true
}

/// select(x < 0, x * slope, x)
fn negative_slope<'c, 'r>(
    b: &GraphBuilder<'c, 'r, '_>,
    x: Value<'c, '_>,
    slope: Value<'c, '_>,
    shape: &[i64],
    element: melior::ir::Type<'c>,
) -> Value<'c, 'r> {
    let zero = b.splat(shape, element, 0.0);
    let negative = b.less(x, zero, shape);
    let scaled = b.binary(Binary::Mul, x, slope);
    b.select(negative, scaled, x)
}

fn leaky_relu<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(alpha) = float_attr(op, "alpha") else {
        return false;
    };
    let Some((x, shape, element, b)) = prologue(context, op, rewriter) else {
        return false;
    };
    let slope = b.splat(&shape, element, alpha);
    let y = negative_slope(&b, x, slope, &shape, element);
    rewriter.replace_op_with_values(op, &[y]);
    true
}

fn prelu<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(slope) = op.operand(1) else {
        return false;
    };
    let Some((x, shape, element, b)) = prologue(context, op, rewriter) else {
        return false;
    };
    let y = negative_slope(&b, x, slope, &shape, element);
    rewriter.replace_op_with_values(op, &[y]);
    true
}

fn clip<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Some(low), Some(high)) = (scalar_attr(op, "min"), scalar_attr(op, "max")) else {
        return false;
    };
    let Some((x, shape, element, b)) = prologue(context, op, rewriter) else {
        return false;
    };
    let (lo, hi) = (
        b.splat(&shape, element, low),
        b.splat(&shape, element, high),
    );
    let raised = b.binary(Binary::Max, x, lo);
    let y = b.binary(Binary::Min, raised, hi);
    rewriter.replace_op_with_values(op, &[y]);
    true
}

fn hard_swish<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((x, shape, element, b)) = prologue(context, op, rewriter) else {
        return false;
    };
    let (three, zero, six) = (
        b.splat(&shape, element, 3.0),
        b.splat(&shape, element, 0.0),
        b.splat(&shape, element, 6.0),
    );
    let shifted = b.binary(Binary::Add, x, three);
    let clamped = b.binary(Binary::Min, b.binary(Binary::Max, shifted, zero), six);
    let y = b.binary(Binary::Div, b.binary(Binary::Mul, x, clamped), six);
    rewriter.replace_op_with_values(op, &[y]);
    true
}

fn hard_sigmoid<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Some(alpha), Some(beta)) = (float_attr(op, "alpha"), float_attr(op, "beta")) else {
        return false;
    };
    let Some((x, shape, element, b)) = prologue(context, op, rewriter) else {
        return false;
    };
    let linear = b.binary(
        Binary::Add,
        b.binary(Binary::Mul, x, b.splat(&shape, element, alpha)),
        b.splat(&shape, element, beta),
    );
    let capped = b.binary(Binary::Min, linear, b.splat(&shape, element, 1.0));
    let y = b.binary(Binary::Max, capped, b.splat(&shape, element, 0.0));
    rewriter.replace_op_with_values(op, &[y]);
    true
}

fn gelu<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let approximate = op.attribute("approximate").is_ok();
    let Some((x, shape, element, b)) = prologue(context, op, rewriter) else {
        return false;
    };
    let splat = |v: f64| b.splat(&shape, element, v);
    let inner = if approximate {
        // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
        let cube = b.binary(Binary::Mul, b.binary(Binary::Mul, x, x), x);
        let poly = b.binary(Binary::Add, x, b.binary(Binary::Mul, cube, splat(0.044715)));
        b.unary(
            Unary::Tanh,
            b.binary(
                Binary::Mul,
                poly,
                splat((2.0 / std::f64::consts::PI).sqrt()),
            ),
        )
    } else {
        b.unary(
            Unary::Erf,
            b.binary(Binary::Div, x, splat(std::f64::consts::SQRT_2)),
        )
    };
    let one_plus = b.binary(Binary::Add, inner, splat(1.0));
    let y = b.binary(Binary::Mul, b.binary(Binary::Mul, x, one_plus), splat(0.5));
    rewriter.replace_op_with_values(op, &[y]);
    true
}
