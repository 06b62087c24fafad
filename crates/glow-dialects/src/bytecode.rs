//! MLIR bytecode for modules that hold Glow ops.
//!
//! MLIR 22's bytecode writer encodes an op name as its dialect's namespace plus the
//! name after the *first* dot (`OperationName::stripDialect`): `glow.graph.relu`
//! would read back as `glow.graph.graph.relu`. [`write_to`] goes through the C++ helper
//! `glow::writePortableBytecode` (`dialects/lib/CAPI/PortableBytecode.cpp`), which
//! writes the module from a context that does not know the Glow dialects, so the
//! names split as `glow` + `graph.relu` and the `glow` umbrella dialect resolves
//! them on reading; glow-opt's `--emit-bytecode` uses the same helper.

use melior::ir::Module;
use std::ffi::c_void;

unsafe extern "C" fn collect(chunk: mlir_sys::MlirStringRef, user_data: *mut c_void) {
    // SAFETY: `user_data` is the Vec passed below; MLIR hands a valid chunk.
    unsafe {
        let bytes = &mut *(user_data as *mut Vec<u8>);
        bytes.extend_from_slice(crate::string_ref::bytes(chunk));
    }
}

struct Sink<'a> {
    sink: &'a mut dyn std::io::Write,
    error: Option<std::io::Error>,
}

unsafe extern "C" fn forward(chunk: mlir_sys::MlirStringRef, user_data: *mut c_void) {
    // SAFETY: `user_data` is the Sink passed below; MLIR hands a valid chunk.
    unsafe {
        let sink = &mut *(user_data as *mut Sink);
        if sink.error.is_none() {
            if let Err(error) = sink.sink.write_all(crate::string_ref::bytes(chunk)) {
                sink.error = Some(error);
            }
        }
    }
}

/// Streams the bytecode of `module` into `sink`, readable by any tool that registers
/// the Glow dialects (and, with unregistered dialects allowed, by any MLIR 22 tool);
/// the weights are read where they are, not copied into a buffer first.
pub fn write_to(module: &Module, sink: &mut dyn std::io::Write) -> Result<(), String> {
    let mut sink = Sink { sink, error: None };
    // SAFETY: a live module; `forward` only writes to `sink`, which outlives the call.
    let result = unsafe {
        crate::ffi::glowWritePortableBytecode(
            module.as_operation().to_raw(),
            Some(forward),
            &mut sink as *mut Sink as *mut c_void,
        )
    };
    if let Some(error) = sink.error {
        return Err(error.to_string());
    }
    if result.value == 0 {
        return Err("cannot write the module as bytecode".into());
    }
    Ok(())
}

/// Whether `bytes` (MLIR bytecode) reads back into a module of `context`; its weights
/// are read in place, not copied.
pub fn reads_back(context: &melior::Context, bytes: &[u8]) -> bool {
    let reference = mlir_sys::MlirStringRef {
        data: bytes.as_ptr().cast(),
        length: bytes.len(),
    };
    // SAFETY: a live context; the buffer outlives the call.
    unsafe { crate::ffi::glowBytecodeReadsBack(context.to_raw(), reference) }
}

/// Checks that `module` reads back bit for bit from custom-form text, generic-form
/// text and [`write_to`]'s bytecode (`glow::verifyRoundTrip` in
/// `dialects/lib/CAPI/RoundTrip.cpp`); the error names the form and the first line
/// that differs.
pub fn verify_round_trip(module: &Module) -> Result<(), String> {
    let mut message = Vec::new();
    // SAFETY: a live module; `collect` only appends to `message`, which outlives the call.
    let result = unsafe {
        crate::ffi::glowVerifyRoundTrip(
            module.as_operation().to_raw(),
            Some(collect),
            &mut message as *mut Vec<u8> as *mut c_void,
        )
    };
    if result.value == 0 {
        return Err(String::from_utf8_lossy(&message).into_owned());
    }
    Ok(())
}
