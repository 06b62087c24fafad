//! Operands of an elementwise op that the transpose / reshape sinking rules
//! ([`super::sink_movement`]) re-make in the source layout instead of requiring them to
//! arrive moved, since no data has to move:
//! - a splat (re-made in the source shape);
//! - a broadcast of a value whose dimensions are all 1 (a run-time scalar, such as a
//!   zero point computed by DynamicQuantizeLinear; re-made in the source shape);
//! - for transposes, a value whose dimensions above 1 keep their order under the
//!   permutation, or a broadcast of one: a per-channel scale or shift (a batch norm
//!   that could not fold into an integer convolution, a zero point times each filter's
//!   sum), a spatial mask broadcast over channels. Its transpose is a reshape, then a
//!   broadcast.
//! - for reshapes, a broadcast of a value that varies only along the trailing
//!   dimensions the reshape keeps (a bias over the features of a `[batch, tokens,
//!   features]` tensor that a 2-D matmul produced as `[batch * tokens, features]`): it
//!   is re-made as the same vector broadcast over the source's leading dimensions.
//!
//! Without this, `mul(transpose(x), broadcast(per_channel))` stopped the channels-last
//! transposes, and the rest of the chain ran in NCHW with strided reads.

use super::compose_transposes::defining_op;
use crate::{
    framework::attributes::i64_value, lower_nodes::builder::tensor_info,
    quantization::ir::tensor_type,
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Location, Type,
        Value, ValueLike,
    },
    Context, RewriterBase,
};

/// How the sinking rule moved the op's other operands.
pub enum Layout<'p> {
    /// Transposed by this permutation (`result[i] = source[perm[i]]`).
    Transpose(&'p [i64]),
    /// Reshaped from a source of this shape.
    Reshape(&'p [i64]),
}

/// A value (a constant or computed), or the input of a broadcast making `value`,
/// whose dimensions above 1 keep their order under `perm`, so that its transpose is a
/// reshape: that value and the shape it has in the source layout.
fn reshapable<'c: 'a, 'a>(value: Value<'c, 'a>, perm: &[i64]) -> Option<(Value<'c, 'a>, Vec<i64>)> {
    let (vector, axis) = match defining_op(value, "glow.graph.broadcast") {
        Some(broadcast) => (first_operand(broadcast)?, i64_value(broadcast, "axis")?),
        None => (value, 0),
    };
    let (shape, _) = tensor_info(vector)?;
    // Its dimensions at full rank in the operand's layout, then in the source's:
    // source[perm[i]] = operand[i].
    let mut full = vec![1i64; perm.len()];
    for (i, d) in shape.iter().enumerate() {
        *full.get_mut(usize::try_from(axis).ok()? + i)? = *d;
    }
    let mut moved = vec![1i64; perm.len()];
    for (i, p) in perm.iter().enumerate() {
        *moved.get_mut(usize::try_from(*p).ok()?)? = full[i];
    }
    let positions: Vec<i64> = (0..perm.len())
        .filter(|i| full[*i] > 1)
        .map(|i| perm[i])
        .collect();
    positions
        .windows(2)
        .all(|w| w[0] < w[1])
        .then_some((vector, moved))
}

/// For an operand `value` of a reshaped op whose source has shape `source`: the input
/// of the broadcast making `value` and its shape in the source, when the input varies
/// only along trailing dimensions that the operand and the source share (the reshape
/// merges or splits only the dimensions before them, where the input is 1).
fn trailing_broadcast<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    source: &[i64],
) -> Option<(Value<'c, 'a>, Vec<i64>)> {
    let broadcast = defining_op(value, "glow.graph.broadcast")?;
    let (input, axis) = (first_operand(broadcast)?, i64_value(broadcast, "axis")?);
    let (shape, _) = tensor_info(input)?;
    let (operand, _) = tensor_info(value)?;
    // The input's dimensions at the operand's rank.
    let mut full = vec![1i64; operand.len()];
    for (i, d) in shape.iter().enumerate() {
        *full.get_mut(usize::try_from(axis).ok()? + i)? = *d;
    }
    let kept = operand
        .iter()
        .rev()
        .zip(source.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (lead, tail) = full.split_at(operand.len() - kept);
    if !lead.iter().all(|d| *d == 1) || kept == 0 || source.len() < kept {
        return None;
    }
    let moved: Vec<i64> = std::iter::repeat_n(1, source.len() - kept)
        .chain(tail.iter().copied())
        .collect();
    Some((input, moved))
}

/// The input of a broadcast whose input dimensions are all 1.
fn broadcast_scalar<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    let input = first_operand(defining_op(value, "glow.graph.broadcast")?)?;
    let (shape, _) = tensor_info(input)?;
    shape.iter().all(|d| *d == 1).then_some(input)
}

/// The first operand of `op`, with the lifetime of the IR it lives in.
fn first_operand<'c, 'a>(op: melior::ir::OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    let operand = op.operand(0).ok()?;
    // SAFETY: the operand lives in the same IR as `op`.
    Some(unsafe { Value::from_raw(operand.to_raw()) })
}

/// Whether `value` can be re-made in the source layout by [`remake`].
pub fn is_layout_free(value: Value, layout: &Layout) -> bool {
    defining_op(value, "glow.graph.splat").is_some()
        || broadcast_scalar(value).is_some()
        || matches!(layout, Layout::Transpose(perm) if reshapable(value, perm).is_some())
        || matches!(layout, Layout::Reshape(source) if trailing_broadcast(value, source).is_some())
}

/// `value` (a layout-free operand) re-made with shape `shape` in the source layout,
/// before the rewriter's insertion point.
pub fn remake<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    value: Value<'c, '_>,
    layout: &Layout,
    shape: &[i64],
    location: Location<'c>,
) -> Option<mlir_sys::MlirValue> {
    let (_, element) = tensor_info(value)?;
    if let Some(splat) = defining_op(value, "glow.graph.splat") {
        let remade = rewriter.clone_op(splat);
        let result = remade.result(0).ok()?;
        let r#type = tensor_type(shape, element);
        // SAFETY: a splat's result type is free; it takes the source shape.
        unsafe {
            mlir_sys::mlirValueSetType(result.to_raw(), melior::ir::TypeLike::to_raw(&r#type))
        };
        return Some(result.to_raw());
    }
    if let Some(input) = broadcast_scalar(value) {
        let (input_shape, _) = tensor_info(input)?;
        let input = if input_shape.len() > shape.len() {
            let ones = vec![1; shape.len()];
            reshape(context, rewriter, input, &ones, element, location)?
        } else {
            input.to_raw()
        };
        return broadcast(context, rewriter, input, shape, element, location);
    }
    let (vector, moved) = match layout {
        Layout::Transpose(perm) => reshapable(value, perm)?,
        Layout::Reshape(source) => trailing_broadcast(value, source)?,
    };
    let reshaped = reshape(context, rewriter, vector, &moved, element, location)?;
    if moved == shape {
        return Some(reshaped);
    }
    broadcast(context, rewriter, reshaped, shape, element, location)
}

/// A reshape of `value` to `shape`, inserted by `rewriter`.
fn reshape<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    value: Value<'c, '_>,
    shape: &[i64],
    element: Type<'c>,
    location: Location<'c>,
) -> Option<mlir_sys::MlirValue> {
    let op = glow_graph::reshape(context, tensor_type(shape, element), value, location);
    Some(rewriter.insert(op.into()).result(0).ok()?.to_raw())
}

/// The broadcast of the raw `value` (unit dimensions only grow) to `shape`.
fn broadcast<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    value: mlir_sys::MlirValue,
    shape: &[i64],
    element: Type<'c>,
    location: Location<'c>,
) -> Option<mlir_sys::MlirValue> {
    // SAFETY: `value` is alive in the IR the rewriter edits.
    let value = unsafe { Value::from_raw(value) };
    let axis = IntegerAttribute::new(IntegerType::new(context, 64).into(), 0);
    let op = glow_graph::broadcast(context, tensor_type(shape, element), value, axis, location);
    Some(rewriter.insert(op.into()).result(0).ok()?.to_raw())
}
