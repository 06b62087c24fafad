//! batch_norm(x, scale, bias, mean, var) in inference form ->
//!   k     = scale / sqrt(var + splat(epsilon))
//!   shift = bias - mean * k
//!   y     = x * broadcast(k) + broadcast(shift)
//! (Glow's lowerBatchNormalizationNode). The per-channel arithmetic is on 1-D tensors,
//! so with constant statistics it folds away and only one mul and one add per element
//! remain.

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

/// The rule lowering `glow.graph.batch_norm`.
pub static LOWER_BATCH_NORM: Rule = Rule {
    root: "glow.graph.batch_norm",
    generates: &[
        "glow.graph.splat",
        "glow.graph.add",
        "glow.graph.sqrt",
        "glow.graph.div",
        "glow.graph.mul",
        "glow.graph.sub",
        "glow.graph.broadcast",
    ],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let operands: Vec<Value> = op.operands().collect();
    let [input, scale, bias, mean, var] = operands[..] else {
        return false;
    };
    let Some((shape, element)) = tensor_info(input) else {
        return false;
    };
    let (Ok(epsilon), Ok(channel)) = (op.attribute("epsilon"), op.attribute("channel")) else {
        return false;
    };
    let (Ok(epsilon), Ok(channel)) = (
        FloatAttribute::try_from(epsilon),
        IntegerAttribute::try_from(channel),
    ) else {
        return false;
    };
    let rank = shape.len() as i64;
    let channel = if channel.value() < 0 {
        channel.value() + rank
    } else {
        channel.value()
    };
    let Some((vector_shape, _)) = tensor_info(scale) else {
        return false;
    };

    rewriter.set_insertion_point_before(op);
    let b = GraphBuilder {
        context,
        rewriter,
        location: op.location(),
    };
    let epsilon = b.splat(&vector_shape, element, epsilon.value());
    let deviation = b.unary(Unary::Sqrt, b.binary(Binary::Add, var, epsilon));
    let k = b.binary(Binary::Div, scale, deviation);
    let shift = b.binary(Binary::Sub, bias, b.binary(Binary::Mul, mean, k));
    let k_wide = b.broadcast(k, &shape, element, channel);
    let shift_wide = b.broadcast(shift, &shape, element, channel);
    let result = b.binary(
        Binary::Add,
        b.binary(Binary::Mul, input, k_wide),
        shift_wide,
    );
    rewriter.replace_op_with_values(op, &[result]);
    true
}
