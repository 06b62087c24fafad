//! `glow-stack`: operator stacking (Glow's), as epilogue fusion into the register
//! tiles. Run after elementwise fusion (`glow-generalize-elementwise`,
//! `linalg-fuse-elementwise-ops`: Glow's stacking rule, consecutive data-parallel ops
//! with one iteration space in one loop body), it marks (`glow.stack`) each
//! convolution or matmul whose only user is such an elementwise `linalg.generic` on
//! its whole result (ReLU, clip, a residual add, SiLU, a bias). For a marked kernel,
//! `glow-cpu-tile-and-vectorize` schedules from that user: the user is tiled by the
//! kernel's register tile, the kernel and its init are fused into the user's loop, and
//! once vectorized the accumulators flow from the reduction loop into the epilogue in
//! registers ([`FORWARD_WRITTEN_TILE`] forwards the init), so each activation is
//! written once, not written, read and written again.
//!
//! Refused (the kernel is scheduled alone): a result with another user (it would be
//! recomputed or kept twice), an epilogue that is not elementwise over exactly the
//! kernel's iteration space (a broadcast or reduction of the result), one that reads
//! the kernel's result other than element for element, its own output, or booleans
//! (bytes in memory, bits in vectors). An epilogue reading two kernels (a residual
//! add of two convolutions) is stacked into the first. An epilogue of a widened
//! kernel's slice first moves onto the whole result ([`super::stack_through_slices`]).

use crate::{
    framework::{attributes::name_of, PassDefinition, PassOptions, Rule},
    lower_nodes::builder::tensor_info,
    quantization::ir::{operand, producer, users},
};
use melior::{
    ir::{
        attribute::ArrayAttribute,
        operation::{OperationBuilder, OperationLike},
        AttributeLike, BlockLike, OperationRef, RegionLike, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The pass definition registered as `glow-stack`.
pub static STACK: PassDefinition = PassDefinition {
    argument: "glow-stack",
    description: "Mark convolutions and matmuls whose only user is an elementwise epilogue (glow.stack), for glow-cpu-tile-and-vectorize to fuse it into their register tiles",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: super::schedule_dialects,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The attribute marking a kernel whose epilogue is stacked into its tiles.
pub const STACKED: &str = "glow.stack";

fn run(func: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    // Epilogues of widened kernels' slices first move onto the whole result.
    crate::framework::apply_rules(func, &[&super::stack_through_slices::EPILOGUE_ABOVE_SLICE])
        .map_err(|_| ())?;
    let mut claimed = std::collections::HashSet::new();
    func.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let kernel = super::tiles::Kernel::of(&name_of(op)).is_some();
        // An epilogue reading two kernels (a residual add of two convolutions) is
        // stacked into the first one only.
        if kernel && epilogue_of(op).is_some_and(|user| claimed.insert(user.to_raw().ptr as usize))
        {
            super::set_tag_named(op, STACKED);
        }
        melior::ir::operation::WalkResult::Advance
    });
    Ok(())
}

/// The only user of `op`'s result when it is an elementwise generic over the result's
/// whole iteration space that reads it element for element.
pub fn epilogue_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let result = crate::quantization::ir::result(op, 0)?;
    let consumers = users(result);
    let [user] = consumers.as_slice() else {
        return None;
    };
    is_epilogue(*user, result).then_some(*user)
}

/// Whether `user` is an elementwise generic over `result`'s whole iteration space that
/// reads it element for element.
pub(super) fn is_epilogue(user: OperationRef, result: Value) -> bool {
    if name_of(user) != "linalg.generic" || user.result_count() != 1 {
        return false;
    }
    let (Some((shape, _)), Some((user_shape, _))) = (
        tensor_info(result),
        crate::quantization::ir::result(user, 0).and_then(tensor_info),
    ) else {
        return false;
    };
    if shape != user_shape {
        return false;
    }
    let Some(maps) = indexing_maps(user) else {
        return false;
    };
    let rank = shape.len();
    let all_parallel = user
        .attribute("iterator_types")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .is_some_and(|types| {
            types.len() == rank
                && (0..types.len()).all(|i| {
                    types
                        .element(i)
                        .is_ok_and(|t| t.to_string().contains("parallel"))
                })
        });
    let inputs = user.operand_count() - 1;
    let identity = |i: usize| {
        maps.get(i)
            .is_some_and(|m| *m == (0..rank).collect::<Vec<_>>())
    };
    let reads_result_elementwise = (0..inputs)
        .filter(|i| operand(user, *i) == Some(result))
        .all(identity);
    // Booleans are bytes in memory but bits in a vector: vector accesses of `i1` are
    // right only once `glow-byte-bools` rewrites them to bytes, which has not been
    // checked inside a register tile, so epilogues reading or writing them stay scalar.
    let reads_booleans = (0..=inputs).any(|i| {
        operand(user, i)
            .and_then(tensor_info)
            .is_some_and(|(_, element)| {
                melior::ir::r#type::IntegerType::try_from(element).is_ok_and(|t| t.width() == 1)
            })
    });
    all_parallel
        && identity(inputs)
        && reads_result_elementwise
        && !reads_output(user)
        && !reads_booleans
        && !super::gathers::gathers(user)
}

/// Each operand of the epilogue `user` that a `linalg.broadcast` makes is replaced by
/// the broadcast's input, read through the projection of the operand's indexing map
/// onto the input's dimensions: a bias is read as a vector instead of being written
/// out whole first (and, tiled with the epilogue, without a tile of its own).
pub fn read_broadcasts_directly(user: OperationRef) {
    let Some(mut dims) = indexing_maps(user) else {
        return;
    };
    let rank = dims.last().map_or(0, Vec::len);
    let mut replaced = Vec::new();
    for (i, map) in dims.iter_mut().enumerate().take(user.operand_count() - 1) {
        let Some(broadcast) = operand(user, i)
            .and_then(producer)
            .filter(|p| name_of(*p) == "linalg.broadcast")
        else {
            continue;
        };
        let added = broadcast
            .attribute("dimensions")
            .ok()
            .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
            .map(|a| {
                (0..a.len())
                    .filter_map(|k| a.element(k).ok())
                    .collect::<Vec<i64>>()
            });
        let (Some(added), Some(input)) = (added, operand(broadcast, 0)) else {
            continue;
        };
        // The operand reads its own dims `map`; the broadcast's input keeps those not
        // added.
        *map = map
            .iter()
            .enumerate()
            .filter(|(position, _)| !added.contains(&(*position as i64)))
            .map(|(_, d)| *d)
            .collect();
        replaced.push((i, input));
    }
    if replaced.is_empty() {
        return;
    }
    let Some(attribute) = maps_attribute(user, rank, &dims) else {
        return;
    };
    for (i, input) in replaced {
        // SAFETY: the input dominates the broadcast, which dominates `user`; the new
        // map reads it with its own rank.
        unsafe { mlir_sys::mlirOperationSetOperand(user.to_raw(), i as isize, input.to_raw()) };
    }
    // SAFETY: `user` is live; the attribute lives in its context.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            user.to_raw(),
            mlir_sys::mlirStringRefCreateFromCString(c"indexing_maps".as_ptr()),
            attribute.to_raw(),
        )
    };
}

/// The `indexing_maps` attribute of a generic with `rank` loops whose operands read
/// the loop dims `dims` (projected permutations), in `op`'s context.
fn maps_attribute<'c>(
    op: OperationRef<'c, '_>,
    rank: usize,
    dims: &[Vec<usize>],
) -> Option<melior::ir::Attribute<'c>> {
    let all: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let maps: Vec<String> = dims
        .iter()
        .map(|map| {
            let results: Vec<String> = map.iter().map(|d| format!("d{d}")).collect();
            format!(
                "affine_map<({}) -> ({})>",
                all.join(", "),
                results.join(", ")
            )
        })
        .collect();
    let text = std::ffi::CString::new(format!("[{}]", maps.join(", "))).ok()?;
    // SAFETY: parsing in `op`'s live context, which owns the attribute for as long as
    // the op lives; a null result (a parse failure) is refused.
    unsafe {
        let raw = mlir_sys::mlirAttributeParseGet(
            mlir_sys::mlirOperationGetContext(op.to_raw()),
            mlir_sys::mlirStringRefCreateFromCString(text.as_ptr()),
        );
        (!raw.ptr.is_null()).then(|| melior::ir::Attribute::from_raw(raw))
    }
}

/// The epilogue `user` of `kernel` (an elementwise generic reading the kernel's result
/// element for element and not its own output) rewritten to update the result in
/// place: `generic ins(%a, %r) outs(%e) {^bb0(%x, %y, %o): f(%x, %y)}` becomes
/// `generic ins(%a) outs(%r) {^bb0(%x, %o): f(%x, %o)}`. Reading its output, the
/// generic keeps that operand through linalg's elementwise fusion (which gives an
/// unread output a new empty tensor) and bufferizes onto the result's buffer.
pub fn update_in_place(user: OperationRef, kernel: OperationRef) {
    let (Some(result), Some(dims)) = (
        crate::quantization::ir::result(kernel, 0),
        indexing_maps(user),
    ) else {
        return;
    };
    let inputs = user.operand_count() - 1;
    let reads: Vec<usize> = (0..inputs)
        .filter(|i| operand(user, *i) == Some(result))
        .collect();
    let Ok(iterators) = user.attribute("iterator_types") else {
        return;
    };
    let Ok(result_type) = user.result(0).map(|r| r.r#type()) else {
        return;
    };
    if reads.is_empty() || dims.len() != user.operand_count() {
        return;
    }
    let kept: Vec<usize> = (0..inputs).filter(|i| !reads.contains(i)).collect();
    let kept_dims: Vec<Vec<usize>> = kept
        .iter()
        .chain(std::iter::once(&inputs))
        .map(|i| dims[*i].clone())
        .collect();
    let rank = dims[inputs].len();
    let Some(new_maps) = maps_attribute(user, rank, &kept_dims) else {
        return;
    };
    let context = user.context();
    // SAFETY: the context outlives this call.
    let context = unsafe { context.to_ref() };
    let mut operands: Vec<Value> = kept.iter().filter_map(|i| operand(user, *i)).collect();
    operands.push(result);
    let segments =
        melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[kept.len() as i32, 1]);
    let Ok(generic) = OperationBuilder::new("linalg.generic", user.location())
        .add_operands(&operands)
        .add_results(&[result_type])
        .add_attributes(&[
            (
                melior::ir::Identifier::new(context, "indexing_maps"),
                new_maps,
            ),
            (
                melior::ir::Identifier::new(context, "iterator_types"),
                iterators,
            ),
            (
                melior::ir::Identifier::new(context, "operandSegmentSizes"),
                segments.into(),
            ),
        ])
        .add_regions([melior::ir::Region::new()])
        .build()
    else {
        return;
    };
    // SAFETY: `user` is live and has one region with one block whose arguments are
    // its operands' elements, in order; the body moves to the new op, whose
    // arguments then lose those of the result's reads (replaced by the output's);
    // the new op takes `user`'s place and `user`, left without uses, is erased.
    unsafe {
        let new = generic.into_raw();
        let body = mlir_sys::mlirOperationGetRegion(new, 0);
        mlir_sys::mlirRegionTakeBody(body, mlir_sys::mlirOperationGetRegion(user.to_raw(), 0));
        let block = mlir_sys::mlirRegionGetFirstBlock(body);
        let output = mlir_sys::mlirBlockGetArgument(block, inputs as isize);
        for i in reads.iter().rev() {
            let argument = mlir_sys::mlirBlockGetArgument(block, *i as isize);
            mlir_sys::mlirValueReplaceAllUsesOfWith(argument, output);
            mlir_sys::mlirBlockEraseArgument(block, *i as u32);
        }
        let parent = mlir_sys::mlirOperationGetBlock(user.to_raw());
        mlir_sys::mlirBlockInsertOwnedOperationBefore(parent, user.to_raw(), new);
        mlir_sys::mlirValueReplaceAllUsesOfWith(
            mlir_sys::mlirOperationGetResult(user.to_raw(), 0),
            mlir_sys::mlirOperationGetResult(new, 0),
        );
        mlir_sys::mlirOperationDestroy(user.to_raw());
    }
}

/// The result dims of each indexing map of a generic, when every map is a projected
/// permutation.
pub(super) fn indexing_maps(op: OperationRef) -> Option<Vec<Vec<usize>>> {
    let maps = ArrayAttribute::try_from(op.attribute("indexing_maps").ok()?).ok()?;
    (0..maps.len())
        .map(|i| super::affine_map_dims(maps.element(i).ok()?))
        .collect()
}

/// Whether the body of a generic reads its output block argument.
fn reads_output(op: OperationRef) -> bool {
    let Some(block) = op.region(0).ok().and_then(|r| r.first_block()) else {
        return true;
    };
    let count = block.argument_count();
    match count
        .checked_sub(1)
        .and_then(|last| block.argument(last).ok())
    {
        // SAFETY: a use-list query on a live block argument.
        Some(output) => unsafe {
            !mlir_sys::mlirValueGetFirstUse(Value::from(output).to_raw())
                .ptr
                .is_null()
        },
        None => true,
    }
}

/// `vector.transfer_read` of the whole tensor a `vector.transfer_write` just wrote, at
/// zero indices, dropping or adding unit dimensions only -> `vector.shape_cast` of the
/// written vector. The fused init of a stacked kernel is written as a 4-D tile and read
/// back as the decomposed convolution's 3-D accumulator; without this the tile would
/// be a buffer allocated on every iteration.
pub static FORWARD_WRITTEN_TILE: Rule = Rule {
    root: "vector.transfer_read",
    generates: &["vector.shape_cast"],
    rewrite: forward_written_tile,
};

fn forward_written_tile<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let _ = context;
    let Some(source) = operand(op, 0) else {
        return false;
    };
    let Some(write) = producer(source).filter(|w| name_of(*w) == "vector.transfer_write") else {
        return false;
    };
    let (Some(vector), Some(destination)) = (operand(write, 0), operand(write, 1)) else {
        return false;
    };
    let (Some(written), Some((tensor, _)), Some(read)) = (
        vector_shape(vector),
        tensor_info(destination),
        crate::quantization::ir::result(op, 0).and_then(vector_shape),
    ) else {
        return false;
    };
    // Whole-tensor write and read at zero indices, no masks: the read's operands are
    // source, indices, padding; the write's vector, destination, indices.
    let zero_indices = |o: OperationRef, from: usize, count: usize| {
        (from..from + count).all(|i| operand(o, i).is_some_and(is_zero_index))
    };
    let without_units = |s: &[i64]| s.iter().copied().filter(|d| *d != 1).collect::<Vec<_>>();
    if written != tensor
        || op.operand_count() != 2 + tensor.len()
        || write.operand_count() != 2 + tensor.len()
        || !zero_indices(op, 1, tensor.len())
        || !zero_indices(write, 2, tensor.len())
        || without_units(&written) != without_units(&read)
        || !order_preserving(write)
        || !reads_dims_exactly(op, &tensor, &read)
        || op
            .parent_operation()
            .is_some_and(|parent| name_of(parent) == "vector.mask")
    {
        return false;
    }
    rewriter.set_insertion_point_before(op);
    let Some(result_type) = crate::quantization::ir::result(op, 0).map(|r| r.r#type()) else {
        return false;
    };
    let cast = rewriter.insert(
        OperationBuilder::new("vector.shape_cast", op.location())
            .add_operands(&[vector])
            .add_results(&[result_type])
            .build()
            .expect("valid vector.shape_cast"),
    );
    let Ok(value) = cast.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value.into()]);
    true
}

/// The static shape of a vector value.
fn vector_shape(value: Value) -> Option<Vec<i64>> {
    let raw = value.r#type().to_raw();
    // SAFETY: shape queries on a live type, guarded by the kind check.
    unsafe {
        if !mlir_sys::mlirTypeIsAVector(raw) {
            return None;
        }
        Some(
            (0..mlir_sys::mlirShapedTypeGetRank(raw))
                .map(|d| mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize))
                .collect(),
        )
    }
}

/// Whether `value` is an `arith.constant 0 : index`.
fn is_zero_index(value: Value) -> bool {
    producer(value).is_some_and(|c| {
        name_of(c) == "arith.constant"
            && c.attribute("value")
                .is_ok_and(|a| a.to_string() == "0 : index")
    })
}

/// Whether a transfer_read's vector dimension `j` has the size of the tensor
/// dimension its map reads, its map keeps the dims in order, and every tensor
/// dimension the map leaves out is a unit: then the read returns the tensor's elements
/// in order, nothing padded.
fn reads_dims_exactly(op: OperationRef, tensor: &[i64], read: &[i64]) -> bool {
    let Some(dims) = map_dims(op) else {
        return false;
    };
    dims.len() == read.len()
        && dims.windows(2).all(|w| w[0] < w[1])
        && dims
            .iter()
            .zip(read)
            .all(|(d, size)| tensor.get(*d) == Some(size))
        && (0..tensor.len()).all(|d| dims.contains(&d) || tensor[d] == 1)
}

/// The dims a transfer's permutation map reads, if every result is a dim.
fn map_dims(op: OperationRef) -> Option<Vec<usize>> {
    super::affine_map_dims(op.attribute("permutation_map").ok()?)
}

/// Whether a transfer's permutation map keeps the order of the dims it reads.
fn order_preserving(op: OperationRef) -> bool {
    let Ok(map) = op.attribute("permutation_map") else {
        return false;
    };
    // SAFETY: queries on a live affine map attribute.
    unsafe {
        let raw = map.to_raw();
        if !mlir_sys::mlirAttributeIsAAffineMap(raw) {
            return false;
        }
        let map = mlir_sys::mlirAffineMapAttrGetValue(raw);
        let mut last = None;
        for r in 0..mlir_sys::mlirAffineMapGetNumResults(map) {
            let expression = mlir_sys::mlirAffineMapGetResult(map, r);
            if !mlir_sys::mlirAffineExprIsADim(expression) {
                return false;
            }
            let dim = mlir_sys::mlirAffineDimExprGetPosition(expression);
            if last.is_some_and(|l| dim <= l) {
                return false;
            }
            last = Some(dim);
        }
        true
    }
}
