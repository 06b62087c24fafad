//! `glow-run MODEL [--input-shape name=AxBxC]... [--input name=x.npy]... [--output-dir DIR]`:
//! JIT-compiles an ONNX model or a glow.graph `.mlir` module with Glow's CPU pipeline
//! (MLIR's ExecutionEngine), runs it on `.npy` inputs (seeded random data for inputs
//! not given), writes every output to `DIR/<name>.npy`, and prints a summary with
//! shapes, checksums and compile / run times (`--repeat N`: median of N runs).

use anyhow::{bail, Context as _, Result};
use clap::Parser;
use glow_run::{
    model::{
        compiler_context, file_name, find_function, load, signature_ports, LoadedModel,
        ModelSource, Port,
    },
    tensor::{descriptor, HostTensor},
};
use melior::{
    ir::{Attribute, AttributeLike},
    ExecutionEngine,
};
use std::{collections::HashMap, path::PathBuf, process::ExitCode, time::Instant};

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
    /// Bind an ONNX input to constant data from a TensorProto `.pb` file (repeatable),
    /// as glow-import's --freeze-input.
    #[arg(long = "freeze-input", value_name = "NAME=FILE.pb")]
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
}

/// MLIR's C runner utilities (memrefCopy ...) from the LLVM the project builds with.
/// The engine reads the path as a C string: the literal keeps a NUL after the text.
const RUNTIME_LIBRARY: &str = concat!(
    env!("MLIR_SYS_220_PREFIX"),
    "/lib/libmlir_c_runner_utils.so\0"
);

fn run(arguments: Arguments) -> Result<()> {
    let context = compiler_context();

    let started = Instant::now();
    let LoadedModel {
        mut module,
        input_names,
        output_names,
    } = load(
        &context,
        &ModelSource {
            path: &arguments.model,
            input_shapes: &arguments.input_shapes,
            inputs: &arguments.inputs,
            frozen_inputs: &arguments.frozen_inputs,
            function: &arguments.function,
        },
    )?;
    let function = find_function(&module, &arguments.function)?;
    let (inputs, outputs) = signature_ports(function, &input_names, &output_names)?;
    // SAFETY: setting a unit attribute on a live op of this context.
    unsafe {
        let name = melior::StringRef::new("llvm.emit_c_interface");
        mlir_sys::mlirOperationSetAttributeByName(
            function.to_raw(),
            name.to_raw(),
            Attribute::unit(&context).to_raw(),
        );
    }

    glow_passes::run_pipeline(&mut module, "builtin.module(glow-cpu-pipeline)")?;
    // memref.copy lowers to a call to MLIR's runtime (memrefCopy).
    let runtime = RUNTIME_LIBRARY.trim_end_matches('\0');
    if !std::path::Path::new(runtime).exists() {
        bail!("MLIR's runtime library {runtime} is missing: run scripts/bootstrap.sh");
    }
    let engine = ExecutionEngine::new(&module, 2, &[runtime], false, false);
    // LLVM generates code when a symbol is first looked up: do it now, so the compile
    // time includes code generation and the first run does not.
    if engine
        .lookup(&format!("_mlir_{}", arguments.function))
        .is_null()
    {
        bail!(
            "the compiled module has no entry point @{}",
            arguments.function
        );
    }
    let compile_time = started.elapsed();

    // Inputs: .npy files or seeded random data, checked against the signature.
    let mut given: HashMap<String, PathBuf> = HashMap::new();
    for text in &arguments.inputs {
        let (name, path) = text
            .split_once('=')
            .with_context(|| format!("--input '{text}' is not NAME=FILE.npy"))?;
        if !inputs.iter().any(|p| p.name == name) {
            let known: Vec<&str> = inputs.iter().map(|p| p.name.as_str()).collect();
            bail!(
                "--input names '{name}', which is not an input (inputs: {})",
                known.join(", ")
            );
        }
        given.insert(name.to_string(), PathBuf::from(path));
    }
    let mut data: Vec<HostTensor> = Vec::new();
    for (i, port) in inputs.iter().enumerate() {
        let tensor = match given.get(&port.name) {
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
                tensor
            }
            None => HostTensor::random(
                port.shape.clone(),
                port.dtype,
                arguments.seed.wrapping_add(i as u64),
            ),
        };
        data.push(tensor);
    }

    // Memref descriptors: inputs point at host data; results are written by the callee.
    let mut descriptors: Vec<Vec<i64>> = data
        .iter_mut()
        .map(|t| descriptor(t.words.as_mut_ptr().cast::<u8>(), &t.shape))
        .collect();
    let result_words: usize = outputs.iter().map(|p| 3 + 2 * p.shape.len()).sum();
    let mut results = vec![0i64; result_words.max(1)];
    let mut times = Vec::new();
    // Keep freed memory in the process (no mmap per large buffer, no trimming): the
    // compiled code allocates its buffers on every run, and returning them to the OS
    // would make each run pay page faults for memory it touched the run before.
    // SAFETY: mallopt only tunes glibc's allocator; called before the runs.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
    for run in 0..arguments.repeat.max(1) {
        if run > 0 {
            // SAFETY: the previous run's results were allocated by the compiled code
            // with malloc and are not read any more.
            unsafe { free_results(&results, &outputs) };
        }
        let mut result_pointer = results.as_mut_ptr();
        let mut descriptor_pointers: Vec<*mut i64> =
            descriptors.iter_mut().map(|d| d.as_mut_ptr()).collect();
        let mut packed: Vec<*mut ()> = vec![(&mut result_pointer as *mut *mut i64).cast()];
        packed.extend(
            descriptor_pointers
                .iter_mut()
                .map(|p| (p as *mut *mut i64).cast::<()>()),
        );
        let start = Instant::now();
        // SAFETY: the packed arguments follow _mlir_ciface_<function>'s signature: a
        // pointer to the results' descriptors, then one descriptor pointer per input.
        unsafe { engine.invoke_packed(&arguments.function, &mut packed) }
            .map_err(|e| anyhow::anyhow!("running @{}: {e}", arguments.function))?;
        times.push(start.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];

    // Read the results (strided descriptors) back into host tensors.
    let mut offset = 0;
    let mut produced = Vec::new();
    for port in &outputs {
        let rank = port.shape.len();
        let words = &results[offset..offset + 3 + 2 * rank];
        offset += 3 + 2 * rank;
        let (aligned, base) = (words[1] as *const u8, words[2]);
        let (sizes, strides) = (&words[3..3 + rank], &words[3 + rank..3 + 2 * rank]);
        let count = sizes.iter().product::<i64>() as usize;
        let size = port.dtype.size();
        let mut bytes = Vec::with_capacity(count * size);
        for index in 0..count {
            let mut remaining = index;
            let mut element = base;
            for d in (0..rank).rev() {
                let extent = sizes[d] as usize;
                element += (remaining % extent) as i64 * strides[d];
                remaining /= extent;
            }
            // SAFETY: the descriptor returned by the compiled code covers these elements.
            let source =
                unsafe { std::slice::from_raw_parts(aligned.add(element as usize * size), size) };
            bytes.extend_from_slice(source);
        }
        produced.push(HostTensor::from_bytes(sizes.to_vec(), port.dtype, &bytes));
    }

    // SAFETY: the results were copied into `produced`.
    unsafe { free_results(&results, &outputs) };

    if let Some(folder) = &arguments.output_dir {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create '{}'", folder.display()))?;
        for (port, tensor) in outputs.iter().zip(&produced) {
            tensor.write_npy(&folder.join(format!("{}.npy", file_name(&port.name))))?;
        }
    }
    println!(
        "{:<24} {:<20} {:>16} {:>16}",
        "output", "shape", "sum", "sum |x|"
    );
    for (port, tensor) in outputs.iter().zip(&produced) {
        let values = tensor.values();
        let shape = tensor
            .shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        println!(
            "{:<24} {:<20} {:>16.6e} {:>16.6e}",
            port.name,
            shape,
            values.iter().sum::<f64>(),
            values.iter().map(|v| v.abs()).sum::<f64>()
        );
    }
    println!(
        "compile {:.3} s, run {:.3} ms ({} run{}, median)",
        compile_time.as_secs_f64(),
        median.as_secs_f64() * 1e3,
        times.len(),
        if times.len() == 1 { "" } else { "s" }
    );
    Ok(())
}

fn main() -> ExitCode {
    match run(Arguments::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("glow-run: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Frees the buffers the compiled code allocated for its results (each allocation
/// once, however many results share it): the caller owns returned memrefs.
///
/// # Safety
/// `results` holds the descriptors the last run wrote, none of them freed yet or read
/// afterwards.
unsafe fn free_results(results: &[i64], outputs: &[Port]) {
    let mut offset = 0;
    let mut freed = std::collections::HashSet::new();
    for port in outputs {
        let allocated = results[offset] as *mut libc::c_void;
        offset += 3 + 2 * port.shape.len();
        if !allocated.is_null() && freed.insert(allocated as usize) {
            // SAFETY: per the contract, a live malloc'ed buffer freed exactly once.
            unsafe { libc::free(allocated) };
        }
    }
}
