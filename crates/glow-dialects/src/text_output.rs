//! Writing a module as MLIR text with its weights streamed.
//!
//! MLIR's printer writes each `dense_resource` blob as one hex string built in memory
//! first (`"0x..."`, twice the blob's size): printing a model whose embedding table
//! holds 47 MB needed 94 MB more for that one string. Here the printer leaves the
//! blobs out (`elideLargeResourceString(0)` drops them from the `{-# ... #-}` block)
//! and the block is written from the blobs themselves, hex-encoded a chunk at a time,
//! in the form and order MLIR's printer uses (each blob's alignment as 4
//! little-endian bytes, then its data, uppercase hex): the text is byte for byte what
//! MLIR prints, with memory flat.

use melior::ir::Module;
use std::io::Write;

struct Stream<'a> {
    sink: &'a mut dyn Write,
    context: mlir_sys::MlirContext,
    /// The blobs the module refers to, in MLIR's order.
    keys: Vec<String>,
    /// The current line (text arrives in arbitrary pieces).
    line: Vec<u8>,
    /// Inside the `{-# ... #-}` block (held back until its end).
    in_resources: bool,
    error: Option<std::io::Error>,
}

impl Stream<'_> {
    fn push(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|b| *b == b'\n') {
            self.line.extend_from_slice(&rest[..=end]);
            rest = &rest[end + 1..];
            let line = std::mem::take(&mut self.line);
            self.write_line(&line)?;
        }
        self.line.extend_from_slice(rest);
        Ok(())
    }

    fn write_line(&mut self, line: &[u8]) -> std::io::Result<()> {
        if !self.in_resources {
            if line == b"{-#\n" {
                self.in_resources = true;
                return Ok(());
            }
            return self.sink.write_all(line);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        if line != b"#-}\n" && line != b"#-}" {
            // Glow's modules hold no other resources; do not write a partial block.
            return Err(std::io::Error::other(
                "the module has resources other than weight blobs; they cannot be printed",
            ));
        }
        self.in_resources = false;
        self.write_resources()?;
        self.sink.write_all(line)
    }

    /// The `{-#` block's content: every referenced blob, hex-encoded.
    fn write_resources(&mut self) -> std::io::Result<()> {
        self.sink
            .write_all(b"{-#\n  dialect_resources: {\n    builtin: {\n")?;
        let keys = std::mem::take(&mut self.keys);
        for (index, key) in keys.iter().enumerate() {
            let mut data = mlir_sys::MlirStringRef {
                data: std::ptr::null(),
                length: 0,
            };
            let mut alignment = 0u64;
            // SAFETY: a live context; the blob's bytes stay valid while the module
            // lives, which outlives the printing.
            let found = unsafe {
                crate::ffi::glowResourceBlobByKey(
                    self.context,
                    mlir_sys::MlirStringRef {
                        data: key.as_ptr().cast(),
                        length: key.len(),
                    },
                    &mut data,
                    &mut alignment,
                )
            };
            if !found {
                return Err(std::io::Error::other(format!(
                    "the weights of resource '{key}' were freed; they cannot be printed"
                )));
            }
            // SAFETY: as above.
            let bytes = unsafe { crate::string_ref::bytes(data) };
            write!(self.sink, "      {key}: \"0x")?;
            write_hex(self.sink, &(alignment as u32).to_le_bytes())?;
            write_hex(self.sink, bytes)?;
            let separator: &[u8] = if index + 1 < keys.len() {
                b"\",\n"
            } else {
                b"\"\n"
            };
            self.sink.write_all(separator)?;
        }
        self.sink.write_all(b"    }\n  }\n")
    }
}

/// Uppercase hex of `bytes`, written a chunk at a time.
fn write_hex(sink: &mut dyn Write, bytes: &[u8]) -> std::io::Result<()> {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut buffer = Vec::with_capacity(1 << 16);
    for chunk in bytes.chunks(1 << 15) {
        buffer.clear();
        for byte in chunk {
            buffer.push(DIGITS[usize::from(byte >> 4)]);
            buffer.push(DIGITS[usize::from(byte & 15)]);
        }
        sink.write_all(&buffer)?;
    }
    Ok(())
}

/// Writes `module` as text to `sink` (locations when `debug_info`), its weights
/// streamed from their blobs, with a final newline.
pub fn write_text(module: &Module, debug_info: bool, sink: &mut dyn Write) -> std::io::Result<()> {
    let operation = module.as_operation().to_raw();
    let mut keys: Vec<String> = Vec::new();
    unsafe extern "C" fn collect(key: mlir_sys::MlirStringRef, user_data: *mut std::ffi::c_void) {
        // SAFETY: `user_data` is the Vec below; MLIR hands a valid string.
        unsafe {
            let keys = &mut *(user_data as *mut Vec<String>);
            keys.push(crate::string_ref::text(key));
        }
    }
    // SAFETY: a live module; `collect` only appends to `keys`, which outlives the call.
    unsafe {
        crate::ffi::glowReferencedResources(
            operation,
            Some(collect),
            &mut keys as *mut Vec<String> as *mut std::ffi::c_void,
        )
    };
    let flags =
        melior::ir::operation::OperationPrintingFlags::new().enable_debug_info(debug_info, false);
    // SAFETY: valid flags; a limit of 0 leaves every blob out of the printed text.
    unsafe { mlir_sys::mlirOpPrintingFlagsElideLargeResourceString(flags.to_raw(), 0) };
    unsafe extern "C" fn chunk(text: mlir_sys::MlirStringRef, user_data: *mut std::ffi::c_void) {
        // SAFETY: `user_data` is the Stream below; MLIR hands a valid chunk.
        unsafe {
            let stream = &mut *(user_data as *mut Stream);
            if stream.error.is_none() {
                if let Err(error) = stream.push(crate::string_ref::bytes(text)) {
                    stream.error = Some(error);
                }
            }
        }
    }
    let mut stream = Stream {
        sink,
        // SAFETY: the context of a live module.
        context: unsafe { mlir_sys::mlirOperationGetContext(operation) },
        keys,
        line: Vec::new(),
        in_resources: false,
        error: None,
    };
    // SAFETY: a live module and printing flags; `chunk` only writes to `stream`,
    // which outlives the call.
    unsafe {
        mlir_sys::mlirOperationPrintWithFlags(
            operation,
            flags.to_raw(),
            Some(chunk),
            &mut stream as *mut Stream as *mut std::ffi::c_void,
        )
    };
    if let Some(error) = stream.error {
        return Err(error);
    }
    let rest = std::mem::take(&mut stream.line);
    stream.write_line(&rest)?;
    if stream.in_resources {
        return Err(std::io::Error::other(
            "the printed resource block has no end",
        ));
    }
    stream.sink.write_all(b"\n")
}
