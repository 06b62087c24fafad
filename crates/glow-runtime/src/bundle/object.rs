//! The bundle's object file: the LLVM-dialect module translated to LLVM IR (MLIR's
//! translation), optimized by LLVM's O3 pipeline for the target CPU and emitted as a
//! position-independent object, through inkwell's safe wrappers of LLVM's C API. Only
//! the entry point and the status function are exported: every other function the
//! pipeline made (kernels, the runtime-check helper) gets internal linkage, so several
//! bundles link into one program.

use anyhow::{bail, Result};
use inkwell::{
    context::Context,
    module::{Linkage, Module as LlvmModule},
    passes::PassBuilderOptions,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine},
    OptimizationLevel,
};
use melior::ir::Module;
use std::path::Path;

/// LLVM IR for `module` (LLVM dialect), optimized at O3 for `target_cpu` (default:
/// this machine, with its features), written as an object file at `path`; of the
/// functions it defines, only those named in `exported` stay visible to the linker.
pub fn emit_object(
    module: &Module,
    path: &Path,
    target_cpu: Option<&str>,
    exported: &[&str],
) -> Result<()> {
    Target::initialize_native(&InitializationConfig::default())
        .map_err(|e| anyhow::anyhow!("LLVM has no code generator for this machine: {e}"))?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple)
        .map_err(|e| anyhow::anyhow!("no LLVM target for this machine: {e}"))?;
    // Another CPU: its name, and the features LLVM knows it has (none added).
    let (cpu, features) = match target_cpu {
        Some(cpu) => (cpu.to_string(), String::new()),
        None => (
            TargetMachine::get_host_cpu_name().to_string(),
            TargetMachine::get_host_cpu_features().to_string(),
        ),
    };
    let Some(machine) = target.create_target_machine(
        &triple,
        &cpu,
        &features,
        OptimizationLevel::Aggressive,
        RelocMode::PIC,
        CodeModel::Default,
    ) else {
        bail!("LLVM cannot generate code for CPU '{cpu}'");
    };
    let context = Context::create();
    // SAFETY: MLIR's translation creates the module in `context` (a live LLVM
    // context) and hands over ownership; null means the translation failed.
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
        unsafe { LlvmModule::new(raw as inkwell::llvm_sys::prelude::LLVMModuleRef) };
    for function in llvm_module.get_functions() {
        let name = function.get_name().to_string_lossy();
        if function.count_basic_blocks() > 0 && !exported.contains(&name.as_ref()) {
            function.set_linkage(Linkage::Internal);
        }
    }
    llvm_module.set_triple(&triple);
    llvm_module.set_data_layout(&machine.get_target_data().get_data_layout());
    llvm_module
        .run_passes("default<O3>", &machine, PassBuilderOptions::create())
        .map_err(|e| anyhow::anyhow!("LLVM's O3 pipeline failed: {e}"))?;
    machine
        .write_to_file(&llvm_module, FileType::Object, path)
        .map_err(|e| anyhow::anyhow!("emitting {}: {e}", path.display()))?;
    Ok(())
}
