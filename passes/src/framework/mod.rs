//! The Rust-pass framework: pass definitions registered as real MLIR passes, their
//! options, rewrite rules on MLIR's greedy driver, and diagnostics.

mod diagnostics;
mod options;
mod registration;
mod rewrite;

pub use diagnostics::emit_error;
pub use options::PassOptions;
pub use registration::{OptionKind, PassDefinition, PassOption, register_pass};
pub use rewrite::{Rule, apply_rules};
