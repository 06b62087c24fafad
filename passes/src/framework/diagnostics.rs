//! Emitting located diagnostics from Rust passes through MLIR's diagnostic engine (so
//! `--verify-diagnostics` and the user's handlers see them).

use melior::ir::Location;
use std::ffi::CString;

/// Emits `message` as an error at `location`.
pub fn emit_error(location: Location, message: &str) {
    // Interior NULs would truncate the message; replace them instead.
    let message = CString::new(message.replace('\0', "\\0")).expect("NULs were replaced");
    // SAFETY: the location is valid and the message is NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) }
}
