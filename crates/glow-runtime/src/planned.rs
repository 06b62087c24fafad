//! Compiling a module down to the LLVM dialect with Glow's static memory plan, for the
//! JIT and for bundles alike: the front of the pipeline (tensor stages, the
//! instruction IR, `glow-plan-memory`), the plan read off the entry function, the
//! constant weights copied out into one image (their globals erased, so the compiled
//! code does not carry a second copy), then the back of the pipeline. The entry
//! function becomes `void f(uint8_t *constant, uint8_t *mutable, uint8_t *activations)`.

use crate::bundle::weights::{extract_weights, index_attribute};
use crate::model::find_function;
use anyhow::Result;
use glow_passes::CpuPipeline;
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, StringAttribute},
    operation::OperationLike,
    Module, OperationRef,
};

/// What `glow-plan-memory` decided: the three buffers and the activation arena.
#[derive(Clone, Debug)]
pub struct MemoryPlan {
    /// Bytes of constant weights.
    pub constant_size: u64,
    /// Bytes of inputs and outputs.
    pub mutable_size: u64,
    /// Bytes of the activation arena.
    pub activations_size: u64,
    /// Offsets of the inputs, then the outputs, in the mutable weights.
    pub mutable_offsets: Vec<u64>,
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
    /// The plan recorded on the planned entry function.
    pub fn read(function: OperationRef) -> Result<Self> {
        use melior::ir::attribute::ArrayAttribute;
        let string = |name: &str| -> Result<String> {
            Ok(StringAttribute::try_from(function.attribute(name)?)
                .map_err(|_| anyhow::anyhow!("'{name}' is not a string"))?
                .value()
                .to_string())
        };
        let at_peak = ArrayAttribute::try_from(function.attribute("glow.activations_at_peak")?)
            .map_err(|_| anyhow::anyhow!("the memory plan left no peak"))?;
        let offsets = DenseI64ArrayAttribute::try_from(function.attribute("glow.mutable_offsets")?)
            .map_err(|_| anyhow::anyhow!("the memory plan left no mutable offsets"))?;
        Ok(Self {
            constant_size: index_attribute(function, "glow.constant_size")?,
            mutable_size: index_attribute(function, "glow.mutable_size")?,
            activations_size: index_attribute(function, "glow.activations_size")?,
            mutable_offsets: (0..offsets.len())
                .map(|i| offsets.element(i).map(|o| o as u64))
                .collect::<Result<_, _>>()?,
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

    /// The memory report: first the line scripts read, exactly
    /// `activations: planned N bytes, lower bound M bytes`, then the details.
    pub fn report(&self) -> String {
        format!(
            "activations: planned {} bytes, lower bound {} bytes\n\
             activation buffers: {} bytes if none shared memory; placement: {}\n\
             weights: {} bytes; inputs and outputs: {} bytes\n\
             largest buffers live at the peak: {}\n",
            self.activations_size,
            self.lower_bound,
            self.unshared,
            self.placement,
            self.constant_size,
            self.mutable_size,
            if self.at_peak.is_empty() {
                "none".to_string()
            } else {
                self.at_peak.join(", ")
            }
        )
    }
}

/// A module compiled to the LLVM dialect with its memory planned.
pub struct Planned {
    /// The plan.
    pub memory: MemoryPlan,
    /// The constant weights image (`memory.constant_size` bytes).
    pub weights: Vec<u8>,
}

/// Runs the planned pipeline on `module`, whose entry function is `function` (its
/// argument and result attributes are dropped: the plan renumbers the arguments).
/// `back` is the pipeline's second half (bare-pointer calling convention).
pub fn compile_planned(
    module: &mut Module,
    pipeline: &CpuPipeline,
    function: &str,
    arena_limit: u64,
) -> Result<Planned> {
    {
        let entry = find_function(module, function)?;
        // buffer-results-to-out-params adds arguments without extending the argument
        // attributes: drop them (callers keep the port names).
        for list in ["arg_attrs", "res_attrs"] {
            // SAFETY: removing a discardable attribute of a live op.
            unsafe {
                mlir_sys::mlirOperationRemoveAttributeByName(
                    entry.to_raw(),
                    melior::StringRef::new(list).to_raw(),
                )
            };
        }
    }
    glow_passes::run_pipeline(
        module,
        &format!(
            "builtin.module({})",
            pipeline.bundle_front(function, arena_limit)
        ),
    )?;
    let memory = MemoryPlan::read(find_function(module, function)?)?;
    let weights = extract_weights(module, memory.constant_size)?;
    glow_passes::run_pipeline(
        module,
        &format!("builtin.module({})", pipeline.bundle_back()),
    )?;
    Ok(Planned { memory, weights })
}
