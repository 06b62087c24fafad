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
    compiler_context, find_function, load, signature_ports, LoadedModel, ModelSource, Port,
};
use anyhow::{bail, Context as _, Result};
use glow_passes::{pipelines::Quantization, Int8Kernels};
use header::{c_identifier, header, manifest};
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, StringAttribute},
    operation::OperationLike,
    Attribute, AttributeLike, Module, OperationRef,
};
use object::emit_object;
use std::path::PathBuf;
use weights::{extract_weights, index_attribute};

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
    /// The CPU the bundle is for (LLVM's name); `None`: this machine.
    pub target_cpu: Option<String>,
    /// Quantization from a profile, if any.
    pub quantization: Option<Quantization>,
    /// How int8 layers are compiled.
    pub int8_kernels: Int8Kernels,
    /// The name the user gave the int8 kernels (`host` needs this machine's CPU).
    pub int8_kernels_name: String,
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
}

/// What `glow-plan-memory` recorded about the activation arena.
#[derive(Clone, Debug)]
pub struct MemoryPlan {
    /// The most bytes of activations alive at one time: no placement needs less.
    pub lower_bound: u64,
    /// The bytes the activations would take if none shared memory.
    pub unshared: u64,
    /// The placement strategy that gave the smallest arena.
    pub placement: String,
    /// The largest buffers alive at the peak (`node: N bytes`).
    pub at_peak: Vec<String>,
}

impl MemoryPlan {
    fn read(function: OperationRef) -> Result<Self> {
        use melior::ir::attribute::ArrayAttribute;
        let string = |name: &str| -> Result<String> {
            Ok(StringAttribute::try_from(function.attribute(name)?)
                .map_err(|_| anyhow::anyhow!("'{name}' is not a string"))?
                .value()
                .to_string())
        };
        let at_peak = ArrayAttribute::try_from(function.attribute("glow.activations_at_peak")?)
            .map_err(|_| anyhow::anyhow!("the memory plan left no peak"))?;
        Ok(Self {
            lower_bound: index_attribute(function, "glow.activations_lower_bound")?,
            unshared: index_attribute(function, "glow.activations_unshared")?,
            placement: string("glow.activations_placement")?,
            at_peak: (0..at_peak.len())
                .filter_map(|i| at_peak.element(i).ok())
                .filter_map(|a| StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_string())
                .collect(),
        })
    }
}

impl BundleSummary {
    /// The memory report: first the line scripts read, exactly
    /// `activations: planned N bytes, lower bound M bytes`, then the details.
    pub fn memory_report(&self) -> String {
        let memory = &self.memory;
        format!(
            "activations: planned {} bytes, lower bound {} bytes\n\
             activation buffers: {} bytes if none shared memory; placement: {}\n\
             weights: {} bytes; inputs and outputs: {} bytes\n\
             largest buffers live at the peak: {}\n",
            self.activations_size,
            memory.lower_bound,
            memory.unshared,
            memory.placement,
            self.constant_weights_size,
            self.mutable_weights_size,
            if memory.at_peak.is_empty() {
                "none".to_string()
            } else {
                memory.at_peak.join(", ")
            }
        )
    }
}

fn set_string_attribute(op: OperationRef, name: &str, value: &str) {
    let context = op.context();
    // SAFETY: the ContextRef outlives the borrow in this frame.
    let context = unsafe { context.to_ref() };
    let attribute: Attribute = StringAttribute::new(context, value).into();
    let name = melior::StringRef::new(name);
    // SAFETY: setting an attribute on a live op.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), name.to_raw(), attribute.to_raw())
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
        runner_allocator: false,
        // Bundles run on the caller's thread: no OpenMP runtime to link.
        threads: 1,
        time_layers: false,
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
        set_string_attribute(function, "sym_name", &name);
        // The header carries the port names now; buffer-results-to-out-params adds
        // arguments without extending the argument attributes, so drop them.
        for list in ["arg_attrs", "res_attrs"] {
            // SAFETY: removing a discardable attribute of a live op.
            unsafe {
                mlir_sys::mlirOperationRemoveAttributeByName(
                    function.to_raw(),
                    melior::StringRef::new(list).to_raw(),
                )
            };
        }
        ports
    };

    glow_passes::run_pipeline(
        &mut module,
        &format!("builtin.module({})", pipeline.bundle_front(&name)),
    )?;
    let (sizes, offsets, memory) = {
        let function = find_function(&module, &name)?;
        let memory = MemoryPlan::read(function)?;
        let sizes = [
            index_attribute(function, "glow.constant_size")?,
            index_attribute(function, "glow.mutable_size")?,
            index_attribute(function, "glow.activations_size")?,
        ];
        let offsets = DenseI64ArrayAttribute::try_from(function.attribute("glow.mutable_offsets")?)
            .map_err(|_| anyhow::anyhow!("the memory plan left no mutable offsets"))?;
        let offsets: Vec<u64> = (0..offsets.len())
            .map(|i| offsets.element(i).map(|o| o as u64))
            .collect::<Result<_, _>>()?;
        (sizes, offsets, memory)
    };
    let weights = extract_weights(&module, sizes[0])?;
    glow_passes::run_pipeline(
        &mut module,
        &format!("builtin.module({})", pipeline.bundle_back()),
    )?;
    let errors = export_status(&module, &name)?;

    // Everything is compiled; only now write the files (the object first, to a
    // temporary name, so a failure leaves no partial bundle).
    std::fs::create_dir_all(&arguments.output_dir)
        .with_context(|| format!("cannot create '{}'", arguments.output_dir.display()))?;
    let object = arguments.output_dir.join(format!("{name}.o"));
    let partial = arguments.output_dir.join(format!(".{name}.o.partial"));
    if let Err(error) = emit_object(&module, &partial, arguments.target_cpu.as_deref()) {
        let _ = std::fs::remove_file(&partial);
        return Err(error);
    }
    let ports: Vec<(&str, &Port, u64)> = inputs
        .iter()
        .map(|p| ("input", p))
        .chain(outputs.iter().map(|p| ("output", p)))
        .zip(&offsets)
        .map(|((kind, port), offset)| (kind, port, *offset))
        .collect();
    let written = (|| -> Result<()> {
        std::fs::write(
            arguments.output_dir.join(format!("{name}.weights")),
            &weights,
        )?;
        std::fs::write(
            arguments.output_dir.join(format!("{name}.h")),
            header(&name, &arguments.model, sizes, &ports, &errors),
        )?;
        std::fs::write(
            arguments.output_dir.join(format!("{name}.json")),
            manifest(&name, sizes, &ports, &errors),
        )?;
        std::fs::rename(&partial, &object)?;
        Ok(())
    })();
    if let Err(error) = written {
        let _ = std::fs::remove_file(&partial);
        for extension in ["weights", "h", "json"] {
            let _ = std::fs::remove_file(arguments.output_dir.join(format!("{name}.{extension}")));
        }
        return Err(error.context("writing the bundle"));
    }
    Ok(BundleSummary {
        name,
        object,
        constant_weights_size: sizes[0],
        mutable_weights_size: sizes[1],
        activations_size: sizes[2],
        memory,
    })
}
