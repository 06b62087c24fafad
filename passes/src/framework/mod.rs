//! The Rust-pass framework: pass definitions registered as real MLIR passes, their
//! options, rewrite rules on MLIR's greedy driver, transform scripts applied by MLIR's
//! interpreter, and diagnostics.

pub mod attributes;
pub mod dead_weights;
mod diagnostics;
pub mod isolate;
pub mod locations;
mod options;
mod pipeline;
pub mod raw_ops;
mod registration;
mod rewrite;
pub mod splice;
pub mod structured;
mod transform;
pub mod values;

pub use diagnostics::emit_error;
pub use options::PassOptions;
pub use pipeline::{run_pipeline, run_pipeline_verifying, verify_each_pass, PipelineError};
pub use registration::{register_pass, OptionKind, PassDefinition, PassOption};
pub use rewrite::{apply_rules, Rule};
pub use transform::{apply_transform_script, TransformFailed};
