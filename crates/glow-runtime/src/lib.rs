//! Glow's runtime library: load a model (ONNX or a `.mlir` module with a glow.graph
//! function), JIT-compile it with Glow's CPU pipeline and run it on host tensors, or
//! compile it ahead of time into a bundle. `glow-run` and `glow-compile` are thin
//! command-line front ends on it.
//!
//! ```no_run
//! use glow_runtime::{compile, tensor::HostTensor, Options};
//! let model = compile("model.onnx".as_ref(), &Options {
//!     input_shapes: vec!["input=1x3x224x224".into()],
//!     ..Options::default()
//! })?;
//! let port = &model.inputs()[0];
//! let input = HostTensor::random(port.shape.clone(), port.dtype, 0);
//! let outputs = model.run(&[input])?;
//! # Ok::<(), glow_runtime::Error>(())
//! ```
//!
//! Modules: loading a model and its ports ([`model`]), host tensors with `.npy` I/O
//! ([`tensor`]), the JIT ([`runner`]: LLVM code generation split over the cores,
//! [`codegen`], linked by ORC, [`jit`]), bundles ([`bundle`]), calibration sets
//! ([`calibration`]), the runtime recorder of quantization profiles ([`profiling`]),
//! the per-layer quantization report ([`report`]), and the planned compilation both
//! share ([`planned`]: one arena for the activations, weights held once).

pub mod bundle;
pub mod calibration;
pub mod codegen;
pub mod frozen;
pub mod jit;
pub mod layer_timing;
pub mod memory_plot;
pub mod model;
pub mod planned;
pub mod profiling;
pub mod report;
pub mod resident;
pub mod runner;
pub mod tensor;

pub use bundle::{compile_bundle, BundleRequest, BundleSummary};
use glow_passes::{pipelines::Quantization, CpuPipeline, Int8Kernels};
use model::{ModelSource, Port};
use std::path::Path;
use tensor::HostTensor;

/// Why a call failed; the text is the one-line message the command-line tools print.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The model cannot be read or imported (a missing or malformed file, an
    /// unsupported op, shapes that do not fit, a tensor over the size limit).
    #[error("{0}")]
    Model(String),
    /// A compiler pass or code generation failed on the model.
    #[error("{0}")]
    Compile(String),
    /// The inputs do not match the model (count, element type, shape).
    #[error("{0}")]
    Input(String),
    /// A runtime check refused the input values (an index outside its dimension).
    #[error("{0}")]
    Refused(String),
}

fn model_or_compile_error(error: anyhow::Error) -> Error {
    if error.downcast_ref::<glow_passes::PipelineError>().is_some() {
        Error::Compile(format!("{error:#}"))
    } else {
        Error::Model(format!("{error:#}"))
    }
}

/// How to load and compile a model.
#[derive(Clone, Debug)]
pub struct Options {
    /// `name=AxBxC` static shapes of ONNX inputs.
    pub input_shapes: Vec<String>,
    /// `name=file.pb` ONNX inputs bound to constant data.
    pub frozen_inputs: Vec<String>,
    /// The function of a `.mlir` module.
    pub function: String,
    /// The largest tensor accepted, in bytes.
    pub max_tensor_bytes: u64,
    /// Quantization from a profile, if any.
    pub quantization: Option<Quantization>,
    /// How int8 layers are compiled.
    pub int8_kernels: Int8Kernels,
    /// Threads the compiled code runs on (OpenMP); 1: sequential code.
    pub threads: u32,
    /// Keep 3x3 convolutions direct (no Winograd kernels).
    pub no_winograd: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            input_shapes: Vec::new(),
            frozen_inputs: Vec::new(),
            function: "main".into(),
            max_tensor_bytes: glow_onnx::DEFAULT_MAX_TENSOR_BYTES,
            quantization: None,
            int8_kernels: Int8Kernels::default(),
            threads: 1,
            no_winograd: false,
        }
    }
}

/// A model compiled for this machine, ready to run.
pub struct Executable {
    compiled: runner::Compiled,
    // Declared last: dropped after the compiled code.
    _context: melior::Context,
}

impl Executable {
    /// The input ports (name, shape, element type), in call order.
    pub fn inputs(&self) -> &[Port] {
        &self.compiled.inputs
    }

    /// The output ports, in result order.
    pub fn outputs(&self) -> &[Port] {
        &self.compiled.outputs
    }

    /// The time loading, the pipeline and code generation took.
    pub fn compile_time(&self) -> std::time::Duration {
        self.compiled.compile_time
    }

    /// Runs the model once on `inputs` (one per input port, in order).
    pub fn run(&self, inputs: &[HostTensor]) -> Result<Vec<HostTensor>, Error> {
        let mut inputs = inputs.to_vec();
        self.compiled
            .run(&mut inputs, 1)
            .map(|(outputs, _)| outputs)
            .map_err(|error| {
                let text = format!("{error:#}");
                if text.starts_with("the model refused its input") {
                    Error::Refused(text)
                } else {
                    Error::Input(text)
                }
            })
    }

    /// The underlying JIT handle (repeated runs with timing, profiling).
    pub fn compiled(&self) -> &runner::Compiled {
        &self.compiled
    }
}

/// Loads `model` (`.onnx` or `.mlir`) and JIT-compiles it for this machine.
pub fn compile(model: &Path, options: &Options) -> Result<Executable, Error> {
    let context = runner::context();
    let prefix = match &options.quantization {
        Some(quantization) => Some(quantization.prefix().map_err(Error::Model)?),
        None => None,
    };
    let compiled = runner::compile(
        &context,
        &ModelSource {
            path: model,
            input_shapes: &options.input_shapes,
            inputs: &[],
            frozen_inputs: &options.frozen_inputs,
            function: &options.function,
            max_tensor_bytes: options.max_tensor_bytes,
        },
        &runner::CompileOptions {
            prefix,
            pipeline: CpuPipeline {
                int8_kernels: options.int8_kernels,
                threads: options.threads,
                time_layers: false,
                no_winograd: options.no_winograd,
            },
            arena_limit: 0,
        },
        &mut |_| {},
    )
    .map_err(model_or_compile_error)?;
    Ok(Executable {
        compiled,
        _context: context,
    })
}
