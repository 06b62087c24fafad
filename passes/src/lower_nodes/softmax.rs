//! softmax / log_softmax along one axis, numerically stable (Glow's LogSoftMax rule):
//!   m = broadcast(reduce_max(x, axis, keep)),  e = exp(x - m),
//!   s = broadcast(reduce_sum(e, axis, keep))
//!   softmax = e / s,   log_softmax = (x - m) - log(s)
//!
//! The reduce_max is tagged [`SOFTMAX_MAX`] (NaN-insensitive) and the division
//! [`SOFTMAX_NORMALIZE`] (a product with the reciprocal): see there.

use super::builder::{tensor_info, Binary, GraphBuilder, Reduce, Unary};
use crate::framework::{attributes::set_attribute, Rule};
use melior::{
    ir::{attribute::IntegerAttribute, operation::OperationLike, Attribute, OperationRef},
    Context, RewriterBase,
};

/// Marks the row maximum a softmax subtracts, whose NaN handling does not matter: a NaN
/// in the row makes the row's sum of exponentials NaN and so every output NaN, whatever
/// the maximum; a maximum of +0 where maximumf gives -0 (both in the row) changes
/// `x - m` at most in the sign of a zero, which exp drops, and log_softmax's
/// `(x - m) - log(s)` has s >= 2 there. `glow-graph-to-linalg` reduces it with
/// `arith.maxnumf`, which LLVM lowers to a compare and a blend per vector, where
/// `arith.maximumf` also orders signed zeros (a 6 x 1536 x 1536 softmax, one thread:
/// 7.6 -> 4.8 ms).
pub const SOFTMAX_MAX: &str = "glow.softmax_max";

/// Marks the division of a softmax's exponentials by their row sum, which
/// `glow-graph-to-linalg` computes as a product with the sum's reciprocal, one division
/// per row (as onnxruntime's kernel does; the result moves by at most about one ulp):
/// vector division is the slowest vector arithmetic, one a cycle or less here (6 x
/// 1500 x 1500 softmax, one thread: 9.7 -> 7.5 ms).
pub const SOFTMAX_NORMALIZE: &str = "glow.softmax_normalize";

/// The rule lowering `glow.graph.softmax`.
pub static LOWER_SOFTMAX: Rule = Rule {
    root: "glow.graph.softmax",
    generates: &[
        "glow.graph.reduce_max",
        "glow.graph.reduce_sum",
        "glow.graph.broadcast",
        "glow.graph.sub",
        "glow.graph.exp",
        "glow.graph.div",
    ],
    rewrite: softmax,
};

/// The rule lowering `glow.graph.log_softmax`.
pub static LOWER_LOG_SOFTMAX: Rule = Rule {
    root: "glow.graph.log_softmax",
    generates: &[
        "glow.graph.reduce_max",
        "glow.graph.reduce_sum",
        "glow.graph.broadcast",
        "glow.graph.sub",
        "glow.graph.exp",
        "glow.graph.log",
    ],
    rewrite: log_softmax,
};

fn softmax<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    lower(context, op, rewriter, false)
}

fn log_softmax<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    lower(context, op, rewriter, true)
}

fn lower<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    log: bool,
) -> bool {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, element)) = tensor_info(x) else {
        return false;
    };
    let Some(axis) = op
        .attribute("axis")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
    else {
        return false;
    };
    let rank = shape.len() as i64;
    let axis = if axis.value() < 0 {
        axis.value() + rank
    } else {
        axis.value()
    };
    rewriter.set_insertion_point_before(op);
    let b = GraphBuilder {
        context,
        rewriter,
        location: op.location(),
    };
    let row_max = b.reduce_keep(Reduce::Max, x, &[axis]);
    if let Some(reduce) = crate::framework::values::defining_op(row_max) {
        set_attribute(reduce, SOFTMAX_MAX, Attribute::unit(context));
    }
    let max = b.broadcast(row_max, &shape, element, 0);
    let shifted = b.binary(Binary::Sub, x, max);
    let exps = b.unary(Unary::Exp, shifted);
    let sum = b.broadcast(
        b.reduce_keep(Reduce::Sum, exps, &[axis]),
        &shape,
        element,
        0,
    );
    let y = if log {
        b.binary(Binary::Sub, shifted, b.unary(Unary::Log, sum))
    } else {
        let normalized = b.binary(Binary::Div, exps, sum);
        if let Some(div) = crate::framework::values::defining_op(normalized) {
            set_attribute(div, SOFTMAX_NORMALIZE, Attribute::unit(context));
        }
        normalized
    };
    rewriter.replace_op_with_values(op, &[y]);
    true
}
