//! Panics as one-line errors. Code that must not unwind into MLIR's C++ (pass and
//! pattern callbacks) or that turns a failure into a diagnostic (the importer's node
//! conversions) runs under [`catch`], which returns the panic's message; the tools
//! install [`install_hook`], which keeps caught panics silent (no "thread panicked
//! at ..." text reaches the user: the catch site reports the message in its own
//! one-line error) and prints an uncaught one as a single line. A caught panic is
//! still a bug: [`caught`] counts them, and the fuzzers fail on any.

use std::{
    cell::Cell,
    panic::{catch_unwind, AssertUnwindSafe},
    sync::atomic::{AtomicUsize, Ordering},
};

thread_local! {
    /// How many [`catch`] calls enclose the current point of this thread.
    static CATCHING: Cell<usize> = const { Cell::new(0) };
    /// Panics caught on this thread.
    static CAUGHT_HERE: Cell<usize> = const { Cell::new(0) };
}

static CAUGHT: AtomicUsize = AtomicUsize::new(0);

/// The message of a panic payload.
pub fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs `f`, turning a panic into `Err(its message)`.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    CATCHING.with(|depth| depth.set(depth.get() + 1));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|depth| depth.set(depth.get() - 1));
    outcome.map_err(|payload| {
        CAUGHT.fetch_add(1, Ordering::Relaxed);
        CAUGHT_HERE.with(|n| n.set(n.get() + 1));
        message(payload.as_ref())
    })
}

/// Panics caught by [`catch`] so far in this process.
pub fn caught() -> usize {
    CAUGHT.load(Ordering::Relaxed)
}

/// Panics caught by [`catch`] so far on this thread (tests running in parallel each
/// see their own).
pub fn caught_on_this_thread() -> usize {
    CAUGHT_HERE.with(Cell::get)
}

/// The process-wide panic hook of the tool `tool`: silent inside [`catch`], one line
/// (`tool: internal error: ...`) outside it.
pub fn install_hook(tool: &'static str) {
    std::panic::set_hook(Box::new(move |info| {
        if CATCHING.with(Cell::get) > 0 {
            return;
        }
        let location = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "{tool}: internal error: {}{location}",
            message(info.payload())
        );
    }));
}
