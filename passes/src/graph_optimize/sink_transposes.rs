//! op(transpose(x)) -> transpose(op(x)) for unary elementwise ops whose transpose has
//! no other user, and op(transpose(x, p), transpose(y, p)) -> transpose(op(x, y), p)
//! for binary elementwise ops (Glow's transpose sinking): transposes move toward each
//! other and [`super::compose_transposes`] cancels them.

use super::compose_transposes::{defining_op, has_one_use, permutation};
use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, TypeLike,
        ValueLike,
    },
    Context, RewriterBase,
};

macro_rules! sink_rules {
    (
        unary: { $($unary:ident => $unary_root:literal),* $(,)? }
        binary: { $($binary:ident => $binary_root:literal),* $(,)? }
    ) => {
        $(
            #[doc = concat!("Sinks a transpose below `", $unary_root, "`.")]
            pub static $unary: Rule = Rule {
                root: $unary_root,
                generates: &["glow.graph.transpose", $unary_root],
                rewrite,
            };
        )*
        $(
            #[doc = concat!("Sinks equal transposes of both operands below `", $binary_root, "`.")]
            pub static $binary: Rule = Rule {
                root: $binary_root,
                generates: &["glow.graph.transpose", $binary_root],
                rewrite: rewrite_binary,
            };
        )*
        /// One rule per unary and per binary elementwise op.
        pub const SINK_RULES: &[&Rule] = &[$(&$unary,)* $(&$binary),*];
    };
}

sink_rules! {
    unary: {
        SINK_TRANSPOSE_BELOW_RELU => "glow.graph.relu",
        SINK_TRANSPOSE_BELOW_SIGMOID => "glow.graph.sigmoid",
        SINK_TRANSPOSE_BELOW_TANH => "glow.graph.tanh",
        SINK_TRANSPOSE_BELOW_SQRT => "glow.graph.sqrt",
        SINK_TRANSPOSE_BELOW_EXP => "glow.graph.exp",
        SINK_TRANSPOSE_BELOW_LOG => "glow.graph.log",
        SINK_TRANSPOSE_BELOW_ERF => "glow.graph.erf",
        SINK_TRANSPOSE_BELOW_NEG => "glow.graph.neg",
        SINK_TRANSPOSE_BELOW_ABS => "glow.graph.abs",
        SINK_TRANSPOSE_BELOW_GELU => "glow.graph.gelu",
        SINK_TRANSPOSE_BELOW_LEAKY_RELU => "glow.graph.leaky_relu",
        SINK_TRANSPOSE_BELOW_CLIP => "glow.graph.clip",
    }
    binary: {
        SINK_TRANSPOSES_BELOW_ADD => "glow.graph.add",
        SINK_TRANSPOSES_BELOW_SUB => "glow.graph.sub",
        SINK_TRANSPOSES_BELOW_MUL => "glow.graph.mul",
        SINK_TRANSPOSES_BELOW_DIV => "glow.graph.div",
        SINK_TRANSPOSES_BELOW_MAX => "glow.graph.max",
        SINK_TRANSPOSES_BELOW_MIN => "glow.graph.min",
    }
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(input) = op.operand(0) else {
        return false;
    };
    let Some(transpose) = defining_op(input, "glow.graph.transpose") else {
        return false;
    };
    if !has_one_use(input) {
        return false;
    }
    let (Some(perm), Ok(source)) = (permutation(transpose), transpose.operand(0)) else {
        return false;
    };
    rewriter.set_insertion_point_before(op);
    // The op on the untransposed value: same attributes, the source's type.
    let moved = rewriter.clone_op(op);
    // SAFETY: the clone is alive and has operand 0; `source` dominates it.
    unsafe { mlir_sys::mlirOperationSetOperand(moved.to_raw(), 0, source.to_raw()) };
    // Unary elementwise ops keep their operand's type: the new type is the source's.
    transpose_moved_result(context, op, moved, source.r#type(), &perm, rewriter)
}

/// Gives the moved (cloned, re-operanded) op's result `type`, transposes it by `perm`
/// and replaces `op` with that.
fn transpose_moved_result<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    moved: OperationRef<'c, '_>,
    r#type: melior::ir::Type<'c>,
    perm: &[i64],
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(moved_result) = moved.result(0) else {
        return false;
    };
    // SAFETY: the value belongs to the op just cloned, whose operands now have `type`'s
    // shape; elementwise ops keep their operands' type.
    unsafe { mlir_sys::mlirValueSetType(moved_result.to_raw(), r#type.to_raw()) };
    let attribute = DenseI64ArrayAttribute::new(context, perm).into();
    let transposed = rewriter.insert(
        glow_graph::transpose(context, moved_result.into(), attribute, op.location()).into(),
    );
    let Ok(result) = transposed.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[result.into()]);
    true
}

/// op(transpose(x, p), transpose(y, p)) -> transpose(op(x, y), p), for operands of one
/// type; a splat operand counts as transposed (it is re-made in the untransposed
/// shape). The operand transposes may have other users: they stay for those (and
/// usually cancel against a later transpose there), so no work is duplicated.
fn rewrite_binary<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(lhs), Ok(rhs)) = (op.operand(0), op.operand(1)) else {
        return false;
    };
    if lhs.r#type() != rhs.r#type() {
        return false;
    }
    let transposed = |value| {
        let transpose = defining_op(value, "glow.graph.transpose")?;
        Some((permutation(transpose)?, transpose.operand(0).ok()?))
    };
    let (perm, source_type) = match (transposed(lhs), transposed(rhs)) {
        (Some((p, x)), Some((q, y))) if p == q && x.r#type() == y.r#type() => (p, x.r#type()),
        (Some((p, x)), None) | (None, Some((p, x))) => (p, x.r#type()),
        _ => return false,
    };
    rewriter.set_insertion_point_before(op);
    let mut sources = Vec::new();
    for value in [lhs, rhs] {
        if let Some((_, source)) = transposed(value) {
            sources.push(source.to_raw());
        } else if let Some(splat) = defining_op(value, "glow.graph.splat") {
            let remade = rewriter.clone_op(splat);
            let Ok(result) = remade.result(0) else {
                return false;
            };
            // SAFETY: a splat's result type is free; it takes the untransposed shape.
            unsafe { mlir_sys::mlirValueSetType(result.to_raw(), source_type.to_raw()) };
            sources.push(result.to_raw());
        } else {
            return false;
        }
    }
    let moved = rewriter.clone_op(op);
    // SAFETY: the clone is alive and has two operands; the sources dominate it.
    unsafe {
        mlir_sys::mlirOperationSetOperand(moved.to_raw(), 0, sources[0]);
        mlir_sys::mlirOperationSetOperand(moved.to_raw(), 1, sources[1]);
    }
    transpose_moved_result(context, op, moved, source_type, &perm, rewriter)
}
