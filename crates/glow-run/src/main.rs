//! `glow-run MODEL [--input-shape name=AxBxC]... [--input name=x.npy]... [--output-dir DIR]`:
//! JIT-compiles an ONNX model or a glow.graph `.mlir` module with Glow's CPU pipeline
//! (LLVM on every core, linked by ORC), runs it on `.npy` inputs (seeded random data for inputs
//! not given), writes every output to `DIR/<name>.npy`, and prints a summary with
//! shapes, checksums and compile / run times (`--repeat N`: median of N runs).
//!
//! Quantization, as Glow's tools offered it: `--calibration CALIB.npz --dump-profile
//! P.yaml` runs the model once per calibration sample and writes the profile;
//! `--load-profile P.yaml` runs the model quantized from it (`--quantization-schema`,
//! `--quantization-calibration`, `--keep-float`, ...); `--quantization-report` adds a
//! per-layer table of parameters and SQNR against the float model.

use anyhow::{bail, Context as _, Result};
use clap::Parser;
use glow_passes::{
    pipelines::{profiling_prefix, Quantization},
    CpuPipeline,
};
use glow_run::options::QuantizationOptions;
use glow_runtime::{
    calibration::CalibrationSet,
    model::{file_name, ModelSource, Port},
    profiling, report,
    runner::{compile, context, CompileOptions, Compiled},
    tensor::HostTensor,
};
use std::{
    collections::HashMap,
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

#[derive(Parser)]
#[command(
    name = "glow-run",
    version,
    about = "JIT-compile and run a model with Glow's CPU pipeline"
)]
struct Arguments {
    /// An .onnx model or a .mlir module with a glow.graph function.
    model: PathBuf,
    /// Static shape of an ONNX input, e.g. `input=1x3x224x224` (repeatable).
    #[arg(long = "input-shape", value_name = "NAME=DIMS")]
    input_shapes: Vec<String>,
    /// Input data, `name=file.npy` (repeatable); other inputs get seeded random data.
    #[arg(long = "input", value_name = "NAME=FILE")]
    inputs: Vec<String>,
    /// Bind an ONNX input to constant data from a TensorProto `.pb` or numpy `.npy` file
    /// (repeatable), as glow-import's --freeze-input.
    #[arg(long = "freeze-input", value_name = "NAME=FILE")]
    frozen_inputs: Vec<String>,
    /// Folder for `<output name>.npy` files.
    #[arg(long)]
    output_dir: Option<PathBuf>,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run this many times and report the median run time.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// The function to run.
    #[arg(long, default_value = "main")]
    function: String,
    /// Threads the compiled code runs on (OpenMP over each operation's tiles); default:
    /// every core; 1 runs plain sequential code on exactly one core.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Refuse models in which one tensor would exceed this many bytes.
    #[arg(long, default_value_t = glow_onnx::DEFAULT_MAX_TENSOR_BYTES)]
    max_tensor_bytes: u64,
    /// Refuse models whose planned activation arena would exceed this many bytes
    /// (0: no limit).
    #[arg(long, default_value_t = 0)]
    max_arena_bytes: u64,
    /// Print the memory plan after the run: `activations: planned N bytes, lower bound
    /// M bytes` (the lower bound is the most bytes alive at one time), then the
    /// unshared total, the placement strategy, the weight bytes and the largest
    /// buffers alive at the peak.
    #[arg(long)]
    memory_report: bool,
    /// Print how long each compile stage took: import, the graph stages, the buffer
    /// pipeline (linalg, tiling, vectorization, bufferization, the instruction IR and
    /// memory plan), weight extraction, lowering to LLVM, code generation. Not with
    /// --calibration or --quantization-report, which compile several models.
    #[arg(long, conflicts_with_all = ["calibration", "quantization_report"])]
    compile_report: bool,
    /// Draw the activation arena (instructions left to right, offsets bottom to top,
    /// one rectangle per buffer, a red line at the lower bound) into this PNG file.
    #[arg(long, value_name = "FILE.png")]
    memory_plot: Option<PathBuf>,
    /// Profiling: a calibration set (.npz mapping each input name to samples x shape);
    /// the model runs once per sample. Needs --dump-profile.
    #[arg(long, value_name = "CALIB.npz", requires = "dump_profile")]
    calibration: Option<PathBuf>,
    /// Profiling: where to write the profile (YAML). Needs --calibration.
    #[arg(
        long,
        value_name = "PROFILE.yaml",
        requires = "calibration",
        conflicts_with = "load_profile"
    )]
    dump_profile: Option<PathBuf>,
    /// Profiling: histogram bins per value.
    #[arg(long, default_value_t = 2048)]
    profile_bins: i64,
    #[command(flatten)]
    quantization: QuantizationOptions,
    /// With --load-profile: print each quantized layer's parameters and its SQNR
    /// against the float model on the same input, worst first.
    #[arg(long, requires = "load_profile")]
    quantization_report: bool,
    /// Time each top-level operation of the compiled model (a convolution's tile loop,
    /// a fused elementwise chain, ...) over the runs and print the 20 slowest with
    /// their share (the timing calls add a little time of their own).
    #[arg(long)]
    profile_layers: bool,
    /// With --profile-layers: how many of the slowest operations to list (0: all).
    #[arg(long, default_value_t = 20, requires = "profile_layers")]
    profile_top: usize,
    /// Keep 3x3 stride-1 f32 convolutions direct (no Winograd F(2x2, 3x3) kernels;
    /// results then round like the reference convolution's).
    #[arg(long)]
    no_winograd: bool,
}

impl Arguments {
    fn source(&self) -> ModelSource<'_> {
        ModelSource {
            path: &self.model,
            input_shapes: &self.input_shapes,
            inputs: &self.inputs,
            frozen_inputs: &self.frozen_inputs,
            function: &self.function,
            max_tensor_bytes: self.max_tensor_bytes,
        }
    }

    fn pipeline(&self) -> Result<CpuPipeline> {
        Ok(CpuPipeline {
            int8_kernels: self.quantization.int8_kernels(true)?,
            threads: self.threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
            }),
            time_layers: self.profile_layers,
            no_winograd: self.no_winograd,
        })
    }

    fn quantization(&self) -> Result<Option<Quantization>> {
        self.quantization.quantization()
    }
}

/// The model's inputs: the `.npy` files given, seeded random data for the others.
fn inputs(compiled: &Compiled, arguments: &Arguments) -> Result<Vec<HostTensor>> {
    let mut given: HashMap<String, PathBuf> = HashMap::new();
    for text in &arguments.inputs {
        let (name, path) = text
            .split_once('=')
            .with_context(|| format!("--input '{text}' is not NAME=FILE.npy"))?;
        if !compiled.inputs.iter().any(|p| p.name == name) {
            let known: Vec<&str> = compiled.inputs.iter().map(|p| p.name.as_str()).collect();
            bail!(
                "--input names '{name}', which is not an input (inputs: {})",
                known.join(", ")
            );
        }
        given.insert(name.to_string(), PathBuf::from(path));
    }
    compiled
        .inputs
        .iter()
        .enumerate()
        .map(|(i, port)| match given.get(&port.name) {
            Some(path) => {
                let tensor = HostTensor::read_npy(path)?;
                if tensor.dtype != port.dtype || tensor.shape != port.shape {
                    bail!(
                        "input '{}': '{}' holds {:?} {:?}, the model expects {:?} {:?}",
                        port.name,
                        path.display(),
                        tensor.dtype,
                        tensor.shape,
                        port.dtype,
                        port.shape
                    );
                }
                Ok(tensor)
            }
            None => Ok(HostTensor::random(
                port.shape.clone(),
                port.dtype,
                arguments.seed.wrapping_add(i as u64),
            )),
        })
        .collect()
}

fn summary_line(compile_time: Duration, median: Duration, runs: usize) {
    glow_run::outln!(
        "compile {:.3} s, run {:.3} ms ({} run{}, median)",
        compile_time.as_secs_f64(),
        median.as_secs_f64() * 1e3,
        runs,
        if runs == 1 { "" } else { "s" }
    );
}

fn print_outputs(outputs: &[Port], produced: &[HostTensor]) {
    glow_run::outln!(
        "{:<24} {:<20} {:>16} {:>16}",
        "output",
        "shape",
        "sum",
        "sum |x|"
    );
    for (port, tensor) in outputs.iter().zip(produced) {
        let values = tensor.values();
        let shape: Vec<String> = tensor.shape.iter().map(|d| d.to_string()).collect();
        glow_run::outln!(
            "{:<24} {:<20} {:>16.6e} {:>16.6e}",
            port.name,
            shape.join("x"),
            values.iter().sum::<f64>(),
            values.iter().map(|v| v.abs()).sum::<f64>()
        );
    }
}

fn write_outputs(folder: &Path, outputs: &[Port], produced: &[HostTensor]) -> Result<()> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create '{}'", folder.display()))?;
    for (port, tensor) in outputs.iter().zip(produced) {
        tensor.write_npy(&folder.join(format!("{}.npy", file_name(&port.name))))?;
    }
    Ok(())
}

/// Profiling: one run per calibration sample, then the profile file.
fn profile(arguments: &Arguments, calibration: &Path, destination: &Path) -> Result<()> {
    if arguments.profile_bins < 1 {
        bail!("--profile-bins must be positive");
    }
    let context = context();
    let options = CompileOptions {
        prefix: Some(profiling_prefix(arguments.profile_bins)),
        pipeline: arguments.pipeline()?,
        arena_limit: arguments.max_arena_bytes,
    };
    let compiled = compile(&context, &arguments.source(), &options, &mut |_| {})?;
    let set = CalibrationSet::read(calibration, &compiled.inputs)?;
    let (values, hash) = compiled.profiled.clone();
    let hash = hash.context("internal error: glow-profile recorded no graph hash")?;
    profiling::start_histograms(values.len(), arguments.profile_bins as usize);
    let bar = std::io::stderr().is_terminal().then(|| {
        indicatif::ProgressBar::new(set.samples as u64).with_style(
            indicatif::ProgressStyle::with_template(
                "profiling [{bar:30}] {pos}/{len} samples ({elapsed})",
            )
            .expect("valid template"),
        )
    });
    let mut times = Vec::new();
    for sample in 0..set.samples {
        let mut inputs = set.sample(sample, &compiled.inputs);
        let (_, time) = compiled.run(&mut inputs, 1)?;
        times.push(time);
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let profile = profiling::finish_profile(&values, &hash);
    profile.write(destination).map_err(anyhow::Error::msg)?;
    glow_run::outln!(
        "profiled {} values over {} sample{} into '{}'",
        profile.values.len(),
        set.samples,
        if set.samples == 1 { "" } else { "s" },
        destination.display()
    );
    times.sort();
    summary_line(compiled.compile_time, times[times.len() / 2], times.len());
    Ok(())
}

fn quantization_report(arguments: &Arguments, quantization: &Quantization) -> Result<()> {
    let context = context();
    let options = CompileOptions {
        prefix: None,
        pipeline: arguments.pipeline()?,
        arena_limit: arguments.max_arena_bytes,
    };
    // Inputs come from the float model's ports (the same as the quantized model's).
    let probe = compile(&context, &arguments.source(), &options, &mut |_| {})?;
    let mut data = inputs(&probe, arguments)?;
    drop(probe);
    let report::Report {
        layers,
        outputs,
        quantized,
    } = report::run(
        &context,
        &arguments.source(),
        &options,
        quantization,
        &mut data,
    )?;
    glow_run::outln!(
        "{:<40} {:>14} {:>6} {:>8} {:>10}",
        "quantized value",
        "scale",
        "zero",
        "storage",
        "SQNR dB"
    );
    for layer in &layers {
        glow_run::outln!(
            "{:<40} {:>14.6e} {:>6} {:>8} {:>10.2}",
            layer.name,
            layer.scale,
            layer.zero_point,
            layer.storage,
            layer.sqnr
        );
    }
    for (name, sqnr) in &outputs {
        glow_run::outln!("output {name}: SQNR {sqnr:.2} dB against the float model");
    }
    let (_, median) = quantized.run(&mut data, arguments.repeat)?;
    summary_line(quantized.compile_time, median, arguments.repeat.max(1));
    Ok(())
}

fn run(arguments: Arguments) -> Result<()> {
    if let (Some(calibration), Some(destination)) =
        (&arguments.calibration, &arguments.dump_profile)
    {
        return profile(&arguments, calibration, destination);
    }
    let quantization = arguments.quantization()?;
    if arguments.quantization_report {
        let quantization = quantization.context("--quantization-report needs --load-profile")?;
        return quantization_report(&arguments, &quantization);
    }
    let context = context();
    let options = CompileOptions {
        prefix: quantization
            .as_ref()
            .map(Quantization::prefix)
            .transpose()
            .map_err(anyhow::Error::msg)?,
        pipeline: arguments.pipeline()?,
        arena_limit: arguments.max_arena_bytes,
    };
    let compiled = compile(&context, &arguments.source(), &options, &mut |_| {})?;
    let mut data = inputs(&compiled, &arguments)?;
    glow_runtime::layer_timing::reset();
    let (produced, median) = compiled.run(&mut data, arguments.repeat)?;
    if let Some(folder) = &arguments.output_dir {
        write_outputs(folder, &compiled.outputs, &produced)?;
    }
    print_outputs(&compiled.outputs, &produced);
    if arguments.profile_layers {
        for line in glow_runtime::layer_timing::report(
            &compiled.layers,
            arguments.repeat.max(1),
            match arguments.profile_top {
                0 => usize::MAX,
                top => top,
            },
        ) {
            glow_run::outln!("{line}");
        }
    }
    if arguments.compile_report {
        glow_run::outln!("{}", compiled.memory_stages.timing_report());
    }
    if arguments.memory_report {
        glow_run::outln!("{}", compiled.memory.report().trim_end());
        let mut stages = compiled.memory_stages.clone();
        stages.record("the runs");
        glow_run::outln!("{}", stages.report());
    }
    if let Some(path) = &arguments.memory_plot {
        glow_runtime::memory_plot::write(&compiled.memory, path)?;
    }
    summary_line(compiled.compile_time, median, arguments.repeat.max(1));
    Ok(())
}

fn main() -> ExitCode {
    glow_dialects::panics::install_hook("glow-run");
    glow_dialects::process_memory::prepare_tool_process();
    let arguments = Arguments::parse();
    // MLIR recurses once per nesting level of a .mlir input: work on a stack that holds
    // the deepest nesting accepted (deeper text is refused).
    match glow_dialects::nesting::on_large_stack(move || run(arguments)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("glow-run: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
