//! MLIR's `MlirStringRef` read as bytes or text. An empty string may come with a null
//! data pointer (an unnamed location's identifier), which `slice::from_raw_parts`
//! must not be given.

use mlir_sys::MlirStringRef;

/// The bytes of `s`, which must stay alive while the slice is used.
///
/// # Safety
/// `s` must be a (pointer, length) pair MLIR handed out: `length` readable bytes at
/// `data` unless `length` is 0.
pub unsafe fn bytes<'s>(s: MlirStringRef) -> &'s [u8] {
    if s.length == 0 || s.data.is_null() {
        return &[];
    }
    // SAFETY: the caller guarantees `length` readable bytes at `data`.
    unsafe { std::slice::from_raw_parts(s.data.cast::<u8>(), s.length) }
}

/// The text of `s` (invalid UTF-8 replaced).
///
/// # Safety
/// As [`bytes`].
pub unsafe fn text(s: MlirStringRef) -> String {
    // SAFETY: forwarded from the caller.
    String::from_utf8_lossy(unsafe { bytes(s) }).into_owned()
}
