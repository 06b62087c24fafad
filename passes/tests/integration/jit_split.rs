//! The JIT's split code generation (glow_runtime::codegen::split_objects) and its ORC
//! linking (glow_runtime::jit): kernels compiled in separate parts share one mutable
//! global and copies of a constant table and a helper; a symbol nothing defines and a
//! thread-local global (which ORC cannot link without its runtime) are clean errors.

use glow_runtime::{
    codegen::{split_objects, OptimizationLevel},
    jit::Jit,
    runner::context,
};
use melior::ir::Module;

/// Three noinline kernels read a constant table and add the value to a counter through
/// a helper; `entry` calls them in turn, `take` reads the counter.
const KERNELS: &str = r#"
llvm.mlir.global internal @counter(0 : i32) : i32
llvm.mlir.global internal constant @table(dense<[10, 20, 30]> : tensor<3xi32>) : !llvm.array<3 x i32>
llvm.func @bump(%x: i32) -> i32 {
  %p = llvm.mlir.addressof @counter : !llvm.ptr
  %c = llvm.load %p : !llvm.ptr -> i32
  %n = llvm.add %c, %x : i32
  llvm.store %n, %p : i32, !llvm.ptr
  llvm.return %n : i32
}
llvm.func @kernel(%i: i32) -> i32 attributes {passthrough = ["noinline"]} {
  %t = llvm.mlir.addressof @table : !llvm.ptr
  %e = llvm.getelementptr %t[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<3 x i32>
  %v = llvm.load %e : !llvm.ptr -> i32
  %r = llvm.call @bump(%v) : (i32) -> i32
  llvm.return %r : i32
}
llvm.func @kernel_twice(%i: i32) -> i32 attributes {passthrough = ["noinline"]} {
  %a = llvm.call @kernel(%i) : (i32) -> i32
  %b = llvm.call @kernel(%i) : (i32) -> i32
  llvm.return %b : i32
}
llvm.func @last(%i: i32) -> i32 attributes {passthrough = ["noinline"]} {
  %r = llvm.call @kernel(%i) : (i32) -> i32
  llvm.return %r : i32
}
llvm.func @entry() -> i32 {
  %0 = llvm.mlir.constant(0 : i32) : i32
  %1 = llvm.mlir.constant(1 : i32) : i32
  %2 = llvm.mlir.constant(2 : i32) : i32
  %a = llvm.call @kernel(%0) : (i32) -> i32
  %b = llvm.call @kernel_twice(%1) : (i32) -> i32
  %c = llvm.call @last(%2) : (i32) -> i32
  llvm.return %c : i32
}
llvm.func @take() -> i32 {
  %p = llvm.mlir.addressof @counter : !llvm.ptr
  %c = llvm.load %p : !llvm.ptr -> i32
  llvm.return %c : i32
}
"#;

/// `text` compiled on `threads` threads and linked, with the number of parts.
fn link(text: &str, threads: usize) -> Result<(Jit, usize), String> {
    let context = context();
    let module = Module::parse(&context, text).expect("the test module parses");
    let objects = split_objects(
        &module,
        &["entry", "take"],
        threads,
        OptimizationLevel::Default,
    )
    .map_err(|e| e.to_string())?;
    let jit = Jit::new(&objects, &[]).map_err(|e| e.to_string())?;
    Ok((jit, objects.len()))
}

#[test]
fn split_parts_share_globals_and_copy_helpers() {
    for threads in [1, 2, 3, 8] {
        let (jit, parts) = link(KERNELS, threads).expect("the kernels compile and link");
        // Five functions are placed (three kernels, two entry points): one thread
        // compiles the module whole, more split it into one part per function.
        assert_eq!(parts, if threads == 1 { 1 } else { 5 }, "{threads} threads");
        // SAFETY: both are `() -> i32` C functions of the linked code, alive with `jit`.
        let (entry, take) = unsafe {
            (
                std::mem::transmute::<*mut (), extern "C" fn() -> i32>(
                    jit.lookup("entry").unwrap(),
                ),
                std::mem::transmute::<*mut (), extern "C" fn() -> i32>(jit.lookup("take").unwrap()),
            )
        };
        assert_eq!(entry(), 10 + 2 * 20 + 30, "{threads} threads");
        assert_eq!(entry(), 2 * 80, "{threads} threads");
        assert_eq!(take(), 160, "{threads} threads");
    }
}

#[test]
fn an_undefined_symbol_is_an_error() {
    let text = r#"
llvm.func @glow_test_nowhere_defined() -> i32
llvm.func @entry() -> i32 {
  %r = llvm.call @glow_test_nowhere_defined() : () -> i32
  llvm.return %r : i32
}
llvm.func @take() -> i32 attributes {passthrough = ["noinline"]} {
  %r = llvm.mlir.constant(0 : i32) : i32
  llvm.return %r : i32
}
"#;
    let (jit, parts) = link(text, 2).expect("the module compiles");
    assert_eq!(parts, 2);
    let error = jit.lookup("entry").expect_err("nothing defines the callee");
    assert!(
        error.to_string().contains("glow_test_nowhere_defined"),
        "{error}"
    );
}

#[test]
fn a_thread_local_global_is_refused() {
    let text = r#"
llvm.mlir.global internal thread_local @per_thread(0 : i32) : i32
llvm.func @entry() -> i32 {
  %p = llvm.mlir.addressof @per_thread : !llvm.ptr
  %r = llvm.load %p : !llvm.ptr -> i32
  llvm.return %r : i32
}
llvm.func @take() -> i32 attributes {passthrough = ["noinline"]} {
  %r = llvm.mlir.constant(0 : i32) : i32
  llvm.return %r : i32
}
"#;
    for threads in [1, 2] {
        let error = link(text, threads)
            .err()
            .expect("ORC cannot link thread-locals");
        assert!(
            error.contains("thread-local global (per_thread)"),
            "{error}"
        );
    }
}
