//! Ahead-of-time compilation into a bundle, as Glow's were: `NAME.o` (an object file
//! from the LLVM dialect through LLVM's O3 pipeline and target machine, [`object`]),
//! `NAME.weights` (the constant weights, [`weights`]), `NAME.h` and `NAME.json` (the
//! entry point `void NAME(uint8_t *constant_weights, uint8_t *mutable_weights,
//! uint8_t *activations)`, the offsets of the inputs and outputs in the mutable
//! weights, the three buffer sizes, [`header`]). Memory is planned statically by
//! `glow-plan-memory`: the bundle allocates nothing. Files are written only when
//! everything succeeded.

pub mod header;
pub mod object;
pub mod weights;

use crate::model::{
    compiler_context, find_function, load, rename_function, signature_ports, LoadedModel,
    ModelSource, Port,
};
pub use crate::planned::MemoryPlan;
use crate::planned::{compile_planned, WeightsTarget};
use anyhow::{bail, Context as _, Result};
use glow_passes::{pipelines::Quantization, Int8Kernels};
use header::{c_identifier, header, manifest};
use melior::ir::{operation::OperationLike, AttributeLike, Module};
use object::emit_object;
use std::path::PathBuf;

/// What to compile into a bundle, and where.
#[derive(Clone, Debug)]
pub struct BundleRequest {
    /// An `.onnx` model or a `.mlir` module.
    pub model: PathBuf,
    /// Folder for the bundle's files (created if missing).
    pub output_dir: PathBuf,
    /// The bundle's name (entry point and file names); default: the model's file name.
    pub name: Option<String>,
    /// `name=AxBxC` static shapes of ONNX inputs.
    pub input_shapes: Vec<String>,
    /// `name=file.pb` ONNX inputs bound to constant data.
    pub frozen_inputs: Vec<String>,
    /// The function of a `.mlir` module.
    pub function: String,
    /// The largest tensor accepted, in bytes.
    pub max_tensor_bytes: u64,
    /// The largest activation arena accepted, in bytes (0: no limit).
    pub arena_limit: u64,
    /// The CPU the bundle is for (LLVM's name); `None`: this machine.
    pub target_cpu: Option<String>,
    /// Quantization from a profile, if any.
    pub quantization: Option<Quantization>,
    /// How int8 layers are compiled.
    pub int8_kernels: Int8Kernels,
    /// The name the user gave the int8 kernels (`host` needs this machine's CPU).
    pub int8_kernels_name: String,
    /// Keep 3x3 convolutions direct (no Winograd kernels).
    pub no_winograd: bool,
    /// Threads the bundle's kernels run on (1: sequential code on the caller's
    /// thread; more: OpenMP, and the program links LLVM's OpenMP runtime).
    pub threads: u32,
}

/// What [`compile_bundle`] wrote.
#[derive(Clone, Debug)]
pub struct BundleSummary {
    /// The bundle's name (a C identifier).
    pub name: String,
    /// The object file.
    pub object: PathBuf,
    /// Bytes of constant weights.
    pub constant_weights_size: u64,
    /// Bytes of inputs and outputs.
    pub mutable_weights_size: u64,
    /// Bytes of activations.
    pub activations_size: u64,
    /// How the activations were placed.
    pub memory: MemoryPlan,
    /// Peak resident memory and time after each compile stage.
    pub memory_stages: crate::resident::Stages,
}

impl BundleSummary {
    /// The memory report ([`MemoryPlan::report`]), then the peak resident memory after
    /// each stage.
    pub fn memory_report(&self) -> String {
        format!("{}{}\n", self.memory.report(), self.memory_stages.report())
    }
}

/// Renames the module's `glow_take_status` to `NAME_status` (the bundle's symbol) and
/// returns the runtime checks' messages (glow-lower-checks).
fn export_status(module: &Module, name: &str) -> Result<Vec<String>> {
    use melior::ir::{
        attribute::StringAttribute,
        operation::{OperationLike, WalkOrder, WalkResult},
    };
    let mut renamed = false;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let symbol = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_string());
        if symbol.as_deref() == Some(glow_passes::lower_checks::TAKE_STATUS) {
            let context = module.context();
            // SAFETY: the module's context outlives this use.
            let exported =
                StringAttribute::new(unsafe { context.to_ref() }, &format!("{name}_status"));
            // SAFETY: renaming a symbol nothing in the module refers to.
            unsafe {
                let key = melior::StringRef::new("sym_name");
                mlir_sys::mlirOperationSetAttributeByName(
                    op.to_raw(),
                    key.to_raw(),
                    exported.to_raw(),
                );
            }
            renamed = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if !renamed {
        bail!("internal error: the compiled module has no error status (glow-lower-checks did not run)");
    }
    Ok(crate::runner::string_array(
        module,
        glow_passes::lower_checks::RUNTIME_ERRORS,
    ))
}

/// Profiling ops record into glow-run's recorder; a bundle has none.
fn refuse_profiling(module: &Module) -> Result<()> {
    let mut found = None;
    module
        .as_operation()
        .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            if op.name().as_string_ref().as_str() == Ok("glow.quant.profile") {
                found = Some(op.location().to_string());
                return melior::ir::operation::WalkResult::Interrupt;
            }
            melior::ir::operation::WalkResult::Advance
        });
    match found {
        Some(location) => bail!(
            "{location}: quantization profiling (glow.quant.profile) runs in glow-run --calibration ... --dump-profile, not in a bundle"
        ),
        None => Ok(()),
    }
}

pub fn compile_bundle(request: &BundleRequest) -> Result<BundleSummary> {
    let started = std::time::Instant::now();
    let context = compiler_context();
    let arguments = request;
    let LoadedModel {
        mut module,
        input_names,
        output_names,
    } = load(
        &context,
        &ModelSource {
            path: &arguments.model,
            input_shapes: &arguments.input_shapes,
            inputs: &[],
            frozen_inputs: &arguments.frozen_inputs,
            function: &arguments.function,
            max_tensor_bytes: arguments.max_tensor_bytes,
        },
    )?;
    let name = c_identifier(&match &arguments.name {
        Some(name) => name.clone(),
        None => arguments
            .model
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bundle".into()),
    });
    let pipeline = glow_passes::CpuPipeline {
        int8_kernels: match (&arguments.target_cpu, arguments.int8_kernels_name.as_str()) {
            (Some(cpu), "host") => bail!(
                "a bundle for --target-cpu {cpu}: say which int8 kernels it runs with --int8-kernels (amx, avx512-vnni, generic or reference)"
            ),
            (_, _) => arguments.int8_kernels,
        },
        threads: arguments.threads.max(1),
        time_layers: false,
        no_winograd: arguments.no_winograd,
    };
    let prefix = match &arguments.quantization {
        Some(quantization) => format!("{},", quantization.prefix().map_err(anyhow::Error::msg)?),
        None => String::new(),
    };
    refuse_profiling(&module)?;
    // Quantization first: the profile names values by the ONNX names the function's
    // argument attributes carry, which the bundle drops below.
    if !prefix.is_empty() {
        glow_passes::run_pipeline(
            &mut module,
            &format!("builtin.module({})", prefix.trim_end_matches(',')),
        )?;
    }
    let (inputs, outputs) = {
        let function = find_function(&module, &arguments.function)?;
        let ports = signature_ports(function, &input_names, &output_names)?;
        rename_function(function, &name);
        ports
    };
    let mut stages = crate::resident::Stages::starting(started);
    stages.record("import");
    // The files go to temporary names first and are renamed once all are written, so
    // a failure leaves no partial bundle. The weights go straight from the module into
    // their file as the plan places them: no weights image is held in memory.
    // The folders this call creates, deepest first: removed again (if empty) on failure.
    let created_directories: Vec<std::path::PathBuf> = arguments
        .output_dir
        .ancestors()
        .take_while(|folder| !folder.as_os_str().is_empty() && !folder.exists())
        .map(std::path::Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(&arguments.output_dir)
        .with_context(|| format!("cannot create '{}'", arguments.output_dir.display()))?;
    let object = arguments.output_dir.join(format!("{name}.o"));
    let partial = arguments.output_dir.join(format!(".{name}.o.partial"));
    let partial_weights = arguments
        .output_dir
        .join(format!(".{name}.weights.partial"));
    let remove_partials = || {
        let _ = std::fs::remove_file(&partial);
        let _ = std::fs::remove_file(&partial_weights);
        for folder in &created_directories {
            // Only if empty: nothing else of the caller's is removed.
            let _ = std::fs::remove_dir(folder);
        }
    };
    let compiled = std::fs::File::create(&partial_weights)
        .with_context(|| format!("cannot write '{}'", partial_weights.display()))
        .and_then(|file| {
            compile_planned(
                &mut module,
                &pipeline,
                &name,
                arguments.arena_limit,
                WeightsTarget::File(&file),
                &mut stages,
            )
        });
    let memory = match compiled {
        Ok(planned) => planned.memory,
        Err(error) => {
            remove_partials();
            return Err(error);
        }
    };
    let sizes = [
        memory.constant_size,
        memory.mutable_size,
        memory.activations_size,
    ];
    let offsets = memory.mutable_offsets.clone();
    let errors = match export_status(&module, &name) {
        Ok(errors) => errors,
        Err(error) => {
            remove_partials();
            return Err(error);
        }
    };
    let status = format!("{name}_status");
    let exported = [name.as_str(), status.as_str()];
    if let Err(error) = emit_object(
        &module,
        &partial,
        arguments.target_cpu.as_deref(),
        &exported,
    ) {
        remove_partials();
        return Err(error);
    }
    stages.record("code generation");
    let ports: Vec<(&str, &Port, u64)> = inputs
        .iter()
        .map(|p| ("input", p))
        .chain(outputs.iter().map(|p| ("output", p)))
        .zip(&offsets)
        .map(|((kind, port), offset)| (kind, port, *offset))
        .collect();
    let written = (|| -> Result<()> {
        std::fs::write(
            arguments.output_dir.join(format!("{name}.h")),
            header(
                &name,
                &arguments.model,
                sizes,
                &ports,
                &errors,
                arguments.threads.max(1),
            ),
        )?;
        std::fs::write(
            arguments.output_dir.join(format!("{name}.json")),
            manifest(&name, sizes, &ports, &errors, arguments.threads.max(1)),
        )?;
        std::fs::rename(
            &partial_weights,
            arguments.output_dir.join(format!("{name}.weights")),
        )?;
        std::fs::rename(&partial, &object)?;
        Ok(())
    })();
    if let Err(error) = written {
        for extension in ["weights", "h", "json"] {
            let _ = std::fs::remove_file(arguments.output_dir.join(format!("{name}.{extension}")));
        }
        remove_partials();
        return Err(error.context("writing the bundle"));
    }
    Ok(BundleSummary {
        name,
        object,
        constant_weights_size: sizes[0],
        mutable_weights_size: sizes[1],
        activations_size: sizes[2],
        memory,
        memory_stages: stages,
    })
}
