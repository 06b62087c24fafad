//! The Glow dialects — `glow.graph`, `glow.quant`, `glow.instr` and the empty `glow`
//! umbrella — defined in ODS under `dialects/`, compiled to C++ by CMake and linked
//! into this crate. Rust gets typed op builders generated from the same `.td` files
//! ([`ods`]), registration into an MLIR context ([`registration`]), and the raw C API
//! of the C++ glue ([`ffi`]): the Rust-pass shim and MLIR's `mlir-opt` driver.
#![deny(missing_docs)]

pub mod bytecode;
pub mod elements;
pub mod ffi;
pub mod nesting;
pub mod ods;
pub mod output_path;
pub mod panics;
pub mod port_names;
pub mod process_memory;
pub mod quant_types;
pub mod registration;
pub mod resources;
pub mod string_ref;
pub mod text_output;

pub use registration::{glow_dialect_handles, register_glow_dialects};
