//! Glow's passes, written in Rust on MLIR's own machinery: each rule is a Rust rewrite
//! pattern (`mlirOpRewritePatternCreate`) driven by MLIR's greedy driver, and each pass
//! is a real `mlir::Pass` in MLIR's registry (see [`framework`]), so textual pipelines
//! mix Glow and upstream passes, nested and with options:
//! `builtin.module(func.func(glow-lower-nodes{keep=batch_norm}),canonicalize)`.
#![deny(missing_docs)]

pub mod framework;
pub mod graph_optimize;
pub mod lower_nodes;
pub mod to_linalg;

pub use framework::{run_pipeline, PipelineError};
use std::sync::Once;

/// Every Glow pass, in the order `--list-passes` has no say over (it sorts by name).
pub const GLOW_PASSES: &[&framework::PassDefinition] = &[
    &graph_optimize::GRAPH_OPTIMIZE,
    &lower_nodes::LOWER_NODES,
    &to_linalg::GRAPH_TO_LINALG,
];

/// Registers every Glow pass with MLIR's global pass registry (idempotent).
pub fn register_glow_passes() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        for definition in GLOW_PASSES {
            framework::register_pass(definition);
        }
    });
}
