//! transpose(transpose(x, p), q) -> transpose(x, p ∘ q), which the transpose folder
//! removes when the composition is the identity (Glow's transpose cancellation).

use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, ValueLike},
    Context, RewriterBase,
};

/// The rule composing two transposes.
pub static COMPOSE_TRANSPOSES: Rule = Rule {
    root: "glow.graph.transpose",
    generates: &["glow.graph.transpose"],
    rewrite,
};

/// The permutation of a transpose op.
pub fn permutation(op: OperationRef) -> Option<Vec<i64>> {
    crate::framework::attributes::i64_array(op, "perm")
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(input) = op.operand(0) else {
        return false;
    };
    let Some(inner) = defining_op(input, "glow.graph.transpose") else {
        return false;
    };
    let (Some(outer_perm), Some(inner_perm)) = (permutation(op), permutation(inner)) else {
        return false;
    };
    // result[i] = inner_result[outer[i]] = x[inner[outer[i]]]
    let composed: Vec<i64> = outer_perm.iter().map(|&o| inner_perm[o as usize]).collect();
    let Ok(source) = inner.operand(0) else {
        return false;
    };
    rewriter.set_insertion_point_before(op);
    let attribute = DenseI64ArrayAttribute::new(context, &composed).into();
    let replacement =
        rewriter.insert(glow_graph::transpose(context, source, attribute, op.location()).into());
    let Ok(result) = replacement.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[result.into()]);
    true
}

/// The op defining `value` if it is named `name`.
pub fn defining_op<'c, 'a>(
    value: melior::ir::Value<'c, 'a>,
    name: &str,
) -> Option<OperationRef<'c, 'a>> {
    let result = crate::framework::values::operation_result(value)?;
    let owner = result.owner();
    (owner.name().as_string_ref().as_str().ok()? == name).then_some(owner)
}

/// Whether `value` has exactly one use.
pub fn has_one_use(value: melior::ir::Value) -> bool {
    // SAFETY: the value is alive; use iteration does not mutate the IR.
    unsafe {
        let first = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        !first.ptr.is_null() && mlir_sys::mlirOpOperandGetNextUse(first).ptr.is_null()
    }
}
