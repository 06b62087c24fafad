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
        let Ok(result) = melior::ir::operation::OperationResult::try_from(*value) else {
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
    let mut freed = 0;
    for constant in constants {
        let root = glow_dialects::resources::outermost(constant);
        let attribute = constant.attribute("value").ok();
        rewriter.erase_op(constant);
        if let Some(attribute) = attribute {
            freed += glow_dialects::resources::release_if_unreferenced(root, attribute);
        }
    }
    freed
}
