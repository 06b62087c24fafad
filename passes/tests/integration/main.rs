//! The project's one MLIR-linked Rust test binary: the Glow dialects' typed builders,
//! the Rust-pass framework, glow-lower-nodes driven as a library, and the mutation
//! fuzzing of the ONNX reader and importer, the int8 kernels' compile-time packing, int8 calibration, and the geometry of the
//! padding rules.

mod builders;
mod calibration;
mod framework;
mod int8_packing;
mod jit_split;
mod lower_nodes;
mod memory_plan;
mod mlir_input_fuzz;
mod onnx_reader_fuzz;
mod padding_geometry;
mod runtime_api;

use glow_dialects::register_glow_dialects;
use melior::{
    dialect::DialectRegistry,
    ir::{Location, Module},
    utility::{register_all_dialects, register_all_passes},
    Context,
};

/// A context with every upstream and Glow dialect, and every pass registered.
pub fn context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    register_glow_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_passes();
    glow_passes::register_glow_passes();
    context
}

/// Parses MLIR text, panicking with the text on failure (tests only).
pub fn parse<'c>(context: &'c Context, text: &str) -> Module<'c> {
    Module::parse(context, text).unwrap_or_else(|| panic!("test IR does not parse:\n{text}"))
}

/// An unknown location, for building ops.
pub fn here(context: &Context) -> Location<'_> {
    Location::unknown(context)
}
