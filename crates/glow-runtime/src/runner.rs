//! Compiling a model for the JIT and calling it: the model is loaded ([`crate::model`]),
//! optionally instrumented or quantized by a pipeline prefix, compiled with Glow's CPU
//! pipeline, its kernels compiled by LLVM on every core ([`crate::codegen`]) and linked
//! by ORC ([`crate::jit`]), and called on host tensors.

use crate::{
    codegen::split_objects,
    jit::Jit,
    model::{
        compiler_context, find_function, load, rename_function, signature_ports, LoadedModel,
        ModelSource, Port,
    },
    planned::{compile_planned, AlignedBytes, MemoryPlan, Planned, WeightsTarget},
    profiling,
    resident::Stages,
    tensor::HostTensor,
};
use anyhow::{bail, Result};
use glow_passes::CpuPipeline;
use inkwell::OptimizationLevel;
use melior::{ir::Module, Context};
use std::time::{Duration, Instant};

/// LLVM's OpenMP runtime, which multi-threaded code calls (Debian's libomp-22-dev).
pub const OPENMP_LIBRARY: &str = concat!(env!("MLIR_SYS_220_PREFIX"), "/lib/libomp.so");

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
    /// The largest activation arena accepted, in bytes (0: no limit).
    pub arena_limit: u64,
}

/// The three buffers of a planned model: constant weights, inputs and outputs,
/// activations. Allocated once per compiled model; every run writes into them.
struct Buffers {
    constant: AlignedBytes,
    mutable: AlignedBytes,
    activations: AlignedBytes,
}

/// A model compiled for the JIT.
pub struct Compiled {
    _jit: Jit,
    /// The entry point: `void f(uint8_t *constant, uint8_t *mutable, uint8_t *activations)`.
    entry: extern "C" fn(*mut u8, *mut u8, *mut u8),
    /// Returns and clears the error status of the last call (glow-lower-checks).
    take_status: extern "C" fn() -> i32,
    /// The runtime checks' messages, by status - 1.
    errors: Vec<String>,
    buffers: std::sync::Mutex<Buffers>,
    /// The memory plan.
    pub memory: MemoryPlan,
    /// Peak resident memory after each compile stage.
    pub memory_stages: Stages,
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

/// The name the entry function is compiled under (the JIT's own symbol).
const ENTRY: &str = "model_entry";

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
    let mut stages = Stages::starting(started);
    stages.record("import");
    let function = find_function(&module, source.function)?;
    let (inputs, outputs) = signature_ports(function, &input_names, &output_names)?;
    if let Some(prefix) = &options.prefix {
        glow_passes::run_pipeline(&mut module, &format!("builtin.module({prefix})"))?;
    }
    let profiled = profiling::profiled_values(&module);
    inspect(&module);
    rename_function(find_function(&module, source.function)?, ENTRY);
    let Planned { memory, weights } = compile_planned(
        &mut module,
        &options.pipeline,
        ENTRY,
        options.arena_limit,
        WeightsTarget::Memory,
        &mut stages,
    )?;
    let weights = weights.ok_or_else(|| anyhow::anyhow!("the weights image was not made"))?;
    let errors = runtime_errors(&module);
    let layers = string_array(&module, glow_passes::layer_timing::LAYERS);
    if options.pipeline.threads > 1 {
        load_openmp()?;
    }
    let recorders = profiling::recorder_symbols(&module);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let exported = [ENTRY, glow_passes::lower_checks::TAKE_STATUS];
    let objects = split_objects(&module, &exported, threads, OptimizationLevel::Default)?;
    drop(module);
    let mut host = profiling::symbols(&recorders);
    host.extend(crate::layer_timing::symbols());
    let jit = Jit::new(&objects, &host)?;
    drop(objects);
    let entry = jit.lookup(ENTRY)?;
    let status = jit.lookup(glow_passes::lower_checks::TAKE_STATUS)?;
    // SAFETY: glow-lower-checks defines glow_take_status as `() -> i32` and the planned
    // entry point takes three byte pointers, both with the C calling convention; the
    // JIT keeps the code alive as long as `Compiled`.
    let (take_status, entry) = unsafe {
        (
            std::mem::transmute::<*mut (), extern "C" fn() -> i32>(status),
            std::mem::transmute::<*mut (), extern "C" fn(*mut u8, *mut u8, *mut u8)>(entry),
        )
    };
    let buffers = Buffers {
        constant: weights,
        mutable: AlignedBytes::zeroed(memory.mutable_size, "inputs and outputs")?,
        activations: AlignedBytes::zeroed(memory.activations_size, "activations")?,
    };
    stages.record("code generation");
    Ok(Compiled {
        memory_stages: stages,
        _jit: jit,
        entry,
        take_status,
        errors,
        buffers: std::sync::Mutex::new(buffers),
        memory,
        layers,
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
        let mut buffers = self
            .buffers
            .lock()
            .map_err(|_| anyhow::anyhow!("an earlier run of this model panicked"))?;
        let Buffers {
            constant,
            mutable,
            activations,
        } = &mut *buffers;
        for (tensor, offset) in inputs.iter().zip(&self.memory.mutable_offsets) {
            let bytes = tensor.bytes();
            let start = *offset as usize;
            mutable.bytes_mut()[start..start + bytes.len()].copy_from_slice(bytes);
        }
        let mut times = Vec::new();
        for _ in 0..repeat.max(1) {
            let start = Instant::now();
            (self.entry)(
                constant.bytes_mut().as_mut_ptr(),
                mutable.bytes_mut().as_mut_ptr(),
                activations.bytes_mut().as_mut_ptr(),
            );
            times.push(start.elapsed());
            let status = (self.take_status)();
            if status != 0 {
                let message = usize::try_from(status - 1)
                    .ok()
                    .and_then(|i| self.errors.get(i))
                    .map_or("an unknown runtime check failed", String::as_str);
                bail!("the model refused its input: {message}");
            }
        }
        times.sort();
        let median = times[times.len() / 2];
        let produced = self
            .outputs
            .iter()
            .zip(&self.memory.mutable_offsets[self.inputs.len()..])
            .map(|(port, offset)| {
                let count = port.shape.iter().product::<i64>() as usize;
                let start = *offset as usize;
                let bytes = &mutable.bytes_mut()[start..start + count * port.dtype.size()];
                HostTensor::from_bytes(port.shape.clone(), port.dtype, bytes)
            })
            .collect();
        Ok((produced, median))
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
