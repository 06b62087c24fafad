//! Giving back the memory of weight blobs nothing refers to any more: MLIR keeps every
//! `dense_resource` blob until its context dies, referenced or not
//! (`dialects/lib/CAPI/Resources.cpp` empties the unreferenced ones).

use melior::ir::{operation::OperationLike, Attribute, AttributeLike, Module, OperationRef};

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

/// The outermost operation around `op` (the module it is nested in).
pub fn outermost<'c, 'a>(op: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    let mut root = op;
    while let Some(parent) = root.parent_operation() {
        root = parent;
    }
    root
}

/// Frees the blob of `attribute` (a `dense_resource`; anything else is left alone) if
/// no op inside `root` ([`outermost`], found before erasing the attribute's last
/// holder) refers to it any more; returns the bytes freed. For rewrites that erased
/// the last holder of a weight, so that a pass replacing every filter never holds two
/// copies of them. Frees nothing while the context runs passes in parallel (the walk
/// would race with them): the tools that want the memory back compile on one MLIR
/// thread.
pub fn release_if_unreferenced(root: OperationRef, attribute: Attribute) -> i64 {
    // SAFETY: `root` and `attribute` are live; per the contract the root holds every
    // reference (the module being compiled).
    unsafe { crate::ffi::glowReleaseResourceIfUnreferenced(root.to_raw(), attribute.to_raw()) }
}
