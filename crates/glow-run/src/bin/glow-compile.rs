//! `glow-compile MODEL -o DIR [--name NAME] [--input-shape name=AxBxC]...
//! [--load-profile P.yaml ...] [--target-cpu CPU --int8-kernels KIND]`: ahead-of-time
//! compilation into a bundle, as Glow's were: `DIR/NAME.o` (an object file from the
//! LLVM dialect through LLVM's O3 pipeline and target machine for this CPU),
//! `DIR/NAME.weights` (the constant weights) and `DIR/NAME.h` (the entry point
//! `void NAME(uint8_t *constant_weights, uint8_t *mutable_weights, uint8_t *activations)`,
//! the offsets of the inputs and outputs in the mutable weights, and the three buffer
//! sizes). Memory is planned statically by `glow-plan-memory`: the bundle allocates
//! nothing. Files are written only when everything succeeded.

use anyhow::{bail, Context as _, Result};
use clap::Parser;
use glow_run::{
    model::{
        compiler_context, find_function, load, signature_ports, LoadedModel, ModelSource, Port,
    },
    options::QuantizationOptions,
};
use llvm_sys::{
    core::{LLVMContextCreate, LLVMContextDispose, LLVMDisposeMessage, LLVMDisposeModule},
    target::{LLVM_InitializeNativeAsmPrinter, LLVM_InitializeNativeTarget},
    target_machine::{
        LLVMCodeGenFileType, LLVMCodeGenOptLevel, LLVMCodeModel, LLVMCreateTargetDataLayout,
        LLVMCreateTargetMachine, LLVMDisposeTargetMachine, LLVMGetDefaultTargetTriple,
        LLVMGetHostCPUFeatures, LLVMGetHostCPUName, LLVMGetTargetFromTriple, LLVMRelocMode,
        LLVMTargetMachineEmitToFile,
    },
    transforms::pass_builder::{
        LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMRunPasses,
    },
};
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
    operation::OperationLike,
    Attribute, AttributeLike, BlockLike, Module, OperationRef,
};
use std::{
    ffi::{CStr, CString},
    path::{Path, PathBuf},
    process::ExitCode,
};

#[derive(Parser)]
#[command(
    name = "glow-compile",
    version,
    about = "Compile a model ahead of time into a bundle: object file, weights file, C header"
)]
struct Arguments {
    /// An .onnx model or a .mlir module with a glow.graph function.
    model: PathBuf,
    /// Folder for NAME.o, NAME.weights, NAME.h and NAME.json (created if missing).
    #[arg(short = 'o', long = "output-dir")]
    output_dir: PathBuf,
    /// The bundle's name: the C entry point and the file names. Default: the model's
    /// file name, as a C identifier.
    #[arg(long)]
    name: Option<String>,
    /// Static shape of an ONNX input, e.g. `input=1x3x224x224` (repeatable).
    #[arg(long = "input-shape", value_name = "NAME=DIMS")]
    input_shapes: Vec<String>,
    /// Bind an ONNX input to constant data from a TensorProto `.pb` file (repeatable).
    #[arg(long = "freeze-input", value_name = "NAME=FILE.pb")]
    frozen_inputs: Vec<String>,
    /// The CPU the bundle is for, as LLVM names it (e.g. znver4, sapphirerapids,
    /// x86-64-v3); default: this machine's. With another CPU, say --int8-kernels too.
    #[arg(long, value_name = "CPU")]
    target_cpu: Option<String>,
    #[command(flatten)]
    quantization: QuantizationOptions,
    /// The function of a .mlir module to compile.
    #[arg(long, default_value = "main")]
    function: String,
    /// Refuse models in which one tensor would exceed this many bytes.
    #[arg(long, default_value_t = glow_onnx::DEFAULT_MAX_TENSOR_BYTES)]
    max_tensor_bytes: u64,
}

/// `text` as a C identifier: other characters become `_`, and a leading digit gets one.
fn c_identifier(text: &str) -> String {
    let mut identifier: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if identifier.is_empty() || identifier.starts_with(|c: char| c.is_ascii_digit()) {
        identifier.insert(0, '_');
    }
    identifier
}

fn index_attribute(op: OperationRef, name: &str) -> Result<u64> {
    let attribute = op
        .attribute(name)
        .with_context(|| format!("the memory plan left no '{name}'"))?;
    Ok(IntegerAttribute::try_from(attribute)
        .map_err(|_| anyhow::anyhow!("'{name}' is not an integer"))?
        .value() as u64)
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

/// Copies the data of every planned constant global into the weights image (at the
/// offset the plan gave it) and erases the global.
fn extract_weights(module: &Module, size: u64) -> Result<Vec<u8>> {
    let mut weights = vec![0u8; size as usize];
    let mut planned = Vec::new();
    let body = module.body();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("memref.global") {
            continue;
        }
        let Ok(offset) = index_attribute(op, "glow.constant_offset") else {
            continue;
        };
        let r#type = TypeAttribute::try_from(op.attribute("type")?)
            .map_err(|_| anyhow::anyhow!("a global without a type"))?
            .value();
        let element = melior::ir::r#type::MemRefType::try_from(r#type)
            .map_err(|_| anyhow::anyhow!("a global of type {type}, not a memref"))?;
        let element = melior::ir::r#type::ShapedTypeLike::element(&element);
        let bytes = glow_dialects::elements::memory_bytes(op.attribute("initial_value")?, element)
            .with_context(|| format!("cannot read the data of a constant of type {type}"))?;
        let start = offset as usize;
        weights
            .get_mut(start..start + bytes.len())
            .context("a constant lies outside the planned weights")?
            .copy_from_slice(&bytes);
        planned.push(op.to_raw());
    }
    for op in planned {
        // SAFETY: the global is no longer referenced: the plan made its uses views.
        unsafe { mlir_sys::mlirOperationDestroy(op) };
    }
    Ok(weights)
}

/// LLVM IR for `module` (LLVM dialect), optimized at O3 for this CPU, emitted as an
/// object file at `path`.
fn emit_object(module: &Module, path: &Path, target_cpu: Option<&str>) -> Result<()> {
    // SAFETY: LLVM C API calls on objects created here and disposed before returning;
    // strings LLVM returns are freed with LLVMDisposeMessage.
    unsafe {
        if LLVM_InitializeNativeTarget() != 0 || LLVM_InitializeNativeAsmPrinter() != 0 {
            bail!("LLVM has no code generator for this machine");
        }
        let triple = LLVMGetDefaultTargetTriple();
        // Another CPU: its name, and the features LLVM knows it has (none added).
        let named = target_cpu
            .map(|cpu| CString::new(cpu).context("--target-cpu has a NUL byte"))
            .transpose()?;
        let empty = CString::default();
        let (cpu, features) = match &named {
            Some(name) => (name.as_ptr() as *mut _, empty.as_ptr() as *mut _),
            None => (LLVMGetHostCPUName(), LLVMGetHostCPUFeatures()),
        };
        let mut target = std::ptr::null_mut();
        let mut error = std::ptr::null_mut();
        if LLVMGetTargetFromTriple(triple, &mut target, &mut error) != 0 {
            let message = CStr::from_ptr(error).to_string_lossy().into_owned();
            LLVMDisposeMessage(error);
            bail!("no LLVM target for this machine: {message}");
        }
        let machine = LLVMCreateTargetMachine(
            target,
            triple,
            cpu,
            features,
            LLVMCodeGenOptLevel::LLVMCodeGenLevelAggressive,
            LLVMRelocMode::LLVMRelocPIC,
            LLVMCodeModel::LLVMCodeModelDefault,
        );
        let context = LLVMContextCreate();
        let llvm_module = mlir_sys::mlirTranslateModuleToLLVMIR(
            module.as_operation().to_raw(),
            context as mlir_sys::LLVMContextRef,
        ) as llvm_sys::prelude::LLVMModuleRef;
        let result = (|| -> Result<()> {
            if llvm_module.is_null() {
                bail!("translating the LLVM dialect to LLVM IR failed");
            }
            llvm_sys::core::LLVMSetTarget(llvm_module, triple);
            let layout = LLVMCreateTargetDataLayout(machine);
            llvm_sys::target::LLVMSetModuleDataLayout(llvm_module, layout);
            llvm_sys::target::LLVMDisposeTargetData(layout);
            let options = LLVMCreatePassBuilderOptions();
            let passes = CString::new("default<O3>").expect("no NUL");
            let failed = LLVMRunPasses(llvm_module, passes.as_ptr(), machine, options);
            LLVMDisposePassBuilderOptions(options);
            if !failed.is_null() {
                let message = CStr::from_ptr(llvm_sys::error::LLVMGetErrorMessage(failed));
                let text = message.to_string_lossy().into_owned();
                llvm_sys::error::LLVMDisposeErrorMessage(message.as_ptr() as *mut _);
                bail!("LLVM's O3 pipeline failed: {text}");
            }
            let path_text = CString::new(path.to_string_lossy().as_bytes())
                .context("the output path has a NUL byte")?;
            let mut error = std::ptr::null_mut();
            if LLVMTargetMachineEmitToFile(
                machine,
                llvm_module,
                path_text.as_ptr(),
                LLVMCodeGenFileType::LLVMObjectFile,
                &mut error,
            ) != 0
            {
                let message = CStr::from_ptr(error).to_string_lossy().into_owned();
                LLVMDisposeMessage(error);
                bail!("emitting {}: {message}", path.display());
            }
            Ok(())
        })();
        if !llvm_module.is_null() {
            LLVMDisposeModule(llvm_module);
        }
        LLVMContextDispose(context);
        LLVMDisposeTargetMachine(machine);
        LLVMDisposeMessage(triple);
        if named.is_none() {
            // Only the host's name and features are LLVM's to free; a named CPU's
            // strings belong to the CStrings above.
            LLVMDisposeMessage(cpu);
            LLVMDisposeMessage(features);
        }
        result
    }
}

/// The C type of a port's elements.
fn c_type(port: &Port) -> &'static str {
    port.dtype.c_type()
}

/// The bundle's C header.
fn header(
    name: &str,
    model: &Path,
    sizes: [u64; 3],
    ports: &[(&str, &Port, u64)],
    errors: &[String],
) -> String {
    let upper = name.to_uppercase();
    let [constant, mutable, activations] = sizes;
    let mut text = format!(
        "// Bundle '{name}' generated by glow-compile from {model}.\n\
         // Link {name}.o with -lm. Load {name}.weights ({constant} bytes) into a buffer\n\
         // of {upper}_CONSTANT_WEIGHTS_SIZE bytes; write inputs at their offsets in the\n\
         // mutable weights, call {name}(), read outputs at theirs. All buffers must be\n\
         // {upper}_ALIGNMENT-byte aligned. The bundle allocates no memory.\n\
         #ifndef {upper}_H\n#define {upper}_H\n\n#include <stdbool.h>\n#include <stdint.h>\n\n\
         #define {upper}_ALIGNMENT 64\n\
         #define {upper}_CONSTANT_WEIGHTS_SIZE {constant}\n\
         #define {upper}_MUTABLE_WEIGHTS_SIZE {mutable}\n\
         #define {upper}_ACTIVATIONS_SIZE {activations}\n\n",
        model = model.display(),
    );
    for (kind, port, offset) in ports {
        let symbol = c_identifier(&port.name).to_uppercase();
        let count: i64 = port.shape.iter().product();
        let dims: Vec<String> = port.shape.iter().map(i64::to_string).collect();
        text += &format!(
            "// {kind} \"{}\": {} [{}]\n\
             #define {upper}_{symbol}_OFFSET {offset}\n\
             #define {upper}_{symbol}_COUNT {count}\n\
             #define {upper}_{symbol}_ELEMENT_SIZE {}\n\
             typedef {} {name}_{}_t;\n\n",
            port.name,
            c_type(port),
            dims.join(", "),
            port.dtype.size(),
            c_type(port),
            c_identifier(&port.name),
        );
    }
    let quoted: Vec<String> = errors
        .iter()
        .map(|e| format!("  \"{}\",\n", e.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect();
    text += &format!(
        "void {name}(uint8_t *constant_weights, uint8_t *mutable_weights, uint8_t *activations);\n\n\
         // The status of the last call, cleared by reading it: 0 when every runtime check\n\
         // passed; otherwise 1 + the index in {name}_errors of the first check that\n\
         // failed (e.g. an index outside its dimension: the outputs are then not\n\
         // meaningful, though every memory access stayed in bounds). One status per\n\
         // bundle: calls from several threads at once share it.\n\
         int {name}_status(void);\n\n\
         #define {upper}_ERROR_COUNT {}\n\
         static const char *const {name}_errors[] = {{\n{}  \"\"\n}};\n\n\
         #endif\n",
        errors.len(),
        quoted.concat()
    );
    text
}

/// The bundle's manifest (`NAME.json`): what the header says, for programs that load
/// bundles without a C compiler's help (the `glow` Python package).
fn manifest(
    name: &str,
    sizes: [u64; 3],
    ports: &[(&str, &Port, u64)],
    errors: &[String],
) -> String {
    let describe = |kind: &str| -> Vec<serde_json::Value> {
        ports
            .iter()
            .filter(|(k, _, _)| *k == kind)
            .map(|(_, port, offset)| {
                serde_json::json!({
                    "name": port.name,
                    "element_type": port.dtype.mlir_name(),
                    "npy_descr": port.dtype.npy_descr(),
                    "element_size": port.dtype.size(),
                    "shape": port.shape,
                    "offset": offset,
                })
            })
            .collect()
    };
    let value = serde_json::json!({
        "format": "glow-bundle",
        "version": 1,
        "name": name,
        "entry": name,
        "status": format!("{name}_status"),
        "object": format!("{name}.o"),
        "weights": format!("{name}.weights"),
        "alignment": 64,
        "constant_weights_size": sizes[0],
        "mutable_weights_size": sizes[1],
        "activations_size": sizes[2],
        "inputs": describe("input"),
        "outputs": describe("output"),
        "errors": errors,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("a JSON value serializes");
    text.push('\n');
    text
}

/// Renames the module's `glow_take_status` to `NAME_status` (the bundle's symbol) and
/// returns the runtime checks' messages (glow-lower-checks).
fn export_status(module: &Module, name: &str) -> Result<Vec<String>> {
    use melior::ir::{
        attribute::{ArrayAttribute, StringAttribute},
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
    Ok(module
        .as_operation()
        .attribute(glow_passes::lower_checks::RUNTIME_ERRORS)
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .map(|array| {
            (0..array.len())
                .filter_map(|i| array.element(i).ok())
                .filter_map(|a| StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_string())
                .collect()
        })
        .unwrap_or_default())
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

fn run(arguments: Arguments) -> Result<()> {
    let context = compiler_context();
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
        int8_kernels: match (&arguments.target_cpu, arguments.quantization.int8_kernels.as_str()) {
            (Some(cpu), "host") => bail!(
                "a bundle for --target-cpu {cpu}: say which int8 kernels it runs with --int8-kernels (amx, avx512-vnni, generic or reference)"
            ),
            (target, _) => arguments.quantization.int8_kernels(target.is_none())?,
        },
        runner_allocator: false,
    };
    let prefix = match arguments.quantization.quantization()? {
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
    let (sizes, offsets) = {
        let function = find_function(&module, &name)?;
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
        (sizes, offsets)
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
    glow_run::outln!(
        "bundle {name}: {} ({} bytes of weights, {} of inputs/outputs, {} of activations)",
        object.display(),
        sizes[0],
        sizes[1],
        sizes[2]
    );
    Ok(())
}

fn main() -> ExitCode {
    glow_dialects::panics::install_hook("glow-compile");
    let arguments = Arguments::parse();
    // MLIR recurses once per nesting level of a .mlir input: work on a stack that holds
    // the deepest nesting accepted (deeper text is refused).
    match glow_dialects::nesting::on_large_stack(move || run(arguments)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("glow-compile: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
