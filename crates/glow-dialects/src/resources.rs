//! Giving back the memory of weight blobs nothing refers to any more: MLIR keeps every
//! `dense_resource` blob until its context dies, referenced or not
//! (`dialects/lib/CAPI/Resources.cpp` empties the unreferenced ones).

use melior::ir::Module;

/// Frees the `dense_resource` blobs of `module`'s context that no attribute inside
/// `module` refers to, and hands the freed pages back to the system; returns the bytes
/// freed. `module` must hold every live reference to the context's blobs (after a
/// module is dropped, pass an empty module to free everything).
pub fn release_unreferenced(module: &Module) -> i64 {
    // SAFETY: the module is live; per the contract, nothing outside it refers to the
    // blobs released.
    let freed =
        unsafe { crate::ffi::glowReleaseUnreferencedResources(module.as_operation().to_raw()) };
    if freed > 0 {
        // Freed blobs below glibc's mmap threshold stay in its heap otherwise.
        // SAFETY: malloc_trim only returns free memory to the system.
        unsafe { libc::malloc_trim(0) };
    }
    freed
}
