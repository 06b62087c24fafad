//! Running a textual pass pipeline from Rust (the library form of `glow-opt
//! --pass-pipeline=...`), with the diagnostics it emits collected into the error.

use melior::{
    diagnostic::DiagnosticSeverity,
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use std::sync::{Arc, Mutex};

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
    let context = module.as_operation().context();
    // SAFETY: the module's context outlives this call.
    let context = unsafe { context.to_ref() };
    let manager = PassManager::new(context);
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
    let outcome = manager.run(module);
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
