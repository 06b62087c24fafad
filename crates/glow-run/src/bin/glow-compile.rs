//! `glow-compile MODEL -o DIR [--name NAME] [--input-shape name=AxBxC]...
//! [--load-profile P.yaml ...] [--target-cpu CPU --int8-kernels KIND] [--threads N]`:
//! ahead-of-time compilation into a bundle (`DIR/NAME.o`, `.weights`, `.h`, `.json`), a command-line
//! front end on `glow_runtime::compile_bundle`, which documents the bundle.

use anyhow::{bail, Result};
use clap::Parser;
use glow_run::options::QuantizationOptions;
use glow_runtime::{compile_bundle, BundleRequest};
use std::{path::PathBuf, process::ExitCode};

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
    /// Bind an ONNX input to constant data from a TensorProto `.pb` or numpy `.npy` file (repeatable).
    #[arg(long = "freeze-input", value_name = "NAME=FILE")]
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
    /// Print the memory plan: `activations: planned N bytes, lower bound M bytes`
    /// (the lower bound is the most bytes alive at one time), then the unshared
    /// total, the placement strategy, the weight bytes and the largest buffers alive
    /// at the peak.
    #[arg(long)]
    memory_report: bool,
    /// Print how long each compile stage took: import, the graph stages, the buffer
    /// pipeline, weight extraction, lowering to LLVM, code generation (the object
    /// file).
    #[arg(long)]
    compile_report: bool,
    /// Draw the activation arena (instructions left to right, offsets bottom to top,
    /// one rectangle per buffer, a red line at the lower bound) into this PNG file.
    #[arg(long, value_name = "FILE.png")]
    memory_plot: Option<PathBuf>,
    /// Refuse models in which one tensor would exceed this many bytes.
    #[arg(long, default_value_t = glow_onnx::DEFAULT_MAX_TENSOR_BYTES)]
    max_tensor_bytes: u64,
    /// Refuse models whose planned activation arena would exceed this many bytes
    /// (0: no limit).
    #[arg(long, default_value_t = 0)]
    max_arena_bytes: u64,
    /// Keep 3x3 stride-1 f32 convolutions direct (no Winograd F(2x2, 3x3) kernels;
    /// results then round like the reference convolution's).
    #[arg(long)]
    no_winograd: bool,
    /// Threads the bundle's kernels run on: 1 (the default) is sequential code on the
    /// caller's thread; more runs each operation's tiles on that many OpenMP threads,
    /// and the program must link LLVM's OpenMP runtime (the header says how).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
}

fn run(arguments: Arguments) -> Result<()> {
    if let (Some(cpu), "host") = (
        &arguments.target_cpu,
        arguments.quantization.int8_kernels.as_str(),
    ) {
        bail!(
            "a bundle for --target-cpu {cpu}: say which int8 kernels it runs with --int8-kernels (amx, avx512-vnni, generic or reference)"
        );
    }
    let memory_report = arguments.memory_report;
    let compile_report = arguments.compile_report;
    let memory_plot = arguments.memory_plot.clone();
    let summary = compile_bundle(&BundleRequest {
        int8_kernels: arguments
            .quantization
            .int8_kernels(arguments.target_cpu.is_none())?,
        int8_kernels_name: arguments.quantization.int8_kernels.clone(),
        quantization: arguments.quantization.quantization()?,
        model: arguments.model,
        output_dir: arguments.output_dir,
        name: arguments.name,
        input_shapes: arguments.input_shapes,
        frozen_inputs: arguments.frozen_inputs,
        function: arguments.function,
        max_tensor_bytes: arguments.max_tensor_bytes,
        arena_limit: arguments.max_arena_bytes,
        target_cpu: arguments.target_cpu,
        no_winograd: arguments.no_winograd,
        threads: arguments.threads,
    })?;
    glow_run::outln!(
        "bundle {}: {} ({} bytes of weights, {} of inputs/outputs, {} of activations)",
        summary.name,
        summary.object.display(),
        summary.constant_weights_size,
        summary.mutable_weights_size,
        summary.activations_size
    );
    if compile_report {
        glow_run::outln!("{}", summary.memory_stages.timing_report());
    }
    if memory_report {
        glow_run::outln!("{}", summary.memory_report().trim_end());
    }
    if let Some(path) = &memory_plot {
        glow_runtime::memory_plot::write(&summary.memory, path)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    glow_dialects::panics::install_hook("glow-compile");
    glow_dialects::process_memory::prepare_tool_process();
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
