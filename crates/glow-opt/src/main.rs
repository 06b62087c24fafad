//! `glow-opt`: MLIR's own `mlir-opt` driver with every upstream dialect and pass, the
//! Glow dialects and the Glow passes (written in Rust) registered. Every `mlir-opt`
//! flag works as users know it: `--pass-pipeline`, `--split-input-file`,
//! `--verify-diagnostics`, `--mlir-print-ir-after-all`, `--mlir-timing`,
//! `--list-passes`, `-o`.

use glow_dialects::{ffi::glowMlirOptMain, register_glow_dialects};
use melior::{
    dialect::DialectRegistry,
    utility::{register_all_dialects, register_all_passes},
};
use std::ffi::{c_char, CString};

fn main() {
    glow_dialects::panics::install_hook("glow-opt");
    glow_dialects::process_memory::prepare_tool_process();
    // MLIR recurses once per nesting level of its input: parse and run on a stack that
    // holds the deepest nesting the driver accepts (it refuses deeper text).
    let code = glow_dialects::nesting::on_large_stack(run);
    std::process::exit(code);
}

fn run() -> i32 {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    register_glow_dialects(&registry);
    register_all_passes();
    glow_passes::register_glow_passes();

    // Arguments from the OS cannot contain NUL bytes, so CString::new cannot fail.
    let arguments: Vec<CString> = std::env::args_os()
        .map(|argument| {
            CString::new(argument.into_encoded_bytes()).expect("OS arguments have no NUL")
        })
        .collect();
    let mut argv: Vec<*mut c_char> = arguments
        .iter()
        .map(|argument| argument.as_ptr().cast_mut())
        .chain(std::iter::once(std::ptr::null_mut()))
        .collect();
    // SAFETY: argv holds `arguments.len()` valid NUL-terminated strings plus a null
    // terminator, alive for the call; the registry outlives the call.
    unsafe { glowMlirOptMain(arguments.len() as i32, argv.as_mut_ptr(), registry.to_raw()) }
}
