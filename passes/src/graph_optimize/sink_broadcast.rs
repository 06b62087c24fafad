//! broadcast(transpose(x, p)) -> transpose(broadcast(x), p), for a broadcast of equal
//! rank (`axis` 0: only unit dimensions grow): Glow's transpose sinking below
//! Broadcast. A squeeze-excitation block scales its input by a per-channel factor,
//! `mul(broadcast(s), x)`; in the channels-last layout both operands arrive
//! transposed, and only once the broadcast passes the transpose can the mul (and the
//! transposes after it) sink and cancel, instead of the block running its elementwise
//! ops in NCHW with a transpose each way (EfficientNet's SiLU, its pools, its scaling).

use super::{
    compose_transposes::{defining_op, permutation},
    sink_movement::per_axis_quantized,
};
use crate::{
    framework::{attributes::i64_value, Rule},
    lower_nodes::builder::tensor_info,
    quantization::ir::{operand, tensor_type},
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, ValueLike},
    Context, RewriterBase,
};

/// Sinks a transpose below an equal-rank `glow.graph.broadcast`.
pub static SINK_TRANSPOSE_BELOW_BROADCAST: Rule = Rule {
    root: "glow.graph.broadcast",
    generates: &["glow.graph.transpose", "glow.graph.broadcast"],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(input) = operand(op, 0) else {
        return false;
    };
    if per_axis_quantized(op) {
        return false;
    }
    let Some(transpose) = defining_op(input, "glow.graph.transpose") else {
        return false;
    };
    let (Some(perm), Some(source), Some(0)) = (
        permutation(transpose),
        operand(transpose, 0),
        i64_value(op, "axis"),
    ) else {
        return false;
    };
    let (Some((shape, element)), Some((input_shape, _))) = (
        op.result(0).ok().and_then(|r| tensor_info(r.into())),
        tensor_info(input),
    ) else {
        return false;
    };
    if shape.len() != input_shape.len() || perm.len() != shape.len() {
        return false;
    }
    // result[i] = broadcast[perm[i]]: the broadcast before the transpose has shape
    // `unmoved` with unmoved[perm[i]] = shape[i].
    let mut unmoved = vec![0; shape.len()];
    for (i, p) in perm.iter().enumerate() {
        let Some(slot) = usize::try_from(*p).ok().and_then(|p| unmoved.get_mut(p)) else {
            return false;
        };
        *slot = shape[i];
    }
    rewriter.set_insertion_point_before(op);
    let broadcast = rewriter.clone_op(op);
    // SAFETY: the clone is alive and has operand 0; `source` dominates it.
    unsafe { mlir_sys::mlirOperationSetOperand(broadcast.to_raw(), 0, source.to_raw()) };
    let Ok(broadcast_value) = broadcast.result(0) else {
        return false;
    };
    // SAFETY: the broadcast of the source has the source's layout.
    unsafe {
        mlir_sys::mlirValueSetType(
            broadcast_value.to_raw(),
            melior::ir::TypeLike::to_raw(&tensor_type(&unmoved, element)),
        )
    };
    let moved = glow_graph::transpose(
        context,
        broadcast_value.into(),
        DenseI64ArrayAttribute::new(context, &perm).into(),
        op.location(),
    );
    let Ok(result) = rewriter.insert(moved.into()).result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[result.into()]);
    true
}
