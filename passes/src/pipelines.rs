//! The CPU pipelines as text (MLIR's pipeline syntax), for the JIT (`glow-run`,
//! registered as `glow-cpu-pipeline`) and for bundles (`glow-compile`): a tensor half
//! (graph optimization, quantization folding, node lowering, the channels-last
//! layout, int8 micro-kernels, profile lowering, conversion to linalg, tiling,
//! vectorization, fusion, bufferization) and a buffer half (loops, hoisting, vector
//! lowering, the LLVM dialect).

/// How int8 convolutions and fully-connected layers are compiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Int8Kernels {
    /// Micro-kernels with AMX and VNNI when this CPU has them, else plain vectors.
    #[default]
    Host,
    /// AMX tile kernels (`tdpbusd`) where a layer suits them, VNNI elsewhere.
    Amx,
    /// Micro-kernels with AVX-512 VNNI (`vpdpbusd`).
    Avx512Vnni,
    /// Micro-kernels with plain vector arithmetic.
    Generic,
    /// No micro-kernels: glow-graph-to-linalg's reference lowering.
    Reference,
    /// The AMX kernels with each tile operation as vector code (for checking them on
    /// CPUs without AMX; slow).
    AmxEmulated,
}

impl Int8Kernels {
    /// Parses `host`, `amx`, `avx512-vnni`, `generic`, `reference` or `amx-emulated`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "host" => Some(Self::Host),
            "amx" => Some(Self::Amx),
            "amx-emulated" => Some(Self::AmxEmulated),
            "avx512-vnni" => Some(Self::Avx512Vnni),
            "generic" => Some(Self::Generic),
            "reference" => Some(Self::Reference),
            _ => None,
        }
    }

    fn pass(self) -> &'static str {
        match self {
            Self::Host => "glow-quant-kernels,",
            Self::Amx => "glow-quant-kernels{isa=amx},",
            Self::AmxEmulated => "glow-quant-kernels{isa=amx-emulated},",
            Self::Avx512Vnni => "glow-quant-kernels{isa=avx512-vnni},",
            Self::Generic => "glow-quant-kernels{isa=generic},",
            Self::Reference => "",
        }
    }
}

/// The CPU pipelines' choices.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuPipeline {
    /// How int8 layers are compiled.
    pub int8_kernels: Int8Kernels,
    /// Threads the compiled code runs on: above 1, the register-tile loops of each
    /// operation (`scf.forall`) become OpenMP work-sharing loops (`scf.parallel` ->
    /// `convert-scf-to-openmp`), run by LLVM's OpenMP runtime (libomp); 0 and 1 compile
    /// plain sequential loops.
    pub threads: u32,
    /// Bracket each top-level operation with timing calls (`glow-time-layers`), for
    /// runners that define them (glow-run --profile-layers).
    pub time_layers: bool,
    /// Keep 3x3 stride-1 f32 convolutions direct instead of taking Winograd kernels
    /// (`glow-winograd`).
    pub no_winograd: bool,
}

impl CpuPipeline {
    /// The tensor half, ending with bufferization: [`Self::graph_stages`], then
    /// [`Self::linalg_stages`].
    pub fn tensor_stages(&self) -> String {
        format!("{},{}", self.graph_stages(), self.linalg_stages())
    }

    /// Graph optimization, quantization folding, node lowering and the channels-last
    /// layout, on glow.graph.
    pub fn graph_stages(&self) -> String {
        // Grouped int8 convolutions go channels-last only for the micro-kernels.
        let grouped_int8 = !matches!(self.int8_kernels, Int8Kernels::Reference);
        format!("func.func(glow-quantization-folding,glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-fold-table-chains,glow-channels-last{{grouped=true grouped-int8={grouped_int8}}})")
    }

    /// From glow.graph to bufferized linalg: int8 micro-kernels, profile lowering,
    /// conversion to linalg, tiling, vectorization, fusion, bufferization.
    ///
    /// The Winograd and grouped-convolution kernels stay functions (called from the
    /// model) until the model's own ops are tiled and vectorized, and are inlined before bufferization: inlined
    /// early, their bodies made every function-wide transform script of the tiling
    /// passes walk a function several times larger (ResNet-50: 2.3 -> 7.2 s).
    pub fn linalg_stages(&self) -> String {
        // Grouped convolutions always take their kernel; the kernels of both passes are
        // inlined late.
        let (winograd, inline_kernels) = if self.no_winograd {
            ("glow-grouped-conv,", "inline,symbol-dce,")
        } else {
            ("glow-winograd,glow-grouped-conv,", "inline,symbol-dce,")
        };
        format!(
            "{}glow-lower-profiles,inline,func.func(lower-affine),symbol-dce,{}func.func(glow-graph-to-linalg),canonicalize,cse,func.func(glow-generalize-elementwise,glow-copy-broadcasts,linalg-fuse-elementwise-ops,glow-stack,glow-pack-weights),canonicalize,cse,func.func(glow-cpu-tile-and-vectorize{{threads={}}}),canonicalize,cse,\
func.func(linalg-generalize-named-ops,linalg-fuse-elementwise-ops),canonicalize,cse,func.func(glow-cpu-vectorize-elementwise{{threads={}}}),canonicalize,cse,{}func.func(glow-pads-in-place,glow-distinct-empties),eliminate-empty-tensors,func.func(glow-distinct-results),\
one-shot-bufferize{{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}},",
            self.int8_kernels.pass(),
            winograd,
            self.threads.max(1),
            self.threads.max(1),
            inline_kernels,
        )
    }

    /// The first buffer stages: runtime checks to the error status, then the vector
    /// accumulators of the register tiles hoisted out of their reduction loops. Both
    /// the JIT and bundles run them before memory is planned: once glow-plan-memory has
    /// made every activation a view of one arena, the hoisting could no longer prove
    /// that an accumulator's buffer is not written through another view (measured:
    /// a 3x3 conv ran 2.8x slower in a bundle than in the JIT).
    /// With `planned` memory (glow-run, bundles: no deallocation pass before) and one
    /// thread, `buffer-loop-hoisting` moves the block buffers of row-fused depthwise
    /// convolutions out of their (then sequential) loops, where the memory plan needs
    /// them. Not with threads (one buffer would be shared by parallel iterations; row
    /// fusion is off then) and not after the mlir-runner variant's deallocation pass
    /// (it would leave the frees in the loop): there each block allocates its own.
    fn buffer_scheduling_stages(&self, planned: bool) -> String {
        let forall = if self.threads > 1 {
            "scf-forall-to-parallel,func.func(glow-private-buffers)"
        } else {
            "scf-forall-to-for"
        };
        let hoisting = if planned && self.threads <= 1 {
            "func.func(buffer-loop-hoisting),"
        } else {
            ""
        };
        format!(
            "glow-lower-checks,convert-bufferization-to-memref,{forall},{hoisting}\
fold-memref-alias-ops,func.func(loop-invariant-code-motion),cse,func.func(glow-hoist-vector-transfers),"
        )
    }

    /// The remaining buffer stages down to the LLVM dialect, with `func_to_llvm`
    /// options for convert-func-to-llvm.
    /// Control flow is converted by the interface-based convert-to-llvm, which also
    /// converts `!amx.tile` block arguments (convert-cf-to-llvm cannot), together with
    /// the AMX kernels' tile ops when glow-quant-kernels ran (it loads the amx dialect).
    fn buffer_lowering_stages(&self, func_to_llvm: &str, memref_to_llvm: &str) -> String {
        let control_flow = if self.int8_kernels == Int8Kernels::Reference {
            "cf"
        } else {
            "amx,cf"
        };
        // With threads, scf.parallel becomes OpenMP, whose loop bodies sit in
        // memref.alloca_scope regions that must stay single-block: structured control
        // flow is lowered only after the memref lowering has inlined those scopes.
        let (openmp, early_cf, late_cf, openmp_to_llvm) = if self.threads > 1 {
            (
                format!("convert-scf-to-openmp{{num-threads={}}},", self.threads),
                "",
                "convert-scf-to-cf,",
                "convert-openmp-to-llvm,",
            )
        } else {
            (String::new(), "convert-scf-to-cf,", "", "")
        };
        format!(
            "func.func(glow-copies-to-linalg),glow-outline-kernels,func.func(convert-linalg-to-loops,glow-rolled-fill-loops,glow-math-approximation),glow-lower-dot4,func.func(glow-splat-scalar-reads,glow-vector-accumulators,glow-lower-row-reductions,lower-vector-multi-reduction),convert-vector-to-scf{{full-unroll=true}},{openmp}{early_cf}expand-strided-metadata,lower-affine,\
convert-vector-to-llvm{{vector-contract-lowering=outerproduct vector-transpose-lowering=shuffle1d}},\
finalize-memref-to-llvm{memref_to_llvm},{late_cf}convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,convert-to-llvm{{filter-dialects={control_flow}}},\
convert-func-to-llvm{func_to_llvm},{openmp_to_llvm}convert-index-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts,glow-byte-bools"
        )
    }

    /// The pipeline registered as `glow-cpu-pipeline`, on `builtin.module`, for
    /// runners that call the entry function with memref descriptors and take its
    /// results (mlir-runner): the tensor stages, upstream deallocation of the buffers
    /// (malloc / free), the buffer stages. glow-run and bundles use the planned
    /// pipeline instead ([`Self::bundle_front`], [`Self::bundle_back`]).
    pub fn jit(&self) -> String {
        format!(
            "{}{}buffer-deallocation-pipeline,{}{}",
            self.tensor_stages(),
            if self.time_layers {
                "glow-time-layers,"
            } else {
                ""
            },
            self.buffer_scheduling_stages(false),
            self.buffer_lowering_stages("", "")
        )
    }

    /// The first half of the bundle (AOT) pipeline for entry function `function`: the
    /// tensor stages, results turned into out-parameters, the scheduling buffer stages,
    /// Glow's instruction IR and its optimizations, the memory plan (constants,
    /// inputs/outputs and activations in three byte buffers, the activations at most
    /// `arena_limit` bytes, 0: no limit) and the planned buffers lowered to views.
    pub fn bundle_front(&self, function: &str, arena_limit: u64) -> String {
        format!(
            "{},{}",
            self.graph_stages(),
            self.bundle_front_after_graph(function, arena_limit)
        )
    }

    /// [`Self::bundle_front`] without its graph stages (a driver may run those alone
    /// first, to free the weights the graph optimizer replaced).
    pub fn bundle_front_after_graph(&self, function: &str, arena_limit: u64) -> String {
        format!(
            "{}{}buffer-results-to-out-params{{hoist-static-allocs=true modify-public-functions=true}},cse,canonicalize,{}{}",
            self.linalg_stages(),
            if self.time_layers {
                "glow-time-layers,"
            } else {
                ""
            },
            self.buffer_scheduling_stages(true),
            instr_stages(function, arena_limit)
        )
    }

    /// The second half of the bundle pipeline: the buffer stages, with bare-pointer
    /// memref arguments (the C signature takes three `uint8_t *`).
    pub fn bundle_back(&self) -> String {
        self.buffer_lowering_stages("{use-bare-ptr-memref-call-conv=true}", "")
    }
}

/// Glow's instruction IR between bufferization and the LLVM dialect, for entry
/// function `function`: raised, optimized (copies, in-place sharing, dead buffers,
/// lifetimes), planned
/// into one arena (at most `arena_limit` bytes, 0: no limit), lowered to views.
pub fn instr_stages(function: &str, arena_limit: u64) -> String {
    format!(
        "func.func(glow-raise-to-instr{{functions={function}}},glow-instr-copy-elimination,glow-instr-share-buffers,glow-instr-dead-allocs,glow-instr-memory-order,glow-instr-shorten-lifetimes),\
glow-plan-memory{{function={function} limit={arena_limit}}},func.func(glow-lower-instr)"
    )
}

/// Quantization before the CPU pipeline, as glow-run and glow-compile offer it.
#[derive(Clone, Debug, Default)]
pub struct Quantization {
    /// The profile file.
    pub profile: String,
    /// Schema (asymmetric, symmetric, symmetric_uint8, symmetric_pow2).
    pub schema: String,
    /// Calibration (minmax, kl, percentile).
    pub calibration: String,
    /// Precision (int8).
    pub precision: String,
    /// One weight scale per output channel.
    pub channelwise: bool,
    /// Op kinds kept in float.
    pub keep: Vec<String>,
    /// Tap quantized values for the report.
    pub report: bool,
}

/// A pass option value quoted for MLIR's pipeline parser.
fn quoted(text: &str) -> Result<String, String> {
    if text.contains('"') {
        return Err(format!(
            "'{text}' contains a double quote, which pass options cannot hold"
        ));
    }
    Ok(format!("\"{text}\""))
}

impl Quantization {
    /// The passes that quantize a float graph: folding and graph optimization first
    /// (as the CPU pipeline starts), then glow-quantize.
    pub fn prefix(&self) -> Result<String, String> {
        let keep = if self.keep.is_empty() {
            String::new()
        } else {
            format!(" keep={}", self.keep.join(","))
        };
        Ok(format!(
            "func.func(glow-quantization-folding,glow-graph-optimize),glow-quantize{{profile={} schema={} calibration={} precision={} channelwise={}{keep} report={}}}",
            quoted(&self.profile)?,
            self.schema,
            self.calibration,
            self.precision,
            self.channelwise,
            self.report
        ))
    }
}

/// The passes that instrument a float graph for profiling, with `bins` histogram bins.
pub fn profiling_prefix(bins: i64) -> String {
    format!("func.func(glow-quantization-folding,glow-graph-optimize),glow-profile{{bins={bins}}}")
}
