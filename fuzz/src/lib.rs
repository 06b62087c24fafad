//! Shared set-up of the fuzz targets: an MLIR context with every dialect Glow reads
//! and diagnostics kept off stderr (a rejected input is the normal case).

use melior::{dialect::DialectRegistry, Context};

/// A fresh context per input: MLIR interns every type and attribute for the
/// context's lifetime, so reusing one would grow without bound over a fuzz run.
pub fn context() -> Context {
    let registry = DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    glow_dialects::register_glow_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context.attach_diagnostic_handler(|_| true);
    context
}

/// Defines the target's `main` as libFuzzer's driver. MLIR's static libraries carry a
/// `main` of their own (libMLIRMlirOptMain.a), which the linker may pick over
/// libFuzzer's: a `main` in the target's own object wins over both.
#[macro_export]
macro_rules! libfuzzer_main {
    () => {
        extern "C" {
            fn LLVMFuzzerRunDriver(
                argc: *mut std::ffi::c_int,
                argv: *mut *mut *mut std::ffi::c_char,
                callback: extern "C" fn(*const u8, usize) -> std::ffi::c_int,
            ) -> std::ffi::c_int;
            fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> std::ffi::c_int;
        }

        extern "C" fn test_one_input(data: *const u8, size: usize) -> std::ffi::c_int {
            // SAFETY: libFuzzer hands a valid buffer of `size` bytes.
            unsafe { LLVMFuzzerTestOneInput(data, size) }
        }

        #[no_mangle]
        pub extern "C" fn main(
            mut argc: std::ffi::c_int,
            mut argv: *mut *mut std::ffi::c_char,
        ) -> std::ffi::c_int {
            // SAFETY: the process's own argc / argv.
            unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, test_one_input) }
        }
    };
}
