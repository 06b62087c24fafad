//! Compiling a module down to the LLVM dialect with Glow's static memory plan, for the
//! JIT and for bundles alike: the front of the pipeline (tensor stages, the
//! instruction IR, `glow-plan-memory`), the plan read off the entry function, the
//! constant weights copied out into one image (their globals erased, so the compiled
//! code does not carry a second copy), then the back of the pipeline. The entry
//! function becomes `void f(uint8_t *constant, uint8_t *mutable, uint8_t *activations)`.

use crate::bundle::weights::{extract_weights, index_attribute};
use crate::model::find_function;
use crate::resident::Stages;
use anyhow::{Context, Result};
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
    /// Every activation buffer: first and last instruction, offset, size.
    pub intervals: Vec<[i64; 4]>,
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
        let intervals = function
            .attribute("glow.activations_intervals")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .map(|array| {
                let values: Vec<i64> = (0..array.len())
                    .filter_map(|i| array.element(i).ok())
                    .collect();
                values
                    .chunks_exact(4)
                    .map(|c| [c[0], c[1], c[2], c[3]])
                    .collect()
            })
            .unwrap_or_default();
        Ok(Self {
            intervals,
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

/// Transparent huge pages' size on x86-64 and aarch64 with 4 KiB base pages.
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed, page-aligned (so 64-byte aligned, as the planner assumes and tells LLVM)
/// byte buffer, mapped from the system: pages cost memory only once written, so a
/// weights image being filled never counts twice.
pub struct AlignedBytes {
    base: *mut u8,
    pointer: *mut u8,
    mapped: usize,
    len: usize,
}

// SAFETY: the buffer is plain memory owned by this value.
unsafe impl Send for AlignedBytes {}
// SAFETY: shared access only reads (`bytes`); writing needs `&mut`.
unsafe impl Sync for AlignedBytes {}

impl AlignedBytes {
    /// `len` zero bytes; `what` names them for the out-of-memory error.
    pub fn zeroed(len: u64, what: &str) -> Result<Self> {
        let out_of_memory = || {
            anyhow::anyhow!(
                "out of memory: the model's {what} need {len} bytes, more than the system would give"
            )
        };
        let len = usize::try_from(len).map_err(|_| out_of_memory())?;
        // Buffers of a huge page or more are mapped one huge page longer and start on a
        // huge-page boundary, and ask for transparent huge pages: a model's weights and
        // activations are read by every run, and 4 KiB pages spread them over
        // thousands of TLB entries.
        let huge = len >= HUGE_PAGE;
        let mapped = if huge {
            len.checked_add(HUGE_PAGE).ok_or_else(out_of_memory)?
        } else {
            len.max(1)
        };
        // SAFETY: an anonymous private mapping; failure is handled.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(out_of_memory());
        }
        let base: *mut u8 = base.cast();
        let pointer = if huge {
            let skip = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
            // SAFETY: `skip` < HUGE_PAGE, inside the mapping; the advice is a hint
            // (a kernel without transparent huge pages ignores or refuses it).
            unsafe {
                let pointer = base.add(skip);
                libc::madvise(pointer.cast(), len, libc::MADV_HUGEPAGE);
                pointer
            }
        } else {
            base
        };
        Ok(Self {
            base,
            pointer,
            mapped,
            len,
        })
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping holds `len` readable bytes while `self` lives.
        unsafe { std::slice::from_raw_parts(self.pointer, self.len) }
    }

    /// The bytes, to write.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.pointer, self.len) }
    }
}

impl Drop for AlignedBytes {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `zeroed`, unmapped once.
        unsafe { libc::munmap(self.base.cast(), self.mapped) };
    }
}

/// Where [`compile_planned`] puts the constant weights.
pub enum WeightsTarget<'f> {
    /// An image in memory, which the JIT reads.
    Memory,
    /// A file (a bundle's `NAME.weights`), written at the planned offsets as each
    /// weight leaves the module: no image is held in memory.
    File(&'f std::fs::File),
}

/// A module compiled to the LLVM dialect with its memory planned.
pub struct Planned {
    /// The plan.
    pub memory: MemoryPlan,
    /// The constant weights image (`memory.constant_size` bytes, 64-byte aligned), for
    /// [`WeightsTarget::Memory`].
    pub weights: Option<AlignedBytes>,
}

/// Runs the planned pipeline on `module`, whose entry function is `function` (its
/// argument and result attributes are dropped: the plan renumbers the arguments).
/// `back` is the pipeline's second half (bare-pointer calling convention).
pub fn compile_planned(
    module: &mut Module,
    pipeline: &CpuPipeline,
    function: &str,
    arena_limit: u64,
    target: WeightsTarget,
    stages: &mut Stages,
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
    // The graph stages first: folding batch norms into convolutions makes new weights;
    // each replaced one is freed as the fold goes (glow_passes' dead_weights), and
    // whatever else they left unreferenced is freed before the linalg stages.
    glow_passes::run_pipeline(
        module,
        &format!("builtin.module({})", pipeline.graph_stages()),
    )?;
    glow_dialects::resources::release_unreferenced(module);
    stages.record("the graph stages");
    glow_passes::run_pipeline(
        module,
        &format!(
            "builtin.module({})",
            pipeline.bundle_front_after_graph(function, arena_limit)
        ),
    )?;
    stages.record("the buffer pipeline");
    let memory = MemoryPlan::read(find_function(module, function)?)?;
    let weights = match target {
        WeightsTarget::Memory => {
            let mut image = AlignedBytes::zeroed(memory.constant_size, "weights")?;
            let bytes = image.bytes_mut();
            extract_weights(module, &mut |offset, data| {
                bytes
                    .get_mut(offset..offset + data.len())
                    .context("a constant lies outside the planned weights")?
                    .copy_from_slice(data);
                Ok(())
            })?;
            Some(image)
        }
        WeightsTarget::File(file) => {
            use std::os::unix::fs::FileExt;
            file.set_len(memory.constant_size)?;
            extract_weights(module, &mut |offset, data| {
                if offset as u64 + data.len() as u64 > memory.constant_size {
                    anyhow::bail!("a constant lies outside the planned weights");
                }
                file.write_all_at(data, offset as u64)?;
                Ok(())
            })?;
            None
        }
    };
    stages.record("weight extraction");
    glow_passes::run_pipeline(
        module,
        &format!("builtin.module({})", pipeline.bundle_back()),
    )?;
    stages.record("lowering to LLVM");
    Ok(Planned { memory, weights })
}
