//! MLIR text through the parser, the verifier (Glow's dialects' verifiers and type
//! inference included) and the printer, as glow-opt and glow-run read their input.
//! The bytes go to MLIR as a length-delimited string (they may hold NULs) followed by
//! a NUL, as a file read through llvm::MemoryBuffer is: MLIR's lexer stops at the
//! terminator and reads past an unterminated buffer's end.
#![no_main]

use libfuzzer_sys::fuzz_target;
use melior::ir::{operation::OperationLike, Module};

glow_fuzz::libfuzzer_main!();

fuzz_target!(|data: &[u8]| {
    // As the tools: text nested deeper than they accept is refused before parsing.
    if glow_dialects::nesting::check(data, "input").is_err() {
        return;
    }
    let context = glow_fuzz::context();
    let mut text = data.to_vec();
    text.push(0);
    let source = mlir_sys::MlirStringRef {
        data: text.as_ptr().cast(),
        length: data.len(),
    };
    // SAFETY: a live context and `data.len()` readable bytes, NUL-terminated.
    let parsed = unsafe { mlir_sys::mlirModuleCreateParse(context.to_raw(), source) };
    if parsed.ptr.is_null() {
        return;
    }
    // SAFETY: a freshly parsed module, owned from here on.
    let module = unsafe { Module::from_raw(parsed) };
    if module.as_operation().verify() {
        let _ = module.as_operation().to_string();
    }
});
