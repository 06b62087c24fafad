//! Running a textual pass pipeline from Rust (the library form of `glow-opt
//! --pass-pipeline=...`), with the diagnostics it emits collected into the error.
//!
//! What is verified: in debug builds (every test) and with `GLOW_VERIFY_EACH=1`, the
//! whole IR after every pass, as `glow-opt` and `mlir-opt` do. Otherwise each Glow
//! pass verifies the op it ran on when it is done ([`glow_passes_verify_themselves`])
//! and the module is verified once at the end, while upstream passes run unverified:
//! verifying the whole module after each of the ~100 passes was 10-27 % of a release
//! compile (docs/development.md has the numbers). A Glow pass that breaks the
//! IR still stops with a located error before the next pass runs.

use melior::{
    diagnostic::DiagnosticSeverity,
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use std::sync::{
    atomic::{AtomicBool, Ordering},
    Arc, Mutex,
};

/// Set while pipelines run without the pass manager's verifier: Glow's passes then
/// verify the op they ran on themselves (`framework::registration`).
static GLOW_PASSES_VERIFY: AtomicBool = AtomicBool::new(false);

/// Whether the pass manager verifies the IR after every pass: debug builds, or
/// `GLOW_VERIFY_EACH` set to anything but `0`.
pub fn verify_each_pass() -> bool {
    cfg!(debug_assertions) || std::env::var_os("GLOW_VERIFY_EACH").is_some_and(|v| v != "0")
}

/// Whether a Glow pass must verify the op it ran on before returning (pipelines run
/// by [`run_pipeline`] without the per-pass verifier).
pub fn glow_passes_verify_themselves() -> bool {
    GLOW_PASSES_VERIFY.load(Ordering::Relaxed)
}

/// Why a pipeline did not run to completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PipelineError {
    /// The pipeline text does not parse (unknown pass, bad option): MLIR's message.
    Parse(String),
    /// A pass failed or the IR did not verify: the error diagnostics, one per line.
    Run(String),
}

impl std::fmt::Display for PipelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Parse(message) => write!(f, "invalid pass pipeline: {message}"),
            Self::Run(message) => write!(f, "pass pipeline failed: {message}"),
        }
    }
}

impl std::error::Error for PipelineError {}

/// Parses `pipeline` (e.g. `builtin.module(func.func(glow-lower-nodes),canonicalize)`)
/// and runs it on `module`, verifying after each pass. Glow's passes must be
/// registered first ([`crate::register_glow_passes`]).
pub fn run_pipeline(module: &mut Module, pipeline: &str) -> Result<(), PipelineError> {
    run_pipeline_verifying(module, pipeline, verify_each_pass())
}

/// [`run_pipeline`], verifying the whole IR after every pass (`verify_each`) or only
/// after Glow's passes (each verifies the op it ran on) and once at the end.
pub fn run_pipeline_verifying(
    module: &mut Module,
    pipeline: &str,
    verify_each: bool,
) -> Result<(), PipelineError> {
    let context = module.as_operation().context();
    // SAFETY: the module's context outlives this call.
    let context = unsafe { context.to_ref() };
    let manager = PassManager::new(context);
    // The current run's mode (a later verifying run must not keep Glow's passes
    // verifying themselves as well).
    GLOW_PASSES_VERIFY.store(!verify_each, Ordering::Relaxed);
    if !verify_each {
        manager.enable_verifier(false);
    }
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
        .map_err(|error| PipelineError::Parse(error.to_string()))?;

    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&errors);
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        if matches!(diagnostic.severity(), DiagnosticSeverity::Error) {
            let text = format!("{}: {}", diagnostic.location(), diagnostic);
            sink.lock().unwrap_or_else(|e| e.into_inner()).push(text);
        }
        true
    });
    let mut outcome = manager.run(module);
    if outcome.is_ok() && !verify_each && !module.as_operation().verify() {
        outcome = Err(melior::Error::RunPass);
    }
    context.detach_diagnostic_handler(handler);
    outcome.map_err(|_| {
        let errors = errors.lock().unwrap_or_else(|e| e.into_inner());
        PipelineError::Run(if errors.is_empty() {
            "a pass failed without a diagnostic".into()
        } else {
            errors.join("\n")
        })
    })
}
