//! op(transpose(x)) -> transpose(op(x)) for unary elementwise ops whose transpose has
//! no other user (Glow's transpose sinking): transposes move toward each other and
//! [`super::compose_transposes`] cancels them.

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
    ($($name:ident => $root:literal),* $(,)?) => {
        $(
            #[doc = concat!("Sinks a transpose below `", $root, "`.")]
            pub static $name: Rule = Rule {
                root: $root,
                generates: &["glow.graph.transpose", $root],
                rewrite,
            };
        )*
        /// One rule per unary elementwise op.
        pub const SINK_RULES: &[&Rule] = &[$(&$name),*];
    };
}

sink_rules! {
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
    let Ok(moved_result) = moved.result(0) else {
        return false;
    };
    // SAFETY: the value belongs to the op just cloned; unary elementwise ops keep
    // their operand's type, so the new type is the source's.
    unsafe { mlir_sys::mlirValueSetType(moved_result.to_raw(), source.r#type().to_raw()) };
    let attribute = DenseI64ArrayAttribute::new(context, &perm).into();
    let transposed = rewriter.insert(
        glow_graph::transpose(context, moved_result.into(), attribute, op.location()).into(),
    );
    let Ok(result) = transposed.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[result.into()]);
    true
}
