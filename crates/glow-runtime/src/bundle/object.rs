//! The bundle's object file: the LLVM-dialect module translated to LLVM IR (MLIR's
//! translation), optimized by LLVM's O3 pipeline for the target CPU and emitted as a
//! position-independent object, through inkwell's safe wrappers of LLVM's C API. Only
//! the entry point and the status function are exported: every other function the
//! pipeline made (kernels, the runtime-check helper) gets internal linkage, so several
//! bundles link into one program.

use crate::codegen::{optimize, target_machine, translate};
use anyhow::{anyhow, Result};
use inkwell::{context::Context, module::Linkage, targets::FileType, OptimizationLevel};
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
    let machine = target_machine(target_cpu, OptimizationLevel::Aggressive)?;
    let context = Context::create();
    let llvm_module = translate(module, &context, &machine)?;
    for function in llvm_module.get_functions() {
        let name = function.get_name().to_string_lossy();
        if function.count_basic_blocks() > 0 && !exported.contains(&name.as_ref()) {
            function.set_linkage(Linkage::Internal);
        }
    }
    optimize(&llvm_module, &machine, OptimizationLevel::Aggressive)?;
    machine
        .write_to_file(&llvm_module, FileType::Object, path)
        .map_err(|e| anyhow!("emitting {}: {e}", path.display()))
}
