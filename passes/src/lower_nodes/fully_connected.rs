//! fully_connected(input, weights, bias) -> batched_add(matmul(input, weights), bias)
//! (Glow's lowerFullyConnectedNode).

use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{operation::OperationLike, OperationRef, ValueLike},
    Context, RewriterBase,
};

/// The rule lowering `glow.graph.fully_connected`.
pub static LOWER_FULLY_CONNECTED: Rule = Rule {
    root: "glow.graph.fully_connected",
    generates: &["glow.graph.matmul", "glow.graph.batched_add"],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(weights), Ok(bias)) = (op.operand(0), op.operand(1), op.operand(2)) else {
        return false;
    };
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let product = rewriter.insert(glow_graph::matmul(context, input, weights, location).into());
    let Ok(product) = product.result(0) else {
        return false;
    };
    let sum_type = product.r#type();
    let sum = rewriter
        .insert(glow_graph::batched_add(context, sum_type, product.into(), bias, location).into());
    let Ok(sum) = sum.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[sum.into()]);
    true
}
