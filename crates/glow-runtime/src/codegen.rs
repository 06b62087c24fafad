//! LLVM code generation, shared by the JIT ([`crate::jit`]) and bundles: the LLVM-dialect
//! module is translated to LLVM IR (MLIR's translation), optimized by LLVM's default
//! pipeline for a CPU and emitted as object code, through inkwell's wrappers of LLVM's
//! C API.
//!
//! For the JIT the module is split first ([`split_objects`]): the kernels
//! (`glow-outline-kernels` makes every layer a `noinline` function) are spread over
//! parts, four per core, largest first onto the lightest part, and threads take the
//! parts from a queue, each optimizing and compiling its part in an LLVM context of its
//! own. Kernels never inline into each other, so each kernel's code is what one module
//! would give it; calls between parts and the few shared globals go through the
//! linker's stubs and GOT entries. ORC links the parts like the objects of a program.

use anyhow::{anyhow, bail, Result};
pub use inkwell::OptimizationLevel;
use inkwell::{
    attributes::{Attribute, AttributeLoc},
    context::Context,
    llvm_sys,
    memory_buffer::MemoryBuffer,
    module::{Linkage, Module as LlvmModule},
    passes::PassBuilderOptions,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine},
    values::{AsValueRef, FunctionValue, GlobalValue},
};
use melior::ir::Module;
use std::{
    collections::HashMap,
    ffi::CString,
    sync::{
        atomic::{AtomicUsize, Ordering},
        OnceLock,
    },
};

/// Registers LLVM's code generator for this machine, once per process (LLVM's target
/// registration is not meant to race).
pub fn initialize_native() -> Result<()> {
    static INITIALIZED: OnceLock<Result<(), String>> = OnceLock::new();
    INITIALIZED
        .get_or_init(|| Target::initialize_native(&InitializationConfig::default()))
        .as_ref()
        .map_err(|e| anyhow!("LLVM has no code generator for this machine: {e}"))?;
    Ok(())
}

/// The code generator for `cpu` (default: this machine, with its features) at `level`.
pub fn target_machine(cpu: Option<&str>, level: OptimizationLevel) -> Result<TargetMachine> {
    initialize_native()?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple)
        .map_err(|e| anyhow!("no LLVM target for this machine: {e}"))?;
    // Another CPU: its name, and the features LLVM knows it has (none added).
    let (cpu, features) = match cpu {
        Some(cpu) => (cpu.to_string(), String::new()),
        None => (
            TargetMachine::get_host_cpu_name().to_string(),
            TargetMachine::get_host_cpu_features().to_string(),
        ),
    };
    target
        .create_target_machine(
            &triple,
            &cpu,
            &features,
            level,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| anyhow!("LLVM cannot generate code for CPU '{cpu}'"))
}

/// `module` (LLVM dialect) as LLVM IR in `context`, for `machine`'s triple and layout.
pub fn translate<'c>(
    module: &Module,
    context: &'c Context,
    machine: &TargetMachine,
) -> Result<LlvmModule<'c>> {
    // SAFETY: MLIR's translation creates the module in `context` (a live LLVM context)
    // and hands over ownership; null means the translation failed.
    let raw = unsafe {
        mlir_sys::mlirTranslateModuleToLLVMIR(
            module.as_operation().to_raw(),
            context.raw() as mlir_sys::LLVMContextRef,
        )
    };
    if raw.is_null() {
        bail!("translating the LLVM dialect to LLVM IR failed");
    }
    // SAFETY: a valid module of `context`, owned from here on (disposed on drop).
    let llvm_module: LlvmModule =
        unsafe { LlvmModule::new(raw as llvm_sys::prelude::LLVMModuleRef) };
    llvm_module.set_triple(&machine.get_triple());
    llvm_module.set_data_layout(&machine.get_target_data().get_data_layout());
    Ok(llvm_module)
}

/// Runs LLVM's default pipeline at `level` on `module`, with the loop and SLP
/// vectorizers, interleaving and unrolling on (as MLIR's ExecutionEngine runs it).
pub fn optimize(
    module: &LlvmModule,
    machine: &TargetMachine,
    level: OptimizationLevel,
) -> Result<()> {
    let pipeline = match level {
        OptimizationLevel::None => "default<O0>",
        OptimizationLevel::Less => "default<O1>",
        OptimizationLevel::Default => "default<O2>",
        OptimizationLevel::Aggressive => "default<O3>",
    };
    let options = PassBuilderOptions::create();
    options.set_loop_vectorization(true);
    options.set_loop_slp_vectorization(true);
    options.set_loop_interleaving(true);
    options.set_loop_unrolling(true);
    module
        .run_passes(pipeline, machine, options)
        .map_err(|e| anyhow!("LLVM's {pipeline} pipeline failed: {e}"))
}

/// Object files of `module` (LLVM dialect) for this machine at `level`, compiled on up to
/// `threads` threads. `exported` (the entry points) and the `noinline` functions are
/// defined in one part each and visible to the others; the rest (small helpers,
/// constants) is copied into every part that uses it, so a copy's address differs
/// between parts (nothing Glow emits compares them). Mutable globals live in the first
/// part. Static constructors, aliases and thread-local globals, which nothing in Glow's
/// pipeline makes and ORC would not run or link without its runtime, are refused.
pub fn split_objects(
    module: &Module,
    exported: &[&str],
    threads: usize,
    level: OptimizationLevel,
) -> Result<Vec<Vec<u8>>> {
    let machine = target_machine(None, level)?;
    let context = Context::create();
    let whole = translate(module, &context, &machine)?;
    refuse_unsupported_globals(&whole)?;
    let noinline = Attribute::get_named_enum_kind_id("noinline");
    let mut placed: Vec<(String, usize)> = whole
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
        .filter(|f| {
            let name = f.get_name().to_string_lossy();
            exported.contains(&name.as_ref())
                || f.get_enum_attribute(AttributeLoc::Function, noinline)
                    .is_some()
        })
        .map(|f| (f.get_name().to_string_lossy().into_owned(), instructions(f)))
        .collect();
    let threads = threads.clamp(1, placed.len().max(1));
    if threads == 1 {
        optimize(&whole, &machine, level)?;
        return Ok(vec![emit(&whole, &machine)?]);
    }
    // Instructions before optimization predict a function's compile time only roughly:
    // several parts per thread, taken from a queue, even out the error.
    let parts = (threads * PARTS_PER_THREAD).min(placed.len());
    // Largest first onto the part with the fewest instructions so far.
    placed.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut load = vec![0usize; parts];
    let mut owner = HashMap::new();
    for (name, size) in placed {
        let part = (0..parts).min_by_key(|p| load[*p]).unwrap_or(0);
        load[part] += size;
        owner.insert(name, part);
    }
    let bitcode = whole.write_bitcode_to_memory().as_slice().to_vec();
    drop(whole);
    let next = AtomicUsize::new(0);
    let work = || -> Result<Vec<(usize, Vec<u8>)>> {
        let mut done = Vec::new();
        loop {
            let part = next.fetch_add(1, Ordering::Relaxed);
            if part >= parts {
                return Ok(done);
            }
            match compile_part(&bitcode, &owner, part, level) {
                Ok(object) => done.push((part, object)),
                Err(error) => {
                    // The others stop after their current part.
                    next.store(parts, Ordering::Relaxed);
                    return Err(error);
                }
            }
        }
    };
    let results = std::thread::scope(|scope| {
        // LLVM recurses deeply on large functions: the main thread's stack size.
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(scope, work)
            })
            .collect();
        let mut results = vec![work()];
        for helper in helpers {
            results.push(match helper {
                Ok(handle) => handle.join().unwrap_or_else(|_| {
                    Err(anyhow!("internal error: a code generation thread panicked"))
                }),
                Err(error) => Err(anyhow!("starting a code generation thread: {error}")),
            });
        }
        results
    });
    let mut objects = Vec::with_capacity(parts);
    for result in results {
        objects.extend(result?);
    }
    objects.sort_by_key(|(part, _)| *part);
    Ok(objects.into_iter().map(|(_, object)| object).collect())
}

/// Parts per code generation thread.
const PARTS_PER_THREAD: usize = 4;

/// Part `part` of the module in `bitcode`, optimized and compiled in a context of its own.
fn compile_part(
    bitcode: &[u8],
    owner: &HashMap<String, usize>,
    part: usize,
    level: OptimizationLevel,
) -> Result<Vec<u8>> {
    let machine = target_machine(None, level)?;
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range(bitcode, "glow-part");
    let module = LlvmModule::parse_bitcode_from_buffer(&buffer, &context)
        .map_err(|e| anyhow!("internal error: reading back the split module: {e}"))?;
    for function in module.get_functions().collect::<Vec<_>>() {
        if function.count_basic_blocks() == 0 {
            continue;
        }
        match owner.get(function.get_name().to_string_lossy().as_ref()) {
            Some(&defined) if defined == part => function.set_linkage(Linkage::External),
            Some(_) => declare_only(&module, function),
            None => function.set_linkage(Linkage::Internal),
        }
    }
    for global in module.get_globals().collect::<Vec<_>>() {
        if global.is_declaration() {
            continue;
        }
        if global.is_constant() {
            global.set_linkage(Linkage::Internal);
        } else if part == 0 {
            global.set_linkage(Linkage::External);
        } else {
            declare_global_only(&module, global);
        }
    }
    optimize(&module, &machine, level)?;
    emit(&module, &machine)
}

/// Replaces `function`'s definition with a declaration of the same name, type, calling
/// convention and attributes. A fresh declaration is not `dso_local`: calls from this
/// part go through the linker's stubs, whatever the distance to the part defining it.
fn declare_only<'c>(module: &LlvmModule<'c>, function: FunctionValue<'c>) {
    let name = function.get_name().to_string_lossy().into_owned();
    let declaration = module.add_function(&format!("{name}.declared"), function.get_type(), None);
    declaration.set_call_conventions(function.get_call_conventions());
    let mut places = vec![AttributeLoc::Function, AttributeLoc::Return];
    places.extend((0..function.count_params()).map(AttributeLoc::Param));
    for place in places {
        for attribute in function.attributes(place) {
            declaration.add_attribute(place, attribute);
        }
    }
    // SAFETY: both values are functions of the same type in `module`; after the uses
    // move to the declaration, the definition has none left and is erased.
    unsafe {
        llvm_sys::core::LLVMReplaceAllUsesWith(function.as_value_ref(), declaration.as_value_ref());
        function.delete();
    }
    declaration.as_global_value().set_name(&name);
    declaration.set_linkage(Linkage::External);
}

/// Replaces the mutable `global`, which the first part defines, with a declaration of
/// the same name, type and alignment (fresh, so not `dso_local`: reached through a GOT
/// entry, whatever the distance).
fn declare_global_only<'c>(module: &LlvmModule<'c>, global: GlobalValue<'c>) {
    let name = global.get_name().to_string_lossy().into_owned();
    let raw = global.as_value_ref();
    // SAFETY: `raw` is a global variable of `module`; the new global has its value type,
    // takes over its uses, and the old one, left without uses, is deleted.
    unsafe {
        let value_type = llvm_sys::core::LLVMGlobalGetValueType(raw);
        let temporary = CString::new(format!("{name}.declared")).unwrap_or_default();
        let module_ref = module.as_mut_ptr();
        let declaration = llvm_sys::core::LLVMAddGlobal(module_ref, value_type, temporary.as_ptr());
        llvm_sys::core::LLVMSetAlignment(declaration, llvm_sys::core::LLVMGetAlignment(raw));
        llvm_sys::core::LLVMReplaceAllUsesWith(raw, declaration);
        llvm_sys::core::LLVMDeleteGlobal(raw);
        llvm_sys::core::LLVMSetValueName2(declaration, name.as_ptr().cast(), name.len());
    }
}

/// Refuses what a split cannot keep: static constructors and other arrays LLVM appends
/// to, aliases, ifuncs and thread-local globals.
fn refuse_unsupported_globals(module: &LlvmModule) -> Result<()> {
    for global in module.get_globals() {
        let name = global.get_name().to_string_lossy();
        if global.get_linkage() == Linkage::Appending {
            bail!("internal error: the compiled module has an appending global ({name}), which the JIT does not run");
        }
        if global.is_thread_local() {
            bail!("internal error: the compiled module has a thread-local global ({name}), which the JIT cannot link");
        }
    }
    // SAFETY: `module` is a live module; only its first alias / ifunc is read.
    let (alias, ifunc) = unsafe {
        (
            llvm_sys::core::LLVMGetFirstGlobalAlias(module.as_mut_ptr()),
            llvm_sys::core::LLVMGetFirstGlobalIFunc(module.as_mut_ptr()),
        )
    };
    if !alias.is_null() || !ifunc.is_null() {
        bail!("internal error: the compiled module has a global alias or ifunc, which the JIT's split does not keep");
    }
    Ok(())
}

/// How many instructions `function` has (the split's measure of its compile time).
fn instructions(function: FunctionValue) -> usize {
    function
        .get_basic_blocks()
        .iter()
        .map(|block| block.get_instructions().count())
        .sum()
}

/// `module` as one object file in memory.
fn emit(module: &LlvmModule, machine: &TargetMachine) -> Result<Vec<u8>> {
    let object = machine
        .write_to_memory_buffer(module, FileType::Object)
        .map_err(|e| anyhow!("LLVM's code generator failed: {e}"))?;
    Ok(object.as_slice().to_vec())
}
