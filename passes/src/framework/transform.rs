//! Applying a transform-dialect script, held as text by a Rust pass, to a payload op
//! through MLIR's transform interpreter (`mlirTransformApplyNamedSequence`). The
//! script is parsed into its own module, so the payload never carries schedule ops.

use super::emit_error;
use melior::ir::{operation::OperationLike, BlockLike, Module, OperationRef};

/// The entry point every script defines.
const ENTRY: &str = "__transform_main";

/// The transforms failed; the diagnostics were already emitted at the payload's ops.
#[derive(Debug)]
pub struct TransformFailed;

/// Parses `script` (a module with `transform.with_named_sequence` defining
/// `@__transform_main`) and applies its entry sequence to `payload`. Failures of the
/// transforms are reported by the interpreter at the payload's ops; a script that does
/// not parse is a bug in the pass and is reported at the payload.
pub fn apply_transform_script(
    payload: OperationRef<'_, '_>,
    script: &str,
) -> Result<(), TransformFailed> {
    let context = payload.context();
    // SAFETY: the ContextRef lives in this frame for as long as the borrowed context.
    let context = unsafe { context.to_ref() };
    let Some(module) = Module::parse(context, script) else {
        emit_error(
            payload.location(),
            "internal error: the generated transform script does not parse",
        );
        return Err(TransformFailed);
    };
    let mut entry = None;
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        let name = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_string());
        if name.as_deref() == Some(ENTRY) {
            entry = Some(op.to_raw());
        }
        next = op.next_in_block();
    }
    let Some(entry) = entry else {
        emit_error(
            payload.location(),
            "internal error: the transform script has no @__transform_main",
        );
        return Err(TransformFailed);
    };
    // SAFETY: payload, entry and the module are valid ops of the same context; the
    // options object is created and destroyed here.
    let applied = unsafe {
        let options = mlir_sys::mlirTransformOptionsCreate();
        mlir_sys::mlirTransformOptionsEnableExpensiveChecks(options, false);
        let result = mlir_sys::mlirTransformApplyNamedSequence(
            payload.to_raw(),
            entry,
            module.as_operation().to_raw(),
            options,
        );
        mlir_sys::mlirTransformOptionsDestroy(options);
        result
    };
    if applied.value == 0 {
        Err(TransformFailed)
    } else {
        Ok(())
    }
}
