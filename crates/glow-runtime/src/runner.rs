//! Compiling a model for the JIT and calling it: the model is loaded ([`crate::model`]),
//! optionally instrumented or quantized by a pipeline prefix, compiled with Glow's CPU
//! pipeline and MLIR's ExecutionEngine, and called on host tensors.

use crate::{
    model::{
        compiler_context, find_function, load, signature_ports, LoadedModel, ModelSource, Port,
    },
    profiling,
    tensor::{descriptor, HostTensor},
};
use anyhow::{bail, Result};
use glow_passes::CpuPipeline;
use melior::{
    ir::{Attribute, AttributeLike, Module},
    Context, ExecutionEngine,
};
use std::time::{Duration, Instant};

/// MLIR's C runner utilities (memrefCopy ...) from the LLVM the project builds with.
/// The engine reads the path as a C string: the literal keeps a NUL after the text.
const RUNTIME_LIBRARY: &str = concat!(
    env!("MLIR_SYS_220_PREFIX"),
    "/lib/libmlir_c_runner_utils.so\0"
);

/// LLVM's OpenMP runtime, which multi-threaded code calls (Debian's libomp-22-dev).
const OPENMP_LIBRARY: &str = concat!(env!("MLIR_SYS_220_PREFIX"), "/lib/libomp.so");

/// Loads the OpenMP runtime into the process with its symbols global, where the JIT's
/// symbol lookup finds them (`__kmpc_fork_call` & co.).
fn load_openmp() -> Result<()> {
    // Idle workers spin 200 ms by default before sleeping, which takes the CPU from
    // other processes on a busy machine; 1 ms still bridges consecutive operations.
    if std::env::var_os("KMP_BLOCKTIME").is_none() {
        // SAFETY: set before the runtime starts and before any other thread reads the
        // environment (the compile runs on one thread).
        unsafe { std::env::set_var("KMP_BLOCKTIME", "1") };
    }
    let path = std::ffi::CString::new(OPENMP_LIBRARY).expect("no NUL in the path");
    // SAFETY: dlopen of a shared library by path; the handle stays open for the process.
    let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
    if handle.is_null() {
        bail!("more than one thread needs LLVM's OpenMP runtime {OPENMP_LIBRARY}: run scripts/bootstrap.sh (it installs libomp-22-dev)");
    }
    Ok(())
}

/// How to compile.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// Passes run before the CPU pipeline (profiling or quantization), in MLIR's
    /// pipeline syntax, on `builtin.module`.
    pub prefix: Option<String>,
    /// The CPU pipeline's choices.
    pub pipeline: CpuPipeline,
}

/// A model compiled for the JIT.
pub struct Compiled {
    engine: ExecutionEngine,
    /// Returns and clears the error status of the last call (glow-lower-checks).
    take_status: extern "C" fn() -> i32,
    /// The runtime checks' messages, by status - 1.
    errors: Vec<String>,
    function: String,
    /// Input ports.
    pub inputs: Vec<Port>,
    /// Output ports.
    pub outputs: Vec<Port>,
    /// The timed layers' names (`glow.layers`), when the pipeline timed layers.
    pub layers: Vec<String>,
    /// Profiled values (id, name) and the graph hash, when the prefix profiled.
    pub profiled: (Vec<(i64, String)>, Option<String>),
    /// Load, pipeline and code generation time.
    pub compile_time: Duration,
}

/// A fresh compiler context (every dialect, pass and translation registered).
pub fn context() -> Context {
    compiler_context()
}

/// Loads and compiles `source` in `context`; `inspect` sees the module after the
/// prefix (before the CPU pipeline lowers it).
pub fn compile(
    context: &Context,
    source: &ModelSource,
    options: &CompileOptions,
    inspect: &mut dyn FnMut(&Module),
) -> Result<Compiled> {
    let started = Instant::now();
    let LoadedModel {
        mut module,
        input_names,
        output_names,
    } = load(context, source)?;
    let function = find_function(&module, source.function)?;
    let (inputs, outputs) = signature_ports(function, &input_names, &output_names)?;
    // SAFETY: setting a unit attribute on a live op of this context.
    unsafe {
        let name = melior::StringRef::new("llvm.emit_c_interface");
        mlir_sys::mlirOperationSetAttributeByName(
            function.to_raw(),
            name.to_raw(),
            Attribute::unit(context).to_raw(),
        );
    }
    if let Some(prefix) = &options.prefix {
        glow_passes::run_pipeline(&mut module, &format!("builtin.module({prefix})"))?;
    }
    let profiled = profiling::profiled_values(&module);
    inspect(&module);
    glow_passes::run_pipeline(
        &mut module,
        &format!(
            "builtin.module({})",
            // This runner provides the allocation functions (crate::allocation).
            CpuPipeline {
                runner_allocator: true,
                ..options.pipeline
            }
            .jit()
        ),
    )?;
    // memref.copy lowers to a call to MLIR's runtime (memrefCopy).
    let runtime = RUNTIME_LIBRARY.trim_end_matches('\0');
    if !std::path::Path::new(runtime).exists() {
        bail!("MLIR's runtime library {runtime} is missing: run scripts/bootstrap.sh");
    }
    let errors = runtime_errors(&module);
    let layers = string_array(&module, glow_passes::layer_timing::LAYERS);
    if options.pipeline.threads > 1 {
        load_openmp()?;
    }
    let engine = ExecutionEngine::new(&module, 2, &[runtime], false, false);
    profiling::register(&engine);
    crate::layer_timing::register(&engine);
    crate::allocation::register(&engine);
    // LLVM generates code when a symbol is first looked up: do it now, so the compile
    // time includes code generation and the first run does not.
    if engine
        .lookup(&format!("_mlir_{}", source.function))
        .is_null()
    {
        bail!(
            "the compiled module has no entry point @{}",
            source.function
        );
    }
    let status = engine.lookup(glow_passes::lower_checks::TAKE_STATUS);
    if status.is_null() {
        bail!("internal error: the compiled module has no error status (glow-lower-checks did not run)");
    }
    // SAFETY: glow-lower-checks defines glow_take_status as `() -> i32` with the C
    // calling convention; the engine keeps the code alive as long as `Compiled`.
    let take_status = unsafe { std::mem::transmute::<*mut (), extern "C" fn() -> i32>(status) };
    Ok(Compiled {
        engine,
        take_status,
        errors,
        layers,
        function: source.function.to_string(),
        inputs,
        outputs,
        profiled,
        compile_time: started.elapsed(),
    })
}

impl Compiled {
    /// Calls the model `repeat` times on `inputs` (checked against the signature) and
    /// returns its outputs and the median call time.
    pub fn run(
        &self,
        inputs: &mut [HostTensor],
        repeat: usize,
    ) -> Result<(Vec<HostTensor>, Duration)> {
        for (tensor, port) in inputs.iter().zip(&self.inputs) {
            if tensor.dtype != port.dtype || tensor.shape != port.shape {
                bail!(
                    "input '{}' is {:?} {:?}, the model expects {:?} {:?}",
                    port.name,
                    tensor.dtype,
                    tensor.shape,
                    port.dtype,
                    port.shape
                );
            }
        }
        if inputs.len() != self.inputs.len() {
            bail!(
                "{} inputs given, the model takes {}",
                inputs.len(),
                self.inputs.len()
            );
        }
        // Memref descriptors: inputs point at host data; results are written by the callee.
        let mut descriptors: Vec<Vec<i64>> = inputs
            .iter_mut()
            .map(|t| descriptor(t.words.as_mut_ptr().cast::<u8>(), &t.shape))
            .collect();
        let result_words: usize = self.outputs.iter().map(|p| 3 + 2 * p.shape.len()).sum();
        let mut results = vec![0i64; result_words.max(1)];
        let mut times = Vec::new();
        // Keep freed memory in the process (no mmap per large buffer, no trimming): the
        // compiled code allocates its buffers on every run, and returning them to the OS
        // would make each run pay page faults for memory it touched the run before.
        // SAFETY: mallopt only tunes glibc's allocator.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 30);
            libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        }
        for run in 0..repeat.max(1) {
            if run > 0 {
                // SAFETY: the previous run's results were allocated by the compiled
                // code with malloc and are not read any more.
                unsafe { free_results(&results, &self.outputs) };
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
            // SAFETY: the packed arguments follow _mlir_ciface_<function>'s signature:
            // a pointer to the results' descriptors, then one descriptor per input.
            unsafe { self.engine.invoke_packed(&self.function, &mut packed) }
                .map_err(|e| anyhow::anyhow!("running @{}: {e}", self.function))?;
            times.push(start.elapsed());
            let status = (self.take_status)();
            if status != 0 {
                // SAFETY: this run's results are not read.
                unsafe { free_results(&results, &self.outputs) };
                let message = usize::try_from(status - 1)
                    .ok()
                    .and_then(|i| self.errors.get(i))
                    .map_or("an unknown runtime check failed", String::as_str);
                bail!("the model refused its input: {message}");
            }
        }
        times.sort();
        let median = times[times.len() / 2];
        let produced = self.read_results(&results);
        // SAFETY: the results were copied into `produced`.
        unsafe { free_results(&results, &self.outputs) };
        Ok((produced, median))
    }

    /// The results (strided descriptors) copied into host tensors.
    fn read_results(&self, results: &[i64]) -> Vec<HostTensor> {
        let mut offset = 0;
        let mut produced = Vec::new();
        for port in &self.outputs {
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
                // SAFETY: the descriptor returned by the compiled code covers these
                // elements.
                let source = unsafe {
                    std::slice::from_raw_parts(aligned.add(element as usize * size), size)
                };
                bytes.extend_from_slice(source);
            }
            produced.push(HostTensor::from_bytes(sizes.to_vec(), port.dtype, &bytes));
        }
        produced
    }
}

/// The messages of the module's runtime checks (`glow.runtime_errors`), by number - 1.
fn runtime_errors(module: &melior::ir::Module) -> Vec<String> {
    string_array(module, glow_passes::lower_checks::RUNTIME_ERRORS)
}

/// The strings of the module's array attribute `name` (empty when absent).
pub fn string_array(module: &melior::ir::Module, name: &str) -> Vec<String> {
    use melior::ir::{
        attribute::{ArrayAttribute, StringAttribute},
        operation::OperationLike,
    };
    module
        .as_operation()
        .attribute(name)
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .map(|array| {
            (0..array.len())
                .filter_map(|i| array.element(i).ok())
                .filter_map(|a| StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_string())
                .collect()
        })
        .unwrap_or_default()
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
