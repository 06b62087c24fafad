//! Erasing the weights a rewrite left without users, freeing their blobs at once.
//!
//! MLIR keeps a `dense_resource` blob for as long as its context lives. A rewrite that
//! replaces a weight (batch-norm folding makes new filters, the conversion to linalg
//! relays them out) leaves the old constant to the greedy driver, which erases it
//! later, and the blob stays until the tool frees unreferenced blobs after the pass.
//! A pass that replaces every filter of a model would so hold two copies of all of
//! them at its end; erasing and freeing each old weight as soon as its last user is
//! gone keeps one.

use melior::{
    ir::{operation::OperationLike, OperationRef, Value},
    RewriterBase,
};

/// For each of `values` (defined by live ops) whose defining op is a constant
/// (`glow.graph.constant`, `arith.constant`) without uses left: erases it and frees
/// its `dense_resource` blob when nothing else in the module refers to it (see
/// [`glow_dialects::resources::release_if_unreferenced`]). Returns the bytes freed.
pub fn erase_dead_weights(rewriter: &RewriterBase, values: &[Value]) -> i64 {
    let mut constants: Vec<OperationRef> = Vec::new();
    for value in values {
        let Some(result) = super::values::operation_result(*value) else {
            continue;
        };
        let owner = result.owner();
        let is_constant = matches!(
            owner.name().as_string_ref().as_str(),
            Ok("glow.graph.constant" | "arith.constant")
        );
        if is_constant
            && crate::quantization::ir::users(*value).is_empty()
            && !constants
                .iter()
                .any(|c| c.to_raw().ptr == owner.to_raw().ptr)
        {
            constants.push(owner);
        }
    }
    constants
        .into_iter()
        .map(|constant| erase_and_release(constant, |op| rewriter.erase_op(op)))
        .sum()
}

/// [`erase_dead_weights`] for one constant, in a pass that rewrites without MLIR's
/// greedy driver (no rewriter to tell): erases `constant` (`glow.graph.constant` or
/// `arith.constant`) when its value has no uses and frees its blob when nothing else
/// refers to it. Returns the bytes freed.
pub fn release_unused_constant(constant: OperationRef) -> i64 {
    let unused = crate::quantization::ir::result(constant, 0)
        .is_some_and(|value| crate::quantization::ir::users(value).is_empty());
    let is_constant = matches!(
        constant.name().as_string_ref().as_str(),
        Ok("glow.graph.constant" | "arith.constant")
    );
    if !unused || !is_constant {
        return 0;
    }
    erase_and_release(constant, |op| {
        // SAFETY: the constant has no users; it is detached, destroyed and not used again.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
            mlir_sys::mlirOperationDestroy(op.to_raw());
        }
    })
}

/// Erases `constant` with `erase`, then frees its `dense_resource` blob when nothing
/// else in the module refers to it; the bytes freed.
fn erase_and_release<'c, 'a>(
    constant: OperationRef<'c, 'a>,
    erase: impl FnOnce(OperationRef<'c, 'a>),
) -> i64 {
    let root = glow_dialects::resources::outermost(constant);
    let attribute = constant.attribute("value").ok();
    erase(constant);
    attribute.map_or(0, |attribute| {
        glow_dialects::resources::release_if_unreferenced(root, attribute)
    })
}
