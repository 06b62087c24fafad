//! Glow's passes, written in Rust on MLIR's own machinery: each rule is a Rust rewrite
//! pattern (`mlirOpRewritePatternCreate`) driven by MLIR's greedy driver, and each pass
//! is a real `mlir::Pass` in MLIR's registry (see [`framework`]), so textual pipelines
//! mix Glow and upstream passes, nested and with options:
//! `builtin.module(func.func(glow-lower-nodes{keep=batch_norm}),canonicalize)`.
#![deny(missing_docs)]

pub mod broadcast_readers;
pub mod byte_bools;
pub mod channels_last;
pub mod copies_to_linalg;
pub mod copy_views;
pub mod cpu_schedule;
pub mod distinct_empties;
pub mod distinct_results;
pub mod export_linalg;
pub mod fill_loops;
pub mod framework;
pub mod graph_optimize;
pub mod grouped_conv;
pub mod instr;
pub mod layer_timing;
pub mod lower_checks;
pub mod lower_nodes;
pub mod memory_plan;
pub mod outline_kernels;
pub mod pipelines;
pub mod private_buffers;
pub mod quant_kernels;
pub mod quantization;
pub mod straight_line_runs;
pub mod to_linalg;
pub mod winograd;

pub use framework::{run_pipeline, PipelineError};
pub use pipelines::{CpuPipeline, Int8Kernels};
use std::sync::Once;

/// Every Glow pass, in the order `--list-passes` has no say over (it sorts by name).
pub const GLOW_PASSES: &[&framework::PassDefinition] = &[
    &graph_optimize::GRAPH_OPTIMIZE,
    &lower_nodes::LOWER_NODES,
    &quantization::QUANTIZATION_FOLDING,
    &quantization::table_chains::FOLD_TABLE_CHAINS,
    &quantization::profile::PROFILE,
    &quantization::quantize::QUANTIZE,
    &quantization::lower_profile::LOWER_PROFILES,
    &quant_kernels::QUANT_KERNELS,
    &quant_kernels::lower_dot4::LOWER_DOT4,
    &winograd::WINOGRAD,
    &grouped_conv::GROUPED_CONV,
    &channels_last::CHANNELS_LAST,
    &to_linalg::GRAPH_TO_LINALG,
    &lower_checks::LOWER_CHECKS,
    &layer_timing::TIME_LAYERS,
    &export_linalg::EXPORT_FINALIZE,
    &cpu_schedule::pack_weights::PACK_WEIGHTS,
    &cpu_schedule::stack::STACK,
    &cpu_schedule::TILE_AND_VECTORIZE,
    &cpu_schedule::elementwise::VECTORIZE_ELEMENTWISE,
    &cpu_schedule::HOIST_VECTOR_TRANSFERS,
    &cpu_schedule::pads_in_place::PADS_IN_PLACE,
    &cpu_schedule::row_reductions::LOWER_ROW_REDUCTIONS,
    &cpu_schedule::scalar_reads::SPLAT_SCALAR_READS,
    &instr::raise::RAISE_TO_INSTR,
    &instr::lifetimes::SHORTEN_LIFETIMES,
    &instr::dead_allocs::DEAD_ALLOCS,
    &instr::copy_elimination::COPY_ELIMINATION,
    &instr::in_place::SHARE_BUFFERS,
    &instr::memory_order::MEMORY_ORDER,
    &distinct_empties::DISTINCT_EMPTIES,
    &broadcast_readers::COPY_BROADCASTS,
    &distinct_results::DISTINCT_RESULTS,
    &private_buffers::PRIVATE_BUFFERS,
    &memory_plan::PLAN_MEMORY,
    &instr::lower::LOWER_INSTR,
    &instr::listing::PRINT_LISTING,
    &copies_to_linalg::COPIES_TO_LINALG,
    &fill_loops::ROLLED_FILL_LOOPS,
    &byte_bools::BYTE_BOOLS,
    &outline_kernels::OUTLINE_KERNELS,
];

/// Registers every Glow pass, and the named `glow-cpu-pipeline`, with MLIR's global
/// registry (idempotent).
pub fn register_glow_passes() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        for definition in GLOW_PASSES {
            framework::register_pass(definition);
        }
        // SAFETY: registers a C++ pass in MLIR's global registry, once.
        unsafe { glow_dialects::ffi::glowRegisterMathApproximationPass() };
        // SAFETY: as above.
        unsafe { glow_dialects::ffi::glowRegisterVectorAccumulatorsPass() };
        // SAFETY: as above.
        unsafe { glow_dialects::ffi::glowRegisterGeneralizeElementwisePass() };
        // SAFETY: as above.
        unsafe { glow_dialects::ffi::glowRegisterVerifyRoundTripPass() };
        let c = |text: &str| std::ffi::CString::new(text).expect("no NUL bytes");
        let pipelines = [
            (
                "glow-cpu-pipeline",
                "glow.graph to the LLVM dialect for the CPU: optimize, lower nodes, linalg, bufferize, loops, LLVM",
                pipelines::CpuPipeline::default().jit(),
            ),
            (
                "glow-export-linalg",
                "glow.graph to upstream-only linalg on tensors for IREE and torch-mlir: optimize, lower nodes, channels-last, linalg, elementwise ops generalized",
                export_linalg::export_linalg_pipeline(),
            ),
        ];
        for (name, description, pipeline) in pipelines {
            let (name, description, pipeline) = (c(name), c(description), c(&pipeline));
            // SAFETY: the strings are valid for the call and copied by the registry.
            unsafe {
                glow_dialects::ffi::glowRegisterPassPipeline(
                    name.as_ptr(),
                    description.as_ptr(),
                    pipeline.as_ptr(),
                )
            };
        }
    });
}
