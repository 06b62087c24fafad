//! `glow-pack-weights`: a `linalg.conv_2d_nhwc_hwcf` or `linalg.matmul` whose constant
//! f32 weights are larger than half the L2 cache -> an `scf.forall` over tiles of its
//! output channels (the register tile's channel width) whose body runs the same op on
//! one tile of weights, read from a copy of the weights packed at compile time so that
//! each tile is contiguous: `[KH, KW, C, F]` becomes `[F/t, KH, KW, C, t]`, `[K, N]`
//! becomes `[N/t, K, t]` (the mmt4d / MLAS panel idea). The op's init (a fill or a
//! bias broadcast) is fused into the loop. Without packing, each register tile reads
//! `t` channels every `F` floats: a strided walk through megabytes of weights that the
//! hardware prefetchers follow badly; packed, a tile streams its weights in order.
//! Measured on ResNet-50's 3x3 512-channel 7x7 layer (this machine, one thread):
//! 1.34 -> 0.85 ms, onnxruntime 0.88 ms. `glow-cpu-tile-and-vectorize` then schedules
//! each per-tile op as a small-weight op (register tiles in a fused scf.forall).
//!
//! How: the ops are tagged and tiled by a transform script (`tile_using_forall` on the
//! channel dimension, `fuse_into_containing_op` for the init), then a rewrite rule
//! replaces each tile's `tensor.extract_slice` of the original weights by a slice of
//! the packed constant, and the original weights are erased.

use super::{
    kernel_groups::{apply_to_kernels, KernelOps},
    list, match_tagged, set_tag_named,
    tiles::{conv_register_tile, lane_tile, L2_BYTES},
};
use crate::{
    framework::{
        apply_rules, dead_weights::erase_dead_weights, emit_error, PassDefinition, PassOptions,
        Rule,
    },
    lower_nodes::builder::tensor_info,
    quantization::ir::{name_of, operand, producer, tensor_type, users},
};
use melior::{
    ir::{
        attribute::{DenseI32ArrayAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        Attribute, Identifier, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};
use std::fmt::Write;

/// The pass definition registered as `glow-pack-weights`.
pub static PACK_WEIGHTS: PassDefinition = PassDefinition {
    argument: "glow-pack-weights",
    description: "Loop convolutions and matmuls with constant weights larger than half the L2 over output-channel tiles, reading weights packed tile by tile at compile time",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: super::schedule_dialects,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The rewrite of one weight slice inside a packed op's loop.
pub static SLICE_PACKED_WEIGHTS: Rule = Rule {
    root: "tensor.extract_slice",
    generates: &["tensor.extract_slice", "affine.apply", "arith.constant"],
    rewrite: slice_packed_weights,
};

/// The attribute naming an op for the script's `match`; the rewrite rule also reads it
/// on the users of a weight slice.
const TAG: &str = "glow.pack";

/// The marker of a packed copy of weights, right after the constant it packs, until the
/// pass ends: the number its constant carries as [`PACKED_SOURCE`].
const PACKED_COPY: &str = "glow.packed_copy";
/// A packed constant's number, until the pass ends.
const PACKED_SOURCE: &str = "glow.packed_source";
/// The next constant number (unique in the process: no two constants share one).
static NEXT_SOURCE: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);

/// `MLIR`'s marker of a dynamic offset in `static_offsets`.
const DYNAMIC: i64 = i64::MIN;

/// One op to pack: tile sizes of its loops (the channel tile, 0 elsewhere), the
/// operand index of an init to fuse into the loop, and, for a kernel `glow-stack`
/// marked, the tile sizes of its epilogue (the channel tile on the result's last
/// dimension), which the loop is made over instead.
struct Packed {
    tile_sizes: Vec<i64>,
    init: Option<usize>,
    epilogue: Option<Epilogue>,
}

/// How a stacked epilogue is looped: its tile sizes.
struct Epilogue {
    tile_sizes: Vec<i64>,
}

/// The channel tile of `op` when it qualifies: a conv_2d_nhwc_hwcf or matmul of static
/// shapes whose weights (operand 1) are an f32 `arith.constant` larger than half the
/// L2, with at least two tiles of channels.
fn packing(op: OperationRef) -> Option<Packed> {
    let name = name_of(op);
    // (Checked first: melior prints the whole op into the error of an index out of
    // range, which costs as much as printing the function.)
    if !matches!(name.as_str(), "linalg.conv_2d_nhwc_hwcf" | "linalg.matmul") {
        return None;
    }
    let weights = op.operand(1).ok()?;
    let constant = producer(weights)?;
    if name_of(constant) != "arith.constant" {
        return None;
    }
    let (shape, element) = tensor_info(weights)?;
    let (output, _) = tensor_info(op.result(0).ok()?.into())?;
    if !element.is_f32() || shape.iter().product::<i64>() * 4 <= L2_BYTES / 2 {
        return None;
    }
    let channels = *shape.last()?;
    let (tile, loops, channel_loop) = match name.as_str() {
        "linalg.conv_2d_nhwc_hwcf" if shape.len() == 4 && output.len() == 4 => {
            (conv_register_tile(output[2], channels).1, 7, 3)
        }
        "linalg.matmul" if shape.len() == 2 && output.len() == 2 => {
            (lane_tile(channels, &[64, 32, 16, 8]), 3, 1)
        }
        _ => return None,
    };
    if channels % tile != 0 || channels / tile < 2 {
        return None;
    }
    let mut tile_sizes = vec![0; loops];
    tile_sizes[channel_loop] = tile;
    let init_index = op.operand_count() - 1;
    let init = op
        .operand(init_index)
        .ok()
        .and_then(producer)
        .filter(|init| matches!(name_of(*init).as_str(), "linalg.fill" | "linalg.broadcast"))
        .map(|_| init_index);
    // A stacked kernel's epilogue is elementwise over the kernel's result with identity
    // maps, so its loops are the result's dimensions, channels last. Matmuls only: a
    // convolution's epilogue tile (a residual add over a [1, H, W, tile] slice of
    // channels-last data) ran slower in the loop than as one pass after it
    // (ResNet-50's 1x1 layers at 14 x 14: 0.42 -> 0.49 ms), a transformer's bias and
    // GELU faster (BERT 1.5 %).
    let epilogue = super::stack::epilogue_of(op)
        .filter(|_| name == "linalg.matmul" && op.attribute(super::stack::STACKED).is_ok())
        .map(|_| {
            let mut tile_sizes = vec![0; output.len()];
            tile_sizes[output.len() - 1] = tile;
            Epilogue { tile_sizes }
        });
    Some(Packed {
        tile_sizes,
        init,
        epilogue,
    })
}

fn run(func: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let mut ops = Vec::new();
    let mut kernels = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        if let Some(packed) = packing(op) {
            set_tag_named(op, TAG);
            kernels.push(KernelOps {
                kernel: op.to_raw(),
                init: packed.init,
                epilogue: packed.epilogue.is_some(),
                with_next: false,
            });
            ops.push(packed);
        }
        WalkResult::Advance
    });
    if ops.is_empty() {
        return Ok(());
    }
    for (kernel, packed) in kernels.iter().zip(&ops) {
        if packed.epilogue.is_some() {
            // SAFETY: the kernels are live ops of `func`.
            let kernel = unsafe { OperationRef::from_raw(kernel.kernel) };
            if let Some(user) = super::stack::epilogue_of(kernel) {
                super::stack::read_broadcasts_directly(user);
            }
        }
    }
    // Each matmul / convolution in a function of its own while the script runs: its
    // init fusion prints the ops, at the cost of the enclosing function's size.
    apply_to_kernels(func, &kernels, &script(&ops)).map_err(|_| ())?;
    apply_rules(func, &[&SLICE_PACKED_WEIGHTS]).map_err(|_| {
        emit_error(
            func.location(),
            "glow-pack-weights: the rewrite did not converge",
        );
    })?;
    epilogues_in_place(func);
    remove_tags(func);
    crate::distinct_empties::number_loops(func);
    Ok(())
}

/// Inside a packed loop, a kernel's tile and its epilogue's tile share the loop's
/// output slice (the kernel's init is fused onto it): the epilogue, which reads each
/// element of the kernel's result once and not its own output, is rewritten to update
/// that result in place: the result becomes its output operand, read through the
/// output's block argument (see [`super::stack::update_in_place`]). Left writing the
/// slice as it was before the kernel wrote it, bufferization would copy the slice on
/// every iteration.
fn epilogues_in_place(func: OperationRef) {
    let mut rewrites = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        let packed_tile = op.attribute(TAG).is_ok()
            && op
                .parent_operation()
                .is_some_and(|p| name_of(p) == "scf.forall");
        if let Some(user) = packed_tile.then(|| super::stack::epilogue_of(op)).flatten() {
            rewrites.push((user.to_raw(), op.to_raw()));
        }
        WalkResult::Advance
    });
    for (user, kernel) in rewrites {
        // SAFETY: both ops are live and were found above.
        let (user, kernel) =
            unsafe { (OperationRef::from_raw(user), OperationRef::from_raw(kernel)) };
        init_on_loop_output(kernel, user);
        name_loop_after_kernel(kernel, user);
        super::stack::update_in_place(user, kernel);
    }
}

/// The loop made by tiling the epilogue carries the epilogue's location; it gets the
/// kernel's and the epilogue's, fused in that order, so reports name it after the
/// kernel (`--profile-layers`: the FFN's MatMul, not the GELU's last Mul).
fn name_loop_after_kernel(kernel: OperationRef, epilogue: OperationRef) {
    let Some(forall) = kernel.parent_operation() else {
        return;
    };
    // SAFETY: location construction in the ops' context; both ops are live.
    unsafe {
        let locations = [kernel.location().to_raw(), epilogue.location().to_raw()];
        let fused = mlir_sys::mlirLocationFusedGet(
            mlir_sys::mlirOperationGetContext(forall.to_raw()),
            2,
            locations.as_ptr(),
            mlir_sys::mlirAttributeGetNull(),
        );
        mlir_sys::mlirOperationSetLocation(forall.to_raw(), fused);
    }
}

/// The kernel tile's init (a fill or broadcast fused into the loop) writes into a
/// slice of the loop's output: when fusion sliced an empty tensor instead (the loop's
/// output starts from an equal `tensor.empty`, merged or cloned), the init writes into
/// the epilogue's output (its tile of the loop's output) instead; a slice of an empty
/// tensor would be a buffer allocated on every iteration.
fn init_on_loop_output(kernel: OperationRef, epilogue: OperationRef) {
    let Some(init) = operand(kernel, kernel.operand_count() - 1)
        .and_then(producer)
        .filter(|p| matches!(name_of(*p).as_str(), "linalg.fill" | "linalg.broadcast"))
    else {
        return;
    };
    let outputs = init.operand_count() - 1;
    let of_empty = operand(init, outputs)
        .and_then(producer)
        .filter(|p| name_of(*p) == "tensor.extract_slice")
        .and_then(|slice| operand(slice, 0))
        .and_then(producer)
        .is_some_and(|p| name_of(p) == "tensor.empty");
    let Some(tile) = operand(epilogue, epilogue.operand_count() - 1) else {
        return;
    };
    let slice = producer(tile).filter(|p| name_of(*p) == "tensor.extract_slice");
    // The tile's slice moves above the init when its offsets are defined there.
    // SAFETY: order queries on live ops of one block.
    let movable = slice.is_some_and(|slice| {
        (1..slice.operand_count()).all(|i| {
            operand(slice, i).and_then(producer).is_none_or(|p| {
                p.block() != init.block()
                    || unsafe { mlir_sys::mlirOperationIsBeforeInBlock(p.to_raw(), init.to_raw()) }
            })
        })
    });
    if of_empty && movable {
        // SAFETY: the epilogue's output tile has the init's type (the epilogue is
        // elementwise over exactly the kernel's result); its slice, moved above the
        // init with its operands defined before it, dominates the init.
        unsafe {
            if let Some(slice) = slice {
                mlir_sys::mlirOperationMoveBefore(slice.to_raw(), init.to_raw());
            }
            mlir_sys::mlirOperationSetOperand(init.to_raw(), outputs as isize, tile.to_raw());
        }
    }
}

/// The transform script looping each tagged op over its channel tiles.
fn script(ops: &[Packed]) -> String {
    let any = "(!transform.any_op) -> !transform.any_op";
    let fuse = "(!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)";
    let mut script = String::from(
        "module attributes {transform.with_named_sequence} {\n  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n",
    );
    match_tagged(&mut script, TAG, ops.len());
    for (i, op) in ops.iter().enumerate() {
        // Producers fused into the loop after the op itself (each fusion hands back
        // the loop's new handle).
        let mut fused = Vec::new();
        if let Some(index) = op.init {
            let _ = writeln!(
                script,
                "    %init{i} = transform.get_producer_of_operand %op{i}[{index}] : {any}"
            );
            fused.push(format!("%init{i}"));
        }
        let mut containing = format!("%forall{i}");
        if let Some(epilogue) = &op.epilogue {
            // The stacked epilogue is looped over the channel tiles and the kernel
            // fused into its loop, then the kernel's init: each tile of the result
            // gets its epilogue while it is in the cache.
            let _ = writeln!(
                script,
                "    %epilogue{i} = transform.get_consumers_of_result %op{i}[0] : {any}"
            );
            let _ = writeln!(
                script,
                "    %epilogue_tile{i}, %loop{i} = transform.structured.tile_using_forall %epilogue{i} tile_sizes [{}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n    %tile{i}, %forall{i} = transform.structured.fuse_into_containing_op %op{i} into %loop{i} : {fuse}",
                list(&epilogue.tile_sizes)
            );
        } else {
            let _ = writeln!(
                script,
                "    %tile{i}, %forall{i} = transform.structured.tile_using_forall %op{i} tile_sizes [{}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
                list(&op.tile_sizes)
            );
        }
        for (k, producer) in fused.iter().enumerate() {
            let _ = writeln!(
                script,
                "    %fused_tile{i}_{k}, %fused{i}_{k} = transform.structured.fuse_into_containing_op {producer} into {containing} : {fuse}"
            );
            containing = format!("%fused{i}_{k}");
        }
    }
    script.push_str("    transform.yield\n  }\n}\n");
    script
}

/// `tensor.extract_slice %w[0, .., %offset] [d0, .., t]` of a constant `%w` (shape
/// `[d0, .., N]`), used as the weights of a tagged op -> `tensor.extract_slice
/// %packed[%offset floordiv t, 0, ..] [1, d0, .., t]` of the constant packed to
/// `[N/t, d0, .., t]`.
fn slice_packed_weights<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let result: Value = result.into();
    let user_is_tagged = users(result)
        .iter()
        .all(|user| user.attribute(TAG).is_ok() && user.operand(1).is_ok_and(|w| w == result));
    if users(result).is_empty() || !user_is_tagged || op.operand_count() != 2 {
        return false;
    }
    let (Some(source), Some(offset)) = (operand(op, 0), operand(op, 1)) else {
        return false;
    };
    let Some(constant) = producer(source).filter(|c| name_of(*c) == "arith.constant") else {
        return false;
    };
    let (Some((shape, element)), Some(offsets), Some(sizes), Some(strides)) = (
        tensor_info(source),
        crate::framework::attributes::i64_array(op, "static_offsets"),
        crate::framework::attributes::i64_array(op, "static_sizes"),
        crate::framework::attributes::i64_array(op, "static_strides"),
    ) else {
        return false;
    };
    let rank = shape.len();
    let (Some(&channels), Some(&tile)) = (shape.last(), sizes.last()) else {
        return false;
    };
    let expected_offsets: Vec<i64> = (0..rank)
        .map(|d| if d + 1 == rank { DYNAMIC } else { 0 })
        .collect();
    if offsets != expected_offsets
        || sizes[..rank - 1] != shape[..rank - 1]
        || strides.iter().any(|s| *s != 1)
        || tile <= 0
        || channels % tile != 0
    {
        return false;
    }
    let packed_shape: Vec<i64> = std::iter::once(channels / tile)
        .chain(shape[..rank - 1].iter().copied())
        .chain(std::iter::once(tile))
        .collect();
    let packed_type = tensor_type(&packed_shape, element);
    let location = op.location();
    // Weights that several ops read (an unrolled recurrence's weights, once per step)
    // are packed once: the packed copies follow their constant, marked with the
    // constant's number (a copy whose constant was erased may follow another constant).
    let number = |op: OperationRef| {
        op.attribute(PACKED_COPY)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
    };
    let constant_number = constant
        .attribute(PACKED_SOURCE)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value());
    let mut packed = None;
    let mut next = constant.next_in_block();
    while let Some(candidate) = next.filter(|c| number(*c).is_some()) {
        if constant_number.is_some()
            && number(candidate) == constant_number
            && candidate.result(0).is_ok_and(|r| r.r#type() == packed_type)
        {
            packed = Some(candidate);
            break;
        }
        next = candidate.next_in_block();
    }
    let packed = match packed {
        Some(packed) => packed,
        None => {
            let count = shape.iter().product::<i64>() as usize;
            let Some(values) = constant
                .attribute("value")
                .ok()
                .and_then(|value| glow_dialects::elements::f32_values(value, count))
            else {
                return false;
            };
            let bytes = pack(&values, channels as usize, tile as usize);
            let constant_number = constant_number.unwrap_or_else(|| {
                let fresh = NEXT_SOURCE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let attribute: Attribute =
                    IntegerAttribute::new(Type::index(context), fresh).into();
                // SAFETY: sets a discardable attribute of a live op.
                unsafe {
                    mlir_sys::mlirOperationSetDiscardableAttributeByName(
                        constant.to_raw(),
                        melior::StringRef::new(PACKED_SOURCE).to_raw(),
                        melior::ir::AttributeLike::to_raw(&attribute),
                    )
                };
                fresh
            });
            rewriter.set_insertion_point_after(constant);
            rewriter.insert(
                OperationBuilder::new("arith.constant", constant.location())
                    .add_attributes(&[
                        (
                            Identifier::new(context, "value"),
                            glow_dialects::elements::resource_elements(
                                packed_type,
                                "packed",
                                &bytes,
                            ),
                        ),
                        (
                            Identifier::new(context, PACKED_COPY),
                            IntegerAttribute::new(Type::index(context), constant_number).into(),
                        ),
                    ])
                    .add_results(&[packed_type])
                    .build()
                    .expect("valid arith.constant"),
            )
        }
    };
    rewriter.set_insertion_point_before(op);
    let map = Attribute::parse(
        context,
        &format!("affine_map<(d0) -> (d0 floordiv {tile})>"),
    )
    .expect("valid affine map");
    let index = Type::index(context);
    let tile_index = rewriter.insert(
        OperationBuilder::new("affine.apply", location)
            .add_operands(&[offset])
            .add_attributes(&[(Identifier::new(context, "map"), map)])
            .add_results(&[index])
            .build()
            .expect("valid affine.apply"),
    );
    let array = |values: &[i64]| -> Attribute {
        melior::ir::attribute::DenseI64ArrayAttribute::new(context, values).into()
    };
    let packed_offsets: Vec<i64> = std::iter::once(DYNAMIC)
        .chain(std::iter::repeat_n(0, rank))
        .collect();
    let packed_sizes: Vec<i64> = std::iter::once(1)
        .chain(packed_shape[1..].iter().copied())
        .collect();
    let packed_value: Value = packed.result(0).expect("one result").into();
    let tile_value: Value = tile_index.result(0).expect("one result").into();
    let slice = rewriter.insert(
        OperationBuilder::new("tensor.extract_slice", location)
            .add_operands(&[packed_value, tile_value])
            .add_attributes(&[
                (
                    Identifier::new(context, "static_offsets"),
                    array(&packed_offsets),
                ),
                (
                    Identifier::new(context, "static_sizes"),
                    array(&packed_sizes),
                ),
                (
                    Identifier::new(context, "static_strides"),
                    array(&vec![1; rank + 1]),
                ),
                (
                    Identifier::new(context, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(context, &[1, 1, 0, 0]).into(),
                ),
            ])
            .add_results(&[result.r#type()])
            .build()
            .expect("valid tensor.extract_slice"),
    );
    let sliced: Value = slice.result(0).expect("one result").into();
    rewriter.replace_op_with_values(op, &[sliced]);
    erase_dead_weights(rewriter, &[source]);
    true
}

/// `values` of shape `[.., channels]` as little-endian bytes of shape
/// `[channels / tile, .., tile]`.
fn pack(values: &[f32], channels: usize, tile: usize) -> Vec<u8> {
    let rows = values.len() / channels;
    let mut bytes = Vec::with_capacity(values.len() * 4);
    for block in 0..channels / tile {
        for row in 0..rows {
            let start = row * channels + block * tile;
            for value in &values[start..start + tile] {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
    }
    bytes
}

/// Removes the tags the script matched (the per-tile ops keep them through tiling) and
/// the packed copies' markers.
fn remove_tags(func: OperationRef) {
    func.walk(WalkOrder::PreOrder, |op| {
        for tag in [TAG, PACKED_COPY, PACKED_SOURCE] {
            crate::framework::attributes::remove_attribute(op, tag);
        }
        WalkResult::Advance
    });
}
