//! Glow's passes, written in Rust on MLIR's own machinery: each rule is a Rust rewrite
//! pattern (`mlirOpRewritePatternCreate`) driven by MLIR's greedy driver, and each pass
//! is a real `mlir::Pass` in MLIR's registry (see [`framework`]), so textual pipelines
//! mix Glow and upstream passes, nested and with options:
//! `builtin.module(func.func(glow-lower-nodes{keep=batch_norm}),canonicalize)`.
#![deny(missing_docs)]

pub mod channels_last;
pub mod copies_to_linalg;
pub mod cpu_schedule;
pub mod framework;
pub mod graph_optimize;
pub mod lower_nodes;
pub mod memory_plan;
pub mod quant_kernels;
pub mod quantization;
pub mod to_linalg;

pub use framework::{run_pipeline, PipelineError};
use std::sync::Once;

/// Every Glow pass, in the order `--list-passes` has no say over (it sorts by name).
pub const GLOW_PASSES: &[&framework::PassDefinition] = &[
    &graph_optimize::GRAPH_OPTIMIZE,
    &lower_nodes::LOWER_NODES,
    &quantization::QUANTIZATION_FOLDING,
    &quant_kernels::QUANT_KERNELS,
    &quant_kernels::lower_dot4::LOWER_DOT4,
    &channels_last::CHANNELS_LAST,
    &to_linalg::GRAPH_TO_LINALG,
    &cpu_schedule::TILE_AND_VECTORIZE,
    &cpu_schedule::HOIST_VECTOR_TRANSFERS,
    &cpu_schedule::pads_in_place::PADS_IN_PLACE,
    &memory_plan::PLAN_MEMORY,
    &copies_to_linalg::COPIES_TO_LINALG,
];

/// The tensor half of the CPU pipelines: graph optimization, node lowering, the
/// channels-last layout, conversion to linalg, tiling and vectorization of the kernels,
/// elementwise fusion, pads written in place.
macro_rules! tensor_stages {
    () => {
        "func.func(glow-quantization-folding,glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-channels-last),\
glow-quant-kernels,inline,symbol-dce,func.func(glow-graph-to-linalg),canonicalize,cse,func.func(glow-cpu-tile-and-vectorize),canonicalize,cse,\
func.func(linalg-generalize-named-ops,linalg-fuse-elementwise-ops),canonicalize,cse,func.func(glow-pads-in-place),eliminate-empty-tensors,\
one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    };
}

/// The buffer half: loops, hoisting, vector lowering and the LLVM dialect, with the
/// given options for convert-func-to-llvm.
macro_rules! buffer_stages {
    ($func_to_llvm:literal) => {
        concat!(
            "convert-bufferization-to-memref,scf-forall-to-for,\
fold-memref-alias-ops,func.func(loop-invariant-code-motion),cse,func.func(glow-hoist-vector-transfers),\
func.func(glow-copies-to-linalg,convert-linalg-to-loops,glow-math-approximation),glow-lower-dot4,func.func(lower-vector-multi-reduction),convert-vector-to-scf{full-unroll=true},convert-scf-to-cf,expand-strided-metadata,lower-affine,\
convert-vector-to-llvm{vector-contract-lowering=outerproduct},\
finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,convert-cf-to-llvm,\
convert-func-to-llvm",
            $func_to_llvm,
            ",convert-index-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts"
        )
    };
}

/// The CPU pipeline (`--glow-cpu-pipeline`), on `builtin.module`, for the JIT: the
/// tensor stages, upstream deallocation of the buffers, the buffer stages.
pub const CPU_PIPELINE: &str = concat!(
    tensor_stages!(),
    "buffer-deallocation-pipeline,",
    buffer_stages!("")
);

/// The first half of the bundle (AOT) pipeline for entry function `function`: the
/// tensor stages, results turned into out-parameters, and Glow's memory plan
/// (constants, inputs/outputs and activations in three byte buffers).
pub fn bundle_pipeline_front(function: &str) -> String {
    format!(
        "{}buffer-results-to-out-params{{hoist-static-allocs=true modify-public-functions=true}},cse,canonicalize,glow-plan-memory{{function={function}}}",
        tensor_stages!()
    )
}

/// The second half of the bundle pipeline: the buffer stages, with bare-pointer
/// memref arguments (the C signature takes three `uint8_t *`).
pub const BUNDLE_PIPELINE_BACK: &str = buffer_stages!("{use-bare-ptr-memref-call-conv=true}");

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
        unsafe { glow_dialects::ffi::glowRegisterVerifyRoundTripPass() };
        let c = |text: &str| std::ffi::CString::new(text).expect("no NUL bytes");
        let (name, description, pipeline) = (
            c("glow-cpu-pipeline"),
            c("glow.graph to the LLVM dialect for the CPU: optimize, lower nodes, linalg, bufferize, loops, LLVM"),
            c(CPU_PIPELINE),
        );
        // SAFETY: the strings are valid for the call and copied by the registry.
        unsafe {
            glow_dialects::ffi::glowRegisterPassPipeline(
                name.as_ptr(),
                description.as_ptr(),
                pipeline.as_ptr(),
            )
        };
    });
}
