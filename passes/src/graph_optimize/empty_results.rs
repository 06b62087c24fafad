//! Ops whose results hold no element (a batch of 0, an empty slice or split) -> empty
//! constants (`glow.graph.constant dense<>`): there is nothing to compute, and the
//! lowerings of convolutions, pools and gathers need not handle zero-sized dimensions
//! (a strided convolution's slices were out of bounds on a batch of 0). The greedy
//! driver then removes the ops that only fed them.
//!
//! Kept: constants, ops with regions, and results whose element type a dense attribute
//! cannot hold (quantized types).

use glow_dialects::{elements, ods::glow_graph};
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::{DimSize, ShapedTypeLike, TypeLike},
        BlockLike, OperationRef, Type, ValueLike,
    },
    Context,
};

/// Replaces every glow.graph op nested in `function` whose results are all empty
/// tensors with one empty constant per result; returns how many ops it replaced.
pub fn replace_empty_results(function: OperationRef<'_, '_>) -> usize {
    let mut empty = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        if name.starts_with("glow.graph.")
            && name != "glow.graph.constant"
            && op.region_count() == 0
            && op.result_count() > 0
            && (0..op.result_count())
                .all(|i| op.result(i).is_ok_and(|r| is_empty_tensor(r.r#type())))
        {
            empty.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let context_ref = function.context();
    // SAFETY: the function's context outlives this call.
    let context: &Context = unsafe { context_ref.to_ref() };
    for &raw in &empty {
        // SAFETY: `raw` was collected from the live IR above and nothing erased it since
        // (only ops collected here are erased, each once).
        let op = unsafe { OperationRef::from_raw(raw) };
        let Some(block) = op.block() else {
            continue;
        };
        for index in 0..op.result_count() {
            let Ok(result) = op.result(index) else {
                continue;
            };
            let r#type = result.r#type();
            let constant = block.insert_operation_before(
                op,
                glow_graph::constant(
                    context,
                    r#type,
                    elements::dense_elements(r#type, &[]),
                    op.location(),
                )
                .into(),
            );
            if let Ok(value) = constant.result(0) {
                // SAFETY: both values are live; the constant has the result's type.
                unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), value.to_raw()) };
            }
        }
        // SAFETY: every result's uses moved to the constants; the op is detached and
        // destroyed once.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(raw);
            mlir_sys::mlirOperationDestroy(raw);
        }
    }
    empty.len()
}

/// Whether `t` is a statically shaped tensor with a zero-sized dimension and an integer,
/// index or float element type (complex and quantized elements are kept).
fn is_empty_tensor(t: Type) -> bool {
    let Some(tensor) = crate::framework::values::ranked_tensor_type(t) else {
        return false;
    };
    let element = tensor.element();
    let raw = element.to_raw();
    // SAFETY: type-kind queries on a live type.
    let dense = unsafe {
        mlir_sys::mlirTypeIsAInteger(raw)
            || mlir_sys::mlirTypeIsAIndex(raw)
            || mlir_sys::mlirTypeIsAFloat(raw)
    };
    let dims: Vec<_> = (0..tensor.rank()).map(|d| tensor.dim_size(d)).collect();
    dense
        && dims.iter().all(|d| matches!(d, Ok(DimSize::Static(_))))
        && dims.iter().any(|d| matches!(d, Ok(DimSize::Static(0))))
}
