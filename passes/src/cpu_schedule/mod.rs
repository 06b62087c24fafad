//! The CPU schedule, as two passes around bufferization:
//! - `glow-cpu-tile-and-vectorize` (on tensors): each static-shaped
//!   conv_2d_nhwc_hwcf / depthwise_conv_2d_nhwc_hwc / matmul / batch_matmul becomes
//!   loops over register tiles (sizes from [`tiles`]) whose bodies are vector ops: the
//!   parallel loops become one scf.forall (lowered to loops after bufferization) into
//!   which the op's init (fill or broadcast bias) is fused, so accumulators start in
//!   registers; or, for large filters, scf.for loops with the filter tiles outermost
//!   and the init tiled alike. Then the reduction loops are tiled, convolutions are
//!   decomposed to their 1-D form, and the tiles are vectorized. Other ops are left as
//!   they are.
//! - `glow-hoist-vector-transfers` (on buffers, after alias folding, LICM and CSE): the
//!   accumulator reads and writes that the reduction loops repeat are hoisted out of
//!   them, so accumulators stay in registers.
//!
//! Both build a transform-dialect script and apply it with MLIR's interpreter
//! ([`crate::framework::apply_transform_script`]).

pub mod elementwise;
mod gathers;
mod kernel_groups;
pub mod masked_reductions;
pub mod pack_weights;
pub mod pads_in_place;
mod payloads;
mod row_chains;
mod row_fusion;
pub mod row_reductions;
pub mod scalar_reads;
pub mod stack;
pub mod stack_through_slices;
pub mod tiles;
pub mod transposes;

use crate::{
    framework::{apply_transform_script, OptionKind, PassDefinition, PassOption, PassOptions},
    lower_nodes::builder::tensor_info,
};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        OperationRef,
    },
};
use std::fmt::Write;
use tiles::{tiling, Kernel, Tiling};

/// Dialects the transforms create ops of (loaded before the pass runs).
pub(crate) fn schedule_dialects() -> Vec<DialectHandle> {
    // SAFETY: the handles are static descriptors of dialects linked into the binary.
    let extra = unsafe {
        [
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__transform__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__vector__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__ub__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__bufferization__()),
        ]
    };
    // The `glow` dialect owns the `glow.*` tag attributes the scripts match: parsing a
    // script loads the dialect of each attribute name it meets, which must not happen
    // while passes run on several functions at once (it raced and crashed glow-opt).
    let mut dialects = glow_dialects::glow_dialect_handles().to_vec();
    dialects.extend([
        DialectHandle::linalg(),
        DialectHandle::scf(),
        DialectHandle::affine(),
        DialectHandle::arith(),
        DialectHandle::tensor(),
        DialectHandle::memref(),
    ]);
    dialects.extend(extra);
    dialects
}

/// The pass definition registered as `glow-cpu-tile-and-vectorize`.
pub static TILE_AND_VECTORIZE: PassDefinition = PassDefinition {
    argument: "glow-cpu-tile-and-vectorize",
    description:
        "Tile convolutions and matmuls into register tiles and vectorize them (on tensors)",
    anchor: Some("func.func"),
    options: &[PassOption {
        name: "threads",
        description: "Threads the code will run on: above 1, ops whose register tiles run in sequential loops (large filters, no fusable init) first get an outer scf.forall that splits their output across the threads",
        kind: OptionKind::Int,
        default: Some("1"),
    }],
    dependent_dialects: schedule_dialects,
    validate: |options: &PassOptions| match options.value("threads").map(str::parse::<i64>) {
        None | Some(Ok(1..=1024)) => Ok(()),
        _ => Err("threads must be in 1..=1024".into()),
    },
    run: tile_and_vectorize,
};

/// The pass definition registered as `glow-hoist-vector-transfers`.
pub static HOIST_VECTOR_TRANSFERS: PassDefinition = PassDefinition {
    argument: "glow-hoist-vector-transfers",
    description: "Hoist loop-invariant vector transfer pairs out of loops (on buffers)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: schedule_dialects,
    validate: |_: &PassOptions| Ok(()),
    run: hoist_vector_transfers,
};

/// The attribute naming an op for the script's `match`.
const TAG: &str = "glow.schedule";

/// One op to schedule: its kernel, tiling, and whether its init is tiled too.
struct Scheduled {
    tiling: Tiling,
    /// The static output shape (the op's first loops).
    output: Vec<i64>,
    /// Operand index of the init, when it comes from a fill or broadcast.
    init: Option<usize>,
    /// Whether the op already runs inside an scf.forall (a packed-weight tile of
    /// `glow-pack-weights`), whose iterations the threads share: no second split.
    nested: bool,
    /// Whether the op's only user is an elementwise epilogue stacked into its tiles
    /// ([`stack`]).
    epilogue: bool,
}

impl Tiling {
    /// Whether the register tiles can be one scf.forall with the init fused into it:
    /// the op's own loop order and no reduction block around the tiles.
    fn fusable(&self) -> bool {
        self.interchange.is_empty() && self.reduction_block.is_empty()
    }
}

/// The static output shape and reduction sizes of a kernel op, read from its operands.
fn shapes(kernel: Kernel, op: OperationRef) -> Option<(Vec<i64>, Vec<i64>)> {
    let (output, _) = tensor_info(op.result(0).ok()?.into())?;
    let (lhs, _) = tensor_info(op.operand(0).ok()?)?;
    let (rhs, _) = tensor_info(op.operand(1).ok()?)?;
    let reduction = match kernel {
        Kernel::Conv2dNhwcHwcf => rhs.get(..3)?.to_vec(),
        Kernel::DepthwiseConv2dNhwcHwc | Kernel::PoolingNhwc => rhs.get(..2)?.to_vec(),
        Kernel::Matmul | Kernel::BatchMatmul => vec![*lhs.last()?],
    };
    Some((output, reduction))
}

/// Whether the init operand `index` of `op` is produced by a linalg.fill or
/// linalg.broadcast (which are then tiled like the op's output).
fn init_is_tileable(op: OperationRef, index: usize) -> bool {
    let Ok(init) = op.operand(index) else {
        return false;
    };
    let Some(result) = crate::framework::values::operation_result(init) else {
        return false;
    };
    let owner = result.owner();
    let name = owner.name();
    matches!(
        name.as_string_ref().as_str(),
        Ok("linalg.fill" | "linalg.broadcast")
    )
}

/// The dim each result of an affine map attribute reads, when every result is a dim.
pub(crate) fn affine_map_dims(map: melior::ir::Attribute) -> Option<Vec<usize>> {
    // SAFETY: queries on a live attribute, checked to be an affine map first.
    unsafe {
        let raw = melior::ir::AttributeLike::to_raw(&map);
        if !mlir_sys::mlirAttributeIsAAffineMap(raw) {
            return None;
        }
        let map = mlir_sys::mlirAffineMapAttrGetValue(raw);
        (0..mlir_sys::mlirAffineMapGetNumResults(map))
            .map(|r| {
                let expression = mlir_sys::mlirAffineMapGetResult(map, r);
                mlir_sys::mlirAffineExprIsADim(expression)
                    .then(|| mlir_sys::mlirAffineDimExprGetPosition(expression) as usize)
            })
            .collect()
    }
}

/// Sets the unit attribute `tag` on `op` (a transform script matches the tagged ops,
/// see [`match_tagged`]).
pub(crate) fn set_tag_named(op: OperationRef, tag: &str) {
    let context = op.context();
    // SAFETY: the ContextRef outlives the borrow in this frame.
    let context = unsafe { context.to_ref() };
    let attribute = melior::ir::Attribute::unit(context);
    let name = mlir_sys::MlirStringRef {
        data: tag.as_ptr().cast(),
        length: tag.len(),
    };
    // SAFETY: a discardable attribute set on a live op.
    unsafe {
        mlir_sys::mlirOperationSetDiscardableAttributeByName(
            op.to_raw(),
            name,
            melior::ir::AttributeLike::to_raw(&attribute),
        )
    };
}

/// Script lines giving handles `%op0` .. `%op{count - 1}` to the ops tagged `tag`, in
/// the order of a pre-order walk (the order they were tagged in): one match (one walk
/// of the payload) split into one handle per op, not one match per op, which made
/// scheduling quadratic in the function's size.
pub(crate) fn match_tagged(script: &mut String, tag: &str, count: usize) {
    let _ = writeln!(
        script,
        "    %tagged = transform.structured.match attributes{{{tag}}} in %root : (!transform.any_op) -> !transform.any_op"
    );
    let names: Vec<String> = (0..count).map(|i| format!("%op{i}")).collect();
    let types = vec!["!transform.any_op"; count].join(", ");
    let _ = writeln!(
        script,
        "    {} = transform.split_handle %tagged : (!transform.any_op) -> ({types})",
        names.join(", ")
    );
}

pub(crate) fn list(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `tile_using_for` of `target` by `sizes`, naming the tiled op `tiled`.
/// Script lines splitting `target` along loop `dim` after `at` iterations
/// (`transform.structured.split`): the handles `{name}_main` (the first `at`) and
/// `{name}_rest`.
fn split_after(
    script: &mut String,
    target: &str,
    dim: usize,
    at: i64,
    name: &str,
) -> (String, String) {
    let any = "!transform.any_op";
    let _ = writeln!(
        script,
        "    {name}_parts = transform.structured.split {target} after {at} {{dimension = {dim}}} : {any}\n    {name}_main, {name}_rest = transform.split_handle {name}_parts : ({any}) -> ({any}, {any})"
    );
    (format!("{name}_main"), format!("{name}_rest"))
}

fn tile(script: &mut String, tiled: &str, target: &str, sizes: &[i64], interchange: &[i64]) {
    let loops = sizes.iter().filter(|s| **s != 0).count();
    let results = vec!["!transform.any_op"; loops + 1].join(", ");
    let names = if loops == 0 {
        tiled.to_string()
    } else {
        format!("{tiled}, %loops_{}:{loops}", &tiled[1..])
    };
    let _ = writeln!(
        script,
        "    {names} = transform.structured.tile_using_for {target} tile_sizes [{}]{} : (!transform.any_op) -> ({results})",
        list(sizes),
        if interchange.is_empty() {
            String::new()
        } else {
            format!(" interchange = [{}]", list(interchange))
        }
    );
}

/// The outer split of `op` across `threads`: tile sizes (one per loop) that cut one
/// output dimension — the outermost of the interchange, else the first one that can —
/// into a multiple of `threads` equal parts of whole register tiles; `None` when no
/// dimension can.
fn thread_split(op: &Scheduled, threads: i64) -> Option<Vec<i64>> {
    let parallel = &op.tiling.parallel;
    let preferred = op.tiling.interchange.first().map(|d| *d as usize);
    let candidates = preferred.into_iter().chain(0..op.output.len());
    for d in candidates {
        let (extent, tile) = (*op.output.get(d)?, parallel[d]);
        if tile <= 0 {
            continue;
        }
        // Parts that divide the dimension into whole register tiles, so every part
        // has the same static shape (vectorization needs static tiles): `threads`
        // parts, or a multiple of it.
        let tiles = extent / tile;
        if extent % tile != 0 {
            continue;
        }
        let parts = (threads..=tiles)
            .step_by(threads as usize)
            .find(|parts| tiles % parts == 0);
        if let Some(parts) = parts {
            let mut sizes = vec![0; parallel.len()];
            sizes[d] = extent / parts;
            return Some(sizes);
        }
    }
    None
}

/// The script scheduling `ops` (tagged 0..n) in a function, for code running on
/// `threads` threads.
fn schedule_script(ops: &[Scheduled], groups: &[row_fusion::RowGroup], threads: i64) -> String {
    let mut script = String::from(
        "module attributes {transform.with_named_sequence} {\n  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n",
    );
    let any = "(!transform.any_op) -> !transform.any_op";
    match_tagged(&mut script, TAG, ops.len());
    let mut handles: Vec<String> = (0..ops.len()).map(|i| format!("%op{i}")).collect();
    for group in groups {
        row_fusion::fuse_rows(&mut script, *group, ops, &mut handles);
    }
    for (i, op) in ops.iter().enumerate() {
        let handle = &handles[i];
        let fused = op.init.is_some() && op.tiling.fusable();
        let stacked = fused && op.epilogue;
        match op.init {
            Some(index) if stacked => {
                // The epilogue is tiled by the register tile and the op and its init
                // are fused into its loop: the accumulators flow into the epilogue in
                // registers. (Fusing by extracted slices keeps the loop, so the
                // handles inside it stay valid.)
                let output_sizes: Vec<i64> = op
                    .tiling
                    .parallel
                    .iter()
                    .zip(&op.tiling.reduction)
                    .filter(|(_, r)| **r == 0)
                    .map(|(p, _)| *p)
                    .collect();
                let _ = writeln!(
                    script,
                    "    %init{i} = transform.get_producer_of_operand {handle}[{index}] : {any}\n    %epilogue{i} = transform.get_consumers_of_result {handle}[0] : {any}"
                );
                let _ = writeln!(
                    script,
                    "    %epilogue_tile{i}, %forall{i} = transform.structured.tile_using_forall %epilogue{i} tile_sizes [{}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
                    list(&output_sizes)
                );
                let _ = writeln!(
                    script,
                    "    transform.structured.vectorize %epilogue_tile{i} : !transform.any_op\n    %tile{i}, %stacked{i} = transform.structured.fuse_into_containing_op {handle} into %forall{i} : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)\n    %init_tile{i}, %stacked_init{i} = transform.structured.fuse_into_containing_op %init{i} into %stacked{i} : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)\n    transform.structured.vectorize %init_tile{i} : !transform.any_op"
                );
            }
            Some(index) if fused => {
                // One scf.forall over the register tiles; the init's tile is computed
                // inside it, so accumulators start from registers, not from memory.
                let _ = writeln!(
                    script,
                    "    %init{i} = transform.get_producer_of_operand {handle}[{index}] : {any}"
                );
                let _ = writeln!(
                    script,
                    "    %tile{i}, %forall{i} = transform.structured.tile_using_forall {handle} tile_sizes [{}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
                    list(&op.tiling.parallel)
                );
            }
            _ => {
                if let Some(index) = op.init {
                    let output_sizes: Vec<i64> = op
                        .tiling
                        .parallel
                        .iter()
                        .zip(&op.tiling.reduction)
                        .filter(|(_, r)| **r == 0)
                        .map(|(p, _)| *p)
                        .collect();
                    let _ = writeln!(
                        script,
                        "    %init{i} = transform.get_producer_of_operand {handle}[{index}] : {any}"
                    );
                    tile(
                        &mut script,
                        &format!("%init_tile{i}"),
                        &format!("%init{i}"),
                        &output_sizes,
                        &[],
                    );
                    let _ = writeln!(
                        script,
                        "    transform.structured.vectorize %init_tile{i} : !transform.any_op"
                    );
                }
                // With threads, an outer scf.forall splits the output first; the
                // sequential register-tile loops then run inside each thread's part.
                let split = thread_split(op, threads).filter(|_| threads > 1 && !op.nested);
                let target = match split {
                    Some(sizes) => {
                        let _ = writeln!(
                            script,
                            "    %part{i}, %threads{i} = transform.structured.tile_using_forall {handle} tile_sizes [{}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
                            list(&sizes)
                        );
                        format!("%part{i}")
                    }
                    None => handle.clone(),
                };
                // k blocks outside the register tiles: each block's weight panel
                // stays in L1 while every row tile reads it.
                let target = if op.tiling.reduction_block.is_empty() {
                    target
                } else {
                    tile(
                        &mut script,
                        &format!("%block{i}"),
                        &target,
                        &op.tiling.reduction_block,
                        &[],
                    );
                    format!("%block{i}")
                };
                tile(
                    &mut script,
                    &format!("%tile{i}"),
                    &target,
                    &op.tiling.parallel,
                    &op.tiling.interchange,
                );
            }
        }
        tile(
            &mut script,
            &format!("%step{i}"),
            &format!("%tile{i}"),
            &op.tiling.reduction,
            &[],
        );
        let vectorized = if op.tiling.decompose {
            let _ = writeln!(
                script,
                "    %flat{i} = transform.structured.decompose %step{i} : {any}"
            );
            format!("%flat{i}")
        } else {
            format!("%step{i}")
        };
        let _ = writeln!(
            script,
            "    transform.structured.vectorize {vectorized} : !transform.any_op"
        );
        if fused && !stacked {
            // Last: fusing replaces the forall, which invalidates handles inside it.
            let _ = writeln!(
                script,
                "    %init_tile{i}, %fused{i} = transform.structured.fuse_into_containing_op %init{i} into %forall{i} : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)"
            );
            let _ = writeln!(
                script,
                "    transform.structured.vectorize %init_tile{i} : !transform.any_op"
            );
        }
    }
    // The vectorizer writes a contraction as broadcast + mul + multi_reduction; fold
    // that back to vector.contract (lowered to outer products later).
    script.push_str(
        "    transform.apply_patterns to %root {\n      transform.apply_patterns.vector.reduction_to_contract\n      transform.apply_patterns.vector.transfer_permutation_patterns\n      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers\n      transform.apply_patterns.canonicalization\n    } : !transform.any_op\n",
    );
    // The accumulators: each reduction loop reads its tile at the top and writes it at
    // the bottom; on tensors these are loop-invariant subsets, hoisted into vector
    // iter_args here, where no aliasing question arises. (After bufferization, MLIR's
    // hoisting refuses any buffer that a view such as a later reshape also reads:
    // a 64x1536 @ 1536x384 matmul whose result was reshaped to 2x32x384 ran 3x slower,
    // reading and writing its accumulators on every k.)
    hoist_accumulators(&mut script);
    script.push_str("    transform.yield\n  }\n}\n");
    script
}

/// Script lines hoisting the loop-invariant subset pairs (tensor slices and vector
/// transfers of accumulators) of every scf.for out of it, twice: the first round
/// hoists a loop's slice of the accumulator into an iter_arg, the second the vector
/// transfers of that slice, which the first could not see yet. Loop-invariant code
/// motion goes first: the vectorizer makes its padding values and indices inside the
/// loops, and a transfer whose operands are defined in the loop is not invariant.
pub(crate) fn hoist_accumulators(script: &mut String) {
    for round in 0..2 {
        let _ = writeln!(
            script,
            "    %scf_loops{round} = transform.structured.match ops{{[\"scf.for\"]}} in %root : (!transform.any_op) -> !transform.any_op\n    transform.apply_licm to %scf_loops{round} : !transform.any_op\n    transform.loop.hoist_loop_invariant_subsets %scf_loops{round} : !transform.any_op"
        );
    }
}

fn tile_and_vectorize(func: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let mut ops = Vec::new();
    let mut kernels = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let Some(kernel) = name.as_string_ref().as_str().ok().and_then(Kernel::of) else {
            return WalkResult::Advance;
        };
        let Some((output, reduction)) = shapes(kernel, op) else {
            return WalkResult::Advance;
        };
        let Some(tiling) = tiling(kernel, &output, &reduction) else {
            return WalkResult::Advance;
        };
        let init_index = op.operand_count() - 1;
        // Tiled on its own (with an interchange), an init shared with another kernel
        // (one zero fill for several matmuls) would be consumed by the first: only a
        // fused init is cloned per kernel.
        let shared = op
            .operand(init_index)
            .is_ok_and(|init| !crate::graph_optimize::compose_transposes::has_one_use(init));
        let init = (init_is_tileable(op, init_index) && (tiling.fusable() || !shared))
            .then_some(init_index);
        // Kernels `glow-stack` marked, whose epilogue is still theirs alone.
        let epilogue = op.attribute(stack::STACKED).is_ok() && stack::epilogue_of(op).is_some();
        let mut nested = false;
        let mut parent = op.parent_operation();
        while let Some(ancestor) = parent {
            nested |= ancestor.name().as_string_ref().as_str() == Ok("scf.forall");
            parent = ancestor.parent_operation();
        }
        set_tag_named(op, TAG);
        kernels.push(op.to_raw());
        ops.push(Scheduled {
            tiling,
            output,
            init,
            nested,
            epilogue,
        });
        WalkResult::Advance
    });
    if ops.is_empty() {
        return Ok(());
    }
    let threads = options
        .value("threads")
        .and_then(|t| t.parse::<i64>().ok())
        .unwrap_or(1);
    // SAFETY: the kernels are live ops of `func`.
    let kernel_refs: Vec<OperationRef> = kernels
        .iter()
        .map(|kernel| unsafe { OperationRef::from_raw(*kernel) })
        .collect();
    let groups = row_fusion::row_groups(&ops, &kernel_refs, threads);
    let script = schedule_script(&ops, &groups, threads);
    let kernels: Vec<kernel_groups::KernelOps> = kernels
        .iter()
        .zip(&ops)
        .enumerate()
        .map(|(i, (kernel, scheduled))| kernel_groups::KernelOps {
            kernel: *kernel,
            init: scheduled.init,
            epilogue: scheduled.epilogue,
            with_next: groups.iter().any(|g| g.depthwise == i),
        })
        .collect();
    kernel_groups::apply_to_kernels(func, &kernels, &script).map_err(|_| ())?;
    if ops.iter().any(|op| op.epilogue) {
        crate::framework::apply_rules(func, &[&stack::FORWARD_WRITTEN_TILE]).map_err(|_| {
            crate::framework::emit_error(
                func.location(),
                "glow-cpu-tile-and-vectorize: the rewrite did not converge",
            );
        })?;
    }
    crate::distinct_empties::number_loops(func);
    Ok(())
}

fn hoist_vector_transfers(func: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_transform_script(
        func,
        "module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{[\"func.func\"]} in %root : (!transform.any_op) -> !transform.any_op
    %hoisted = transform.structured.hoist_redundant_vector_transfers %funcs : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}",
    )
    .map_err(|_| ())
}
