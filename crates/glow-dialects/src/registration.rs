//! Registering the Glow dialects with an MLIR context or registry.

use crate::ffi;
use melior::dialect::{DialectHandle, DialectRegistry};

/// Handles of the four Glow dialects: `glow.graph`, `glow.quant`, `glow.instr` and the
/// `glow` umbrella (which loads the other three when a tool resolves `glow.*` lazily).
pub fn glow_dialect_handles() -> [DialectHandle; 4] {
    // SAFETY: the handles are static descriptors defined by the C++ library.
    unsafe {
        [
            DialectHandle::from_raw(ffi::mlirGetDialectHandle__glow_graph__()),
            DialectHandle::from_raw(ffi::mlirGetDialectHandle__glow_quant__()),
            DialectHandle::from_raw(ffi::mlirGetDialectHandle__glow_instr__()),
            DialectHandle::from_raw(ffi::mlirGetDialectHandle__glow__()),
        ]
    }
}

/// Inserts the Glow dialects (and, through them, `quant` and `memref`) into `registry`.
pub fn register_glow_dialects(registry: &DialectRegistry) {
    for handle in glow_dialect_handles() {
        handle.insert_dialect(registry);
    }
}
