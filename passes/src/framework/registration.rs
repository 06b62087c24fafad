//! Registers a Rust pass definition as a real `mlir::Pass` (the C++ shim in
//! `dialects/lib/CAPI/RustPass.cpp`), so MLIR's pipeline parser, `--list-passes`,
//! `--help`, nesting, options and per-thread cloning all work as for C++ passes.

use super::{diagnostics::emit_error, options::PassOptions};
use glow_dialects::ffi::{
    glowRegisterRustPass, GlowPassOptionKind, GlowPassOptionSpec, GlowPassOptionValue,
    GlowRustPassSpec,
};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, OperationRef},
};
use mlir_sys::{MlirLogicalResult, MlirOperation, MlirStringCallback, MlirStringRef};
use std::{
    ffi::{c_void, CString},
    ptr,
};

/// The type MLIR parses an option value as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// Free text: `name=value`.
    String,
    /// A comma-separated list: `name=a,b` (or `name={a,b}`).
    StringList,
    /// `name=true|false` (`name` alone means true).
    Bool,
    /// A 64-bit integer.
    Int,
}

/// One option of a pass.
#[derive(Debug)]
pub struct PassOption {
    /// The name used in pipelines.
    pub name: &'static str,
    /// One line for `--help`.
    pub description: &'static str,
    /// How MLIR parses it.
    pub kind: OptionKind,
    /// Default as text (`None`: empty / false / 0).
    pub default: Option<&'static str>,
}

/// A Glow pass: its registry entry and its Rust body.
pub struct PassDefinition {
    /// The pipeline name, e.g. `glow-lower-nodes`.
    pub argument: &'static str,
    /// One line for `--list-passes`.
    pub description: &'static str,
    /// The op the pass runs on (`func.func`), or `None` for any op.
    pub anchor: Option<&'static str>,
    /// Declared options.
    pub options: &'static [PassOption],
    /// Dialects whose ops the pass creates (loaded before it runs).
    pub dependent_dialects: fn() -> Vec<DialectHandle>,
    /// Rejects option values that parse but make no sense; the message names them.
    pub validate: fn(&PassOptions) -> Result<(), String>,
    /// The pass body. Errors are reported as diagnostics on the IR, then `Err(())`.
    pub run: fn(OperationRef<'_, '_>, &PassOptions) -> Result<(), ()>,
}

/// Registers `definition` with MLIR's global pass registry.
pub fn register_pass(definition: &'static PassDefinition) {
    // The shim copies every string, so these only need to live for the call.
    let c = |text: &str| CString::new(text).expect("pass metadata has no NUL bytes");
    let argument = c(definition.argument);
    let description = c(definition.description);
    let anchor = definition.anchor.map(c);
    let option_texts: Vec<(CString, CString, Option<CString>)> = definition
        .options
        .iter()
        .map(|option| (c(option.name), c(option.description), option.default.map(c)))
        .collect();
    let options: Vec<GlowPassOptionSpec> = definition
        .options
        .iter()
        .zip(&option_texts)
        .map(|(option, (name, text, default))| GlowPassOptionSpec {
            name: name.as_ptr(),
            description: text.as_ptr(),
            kind: match option.kind {
                OptionKind::String => GlowPassOptionKind::String,
                OptionKind::StringList => GlowPassOptionKind::StringList,
                OptionKind::Bool => GlowPassOptionKind::Bool,
                OptionKind::Int => GlowPassOptionKind::Int,
            },
            default_value: default.as_ref().map_or(ptr::null(), |d| d.as_ptr()),
        })
        .collect();
    let dialects: Vec<_> = (definition.dependent_dialects)()
        .into_iter()
        .map(|handle| handle.to_raw())
        .collect();
    let spec = GlowRustPassSpec {
        argument: argument.as_ptr(),
        description: description.as_ptr(),
        anchor_op_name: anchor.as_ref().map_or(ptr::null(), |a| a.as_ptr()),
        num_options: options.len() as isize,
        options: options.as_ptr(),
        num_dependent_dialects: dialects.len() as isize,
        dependent_dialects: dialects.as_ptr(),
        user_data: definition as *const PassDefinition as *mut c_void,
        validate: validate_trampoline,
        run: run_trampoline,
    };
    // SAFETY: every pointer in `spec` is valid for the call; `user_data` is 'static.
    unsafe { glowRegisterRustPass(&spec) }
}

fn logical_result(success: bool) -> MlirLogicalResult {
    MlirLogicalResult {
        value: i8::from(success),
    }
}

unsafe extern "C" fn validate_trampoline(
    user_data: *mut c_void,
    values: *const GlowPassOptionValue,
    num_values: isize,
    error: MlirStringCallback,
    error_user_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: user_data is the &'static PassDefinition given at registration.
    let definition = unsafe { &*(user_data as *const PassDefinition) };
    // SAFETY: the shim passes `num_values` valid entries.
    let options = unsafe { PassOptions::from_raw(values, num_values) };
    let outcome =
        glow_dialects::panics::catch(|| (definition.validate)(&options)).unwrap_or_else(|reason| {
            Err(format!(
                "internal error while checking the options: {reason}"
            ))
        });
    match outcome {
        Ok(()) => logical_result(true),
        Err(message) => {
            if let Some(callback) = error {
                let text = MlirStringRef {
                    data: message.as_ptr().cast(),
                    length: message.len(),
                };
                // SAFETY: the callback and its user data come from the shim.
                unsafe { callback(text, error_user_data) };
            }
            logical_result(false)
        }
    }
}

unsafe extern "C" fn run_trampoline(
    user_data: *mut c_void,
    op: MlirOperation,
    values: *const GlowPassOptionValue,
    num_values: isize,
) -> MlirLogicalResult {
    // SAFETY: user_data is the &'static PassDefinition given at registration.
    let definition = unsafe { &*(user_data as *const PassDefinition) };
    // SAFETY: the shim passes `num_values` valid entries.
    let options = unsafe { PassOptions::from_raw(values, num_values) };
    // SAFETY: the pass manager hands a valid operation, alive during the run.
    let operation = unsafe { OperationRef::from_raw(op) };
    // A panic must not unwind into C++: report it on the IR and fail the pass.
    match glow_dialects::panics::catch(|| (definition.run)(operation, &options)) {
        // Without the pass manager's verifier (release pipelines), the pass verifies
        // what it ran on: a broken rewrite stops here, located, not in a later pass.
        Ok(Ok(())) if super::pipeline::glow_passes_verify_themselves() => {
            let valid = operation.verify();
            if !valid {
                emit_error(
                    operation.location(),
                    &format!(
                        "internal error: pass '{}' left IR that does not verify",
                        definition.argument
                    ),
                );
            }
            logical_result(valid)
        }
        Ok(result) => logical_result(result.is_ok()),
        Err(reason) => {
            emit_error(
                operation.location(),
                &format!("internal error in pass '{}': {reason}", definition.argument),
            );
            logical_result(false)
        }
    }
}
