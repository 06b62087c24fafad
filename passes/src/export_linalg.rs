//! `glow-export-finalize` and the `glow-export-linalg` pipeline: a glow.graph module
//! becomes upstream-dialect-only linalg on tensors that IREE (`iree-compile`) and
//! torch-mlir (linalg-on-tensors backend contract) read as written.
//!
//! The pipeline runs Glow's graph optimizations, node lowering and channels-last
//! layout, glow-graph-to-linalg (scatter as one linalg.generic), this pass, then `glow-generalize-elementwise`
//! (linalg's elementwise named ops, which IREE's MLIR no longer has, as
//! linalg.generic). This pass is the export boundary: the runtime index checks
//! (`glow.instr.check`) are erased — consumers have no error status to report them
//! through, and the indices they guard are already wrapped and clamped into their
//! dimension, so the exported code stays memory-safe (out-of-range indices read the
//! nearest element) — and any op or type of a Glow dialect still left is refused
//! with a located error naming it, rather than written into a file no consumer reads.

use crate::framework::{emit_error, PassDefinition, PassOptions};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, ValueLike,
};

/// The pass definition registered as `glow-export-finalize`.
pub static EXPORT_FINALIZE: PassDefinition = PassDefinition {
    argument: "glow-export-finalize",
    description: "Export boundary: erase runtime index checks (indices stay clamped) and refuse any op or type of a Glow dialect left in the module",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: Vec::new,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The `glow-export-linalg` pipeline on `builtin.module`.
pub fn export_linalg_pipeline() -> String {
    "func.func(glow-quantization-folding,glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-fold-table-chains,glow-channels-last),\
inline,symbol-dce,func.func(glow-graph-to-linalg{scatter=generic}),glow-export-finalize,func.func(glow-generalize-elementwise),canonicalize,cse"
        .to_string()
}

fn is_glow(name: &str) -> bool {
    name.starts_with("glow.")
}

fn run(module: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let mut checks = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("glow.instr.check") {
            checks.push(op.to_raw());
        }
        WalkResult::Advance
    });
    for check in checks {
        // SAFETY: a check op of this module, collected above, has no results.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(check);
            mlir_sys::mlirOperationDestroy(check);
        }
    }
    let mut refused = false;
    module.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        let glow_type = (0..op.result_count())
            .filter_map(|i| op.result(i).ok())
            .map(|r| r.r#type().to_string())
            .find(|t| t.contains("!glow."));
        let message = if is_glow(name) {
            format!("'{name}' has no upstream form: glow-export-linalg cannot express it")
        } else if let Some(t) = glow_type {
            format!("'{name}' produces a Glow type ({t}) that no upstream consumer reads")
        } else {
            return WalkResult::Advance;
        };
        emit_error(op.location(), &message);
        refused = true;
        WalkResult::Interrupt
    });
    if refused {
        Err(())
    } else {
        Ok(())
    }
}
