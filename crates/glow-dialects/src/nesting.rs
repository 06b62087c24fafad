//! Bounded nesting of MLIR text. MLIR's parser, verifier and printer recurse once per
//! nested region, attribute or type, with no limit of their own: the Glow tools refuse
//! text nested deeper than [`MAX_DEPTH`] with a located error before parsing it, and
//! run on a thread whose stack ([`STACK_BYTES`]) holds that many levels with room to
//! spare ([`on_large_stack`]).

use std::ffi::c_char;

/// The deepest nesting of brackets the tools accept (GLOW_MAX_NESTING_DEPTH).
pub const MAX_DEPTH: usize = 2000;

/// The stack of the tools' working thread (reserved, committed as used).
pub const STACK_BYTES: usize = 512 << 20;

/// `Err("NAME:LINE:COL: nesting deeper than ...")` when `text` nests `(`, `[`, `{`,
/// `<` deeper than [`MAX_DEPTH`] outside strings and comments.
pub fn check(text: &[u8], name: &str) -> Result<(), String> {
    let (mut line, mut column) = (0usize, 0usize);
    // SAFETY: `text` is readable for its length; the outputs are written on failure.
    let within = unsafe {
        crate::ffi::glowNestingWithin(
            text.as_ptr().cast::<c_char>(),
            text.len(),
            MAX_DEPTH,
            &mut line,
            &mut column,
        )
    };
    if within {
        Ok(())
    } else {
        Err(format!(
            "{name}:{line}:{column}: nesting deeper than {MAX_DEPTH} levels (brackets, braces, parentheses, angle brackets)"
        ))
    }
}

/// Runs `work` on a thread with a [`STACK_BYTES`] stack and returns its result (a
/// panic in `work` is resumed on the caller).
pub fn on_large_stack<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> R {
    match std::thread::Builder::new()
        .name("main".into())
        .stack_size(STACK_BYTES)
        .spawn(work)
        .expect("a thread can be started")
        .join()
    {
        Ok(result) => result,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
