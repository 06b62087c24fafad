//! layer_norm and instance_norm onto reductions and elementwise ops (Glow's
//! LayerNormalization / InstanceNormalization rules), and reduce_mean onto
//! reduce_sum + div (Glow's BatchedReduceMean rule):
//!   mean = sum(x) / n,  d = x - mean,  var = sum(d * d) / n
//!   y = d * rsqrt(var + eps) * scale + bias   (scale/bias broadcast back)

use super::builder::{tensor_info, Binary, GraphBuilder, Reduce, Unary};
use crate::framework::attributes::i64_array;
use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        Attribute, OperationRef, Type, Value,
    },
    Context, RewriterBase,
};

const GENERATES: &[&str] = &[
    "glow.graph.reduce_sum",
    "glow.graph.broadcast",
    "glow.graph.splat",
    "glow.graph.sub",
    "glow.graph.mul",
    "glow.graph.div",
    "glow.graph.add",
    "glow.graph.rsqrt",
];

/// The rule lowering `glow.graph.layer_norm`.
pub static LOWER_LAYER_NORM: Rule = Rule {
    root: "glow.graph.layer_norm",
    generates: GENERATES,
    rewrite: layer_norm,
};
/// The rule lowering `glow.graph.instance_norm`.
pub static LOWER_INSTANCE_NORM: Rule = Rule {
    root: "glow.graph.instance_norm",
    generates: GENERATES,
    rewrite: instance_norm,
};
/// The rule lowering `glow.graph.reduce_mean`.
pub static LOWER_REDUCE_MEAN: Rule = Rule {
    root: "glow.graph.reduce_mean",
    generates: GENERATES,
    rewrite: reduce_mean,
};

/// x normalized over `axes` (mean 0, variance 1, with `epsilon`), same shape as x.
fn normalize<'c, 'r>(
    b: &GraphBuilder<'c, 'r, '_>,
    x: Value<'c, '_>,
    shape: &[i64],
    element: Type<'c>,
    axes: &[i64],
    epsilon: f64,
) -> Value<'c, 'r> {
    let count: i64 = axes.iter().map(|a| shape[*a as usize]).product();
    let n = b.splat(shape, element, count as f64);
    let mean = b.binary(
        Binary::Div,
        b.broadcast(b.reduce_keep(Reduce::Sum, x, axes), shape, element, 0),
        n,
    );
    let centered = b.binary(Binary::Sub, x, mean);
    let squares = b.binary(Binary::Mul, centered, centered);
    let variance = b.binary(
        Binary::Div,
        b.broadcast(b.reduce_keep(Reduce::Sum, squares, axes), shape, element, 0),
        n,
    );
    let shifted = b.binary(Binary::Add, variance, b.splat(shape, element, epsilon));
    b.binary(Binary::Mul, centered, b.unary(Unary::Rsqrt, shifted))
}

fn epsilon(op: OperationRef) -> Option<f64> {
    FloatAttribute::try_from(op.attribute("epsilon").ok()?)
        .ok()
        .map(|a| a.value())
}

fn layer_norm<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(x), Ok(scale), Ok(bias)) = (op.operand(0), op.operand(1), op.operand(2)) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(x) else {
        return false;
    };
    let (Some(axis), Some(eps)) = (
        op.attribute("axis")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok()),
        epsilon(op),
    ) else {
        return false;
    };
    let rank = shape.len() as i64;
    let axis = if axis.value() < 0 {
        axis.value() + rank
    } else {
        axis.value()
    };
    let axes: Vec<i64> = (axis..rank).collect();
    rewriter.set_insertion_point_before(op);
    let b = GraphBuilder {
        context,
        rewriter,
        location: op.location(),
    };
    let normalized = normalize(&b, x, &shape, element, &axes, eps);
    let scaled = b.binary(
        Binary::Mul,
        normalized,
        b.broadcast(scale, &shape, element, axis),
    );
    let y = b.binary(
        Binary::Add,
        scaled,
        b.broadcast(bias, &shape, element, axis),
    );
    rewriter.replace_op_with_values(op, &[y]);
    true
}

fn instance_norm<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(x), Ok(scale), Ok(bias)) = (op.operand(0), op.operand(1), op.operand(2)) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(x) else {
        return false;
    };
    let Some(eps) = epsilon(op) else { return false };
    let axes: Vec<i64> = (2..shape.len() as i64).collect();
    rewriter.set_insertion_point_before(op);
    let b = GraphBuilder {
        context,
        rewriter,
        location: op.location(),
    };
    let normalized = normalize(&b, x, &shape, element, &axes, eps);
    let scaled = b.binary(
        Binary::Mul,
        normalized,
        b.broadcast(scale, &shape, element, 1),
    );
    let y = b.binary(Binary::Add, scaled, b.broadcast(bias, &shape, element, 1));
    rewriter.replace_op_with_values(op, &[y]);
    true
}

fn reduce_mean<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, _)) = tensor_info(x) else {
        return false;
    };
    let Ok(result) = op.result(0) else {
        return false;
    };
    let Some((out_shape, element)) = tensor_info(result.into()) else {
        return false;
    };
    let Some(axes) = i64_array(op, "axes") else {
        return false;
    };
    let rank = shape.len() as i64;
    let count: i64 = axes
        .iter()
        .map(|a| {
            shape[if *a < 0 {
                (a + rank) as usize
            } else {
                *a as usize
            }]
        })
        .product();
    rewriter.set_insertion_point_before(op);
    let b = GraphBuilder {
        context,
        rewriter,
        location: op.location(),
    };
    // The same reduction as a sum (keep_dims carried over), then one division.
    // keep_dims must be set before the result type is inferred.
    let builder = glow_graph::ReduceSumOperationBuilder::new(context, op.location())
        .input(x)
        .axes(op.attribute("axes").expect("read above"));
    let sum = if op.attribute("keep_dims").is_ok() {
        builder.keep_dims(Attribute::unit(context)).build()
    } else {
        builder.build()
    };
    let sum = rewriter.insert(sum.into());
    let Ok(sum) = sum.result(0) else { return false };
    let y = b.binary(
        Binary::Div,
        sum.into(),
        b.splat(&out_shape, element, count as f64),
    );
    rewriter.replace_op_with_values(op, &[y]);
    true
}
