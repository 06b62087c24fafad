//! The JIT-compiled code's heap: the CPU pipeline lowers allocations to calls of
//! `_mlir_memref_to_llvm_alloc` / `_aligned_alloc` / `_free` (MLIR's generic allocation
//! functions), which glow-run provides here. An allocation the system refuses ends the
//! program with a one-line error and exit code 1 instead of handing the compiled code a
//! null pointer to write through. Nothing has been written yet when that happens:
//! outputs are written only after a run completes.

use std::ffi::c_void;

fn out_of_memory(bytes: u64) -> ! {
    eprintln!(
        "glow-run: error: out of memory: the model needed {bytes} more bytes than the system would give"
    );
    std::process::exit(1)
}

extern "C" fn allocate(bytes: u64) -> *mut c_void {
    // SAFETY: plain malloc; a null result is handled.
    let pointer = unsafe { libc::malloc(bytes as usize) };
    if pointer.is_null() && bytes != 0 {
        out_of_memory(bytes);
    }
    pointer
}

extern "C" fn allocate_aligned(alignment: u64, bytes: u64) -> *mut c_void {
    let alignment = alignment.max(std::mem::size_of::<usize>() as u64);
    let mut pointer: *mut c_void = std::ptr::null_mut();
    // SAFETY: posix_memalign with a power-of-two alignment (MLIR's alignments are), a
    // multiple of the pointer size; failure is handled.
    let status = unsafe { libc::posix_memalign(&mut pointer, alignment as usize, bytes as usize) };
    if status != 0 {
        out_of_memory(bytes);
    }
    pointer
}

extern "C" fn release(pointer: *mut c_void) {
    // SAFETY: the pointer came from `allocate` / `allocate_aligned` (malloc'ed).
    unsafe { libc::free(pointer) }
}

/// Gives `engine` the allocation functions (before any code is looked up).
pub fn register(engine: &melior::ExecutionEngine) {
    // SAFETY: the functions have the C signatures MLIR's lowering calls them with and
    // live for the whole process.
    unsafe {
        engine.register_symbol(
            "_mlir_memref_to_llvm_alloc",
            allocate as *const () as *mut (),
        );
        engine.register_symbol(
            "_mlir_memref_to_llvm_aligned_alloc",
            allocate_aligned as *const () as *mut (),
        );
        engine.register_symbol("_mlir_memref_to_llvm_free", release as *const () as *mut ());
    }
}
