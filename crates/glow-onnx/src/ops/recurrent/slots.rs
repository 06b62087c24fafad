//! Slot helpers of the recurrent layers: slices, reshapes, transposes and joins that
//! fold at import time when their operand is a constant (the weights), matrix products
//! and the `clip` attribute's limits.

use super::super::compose::{bin, scalar, Bin};
use crate::{
    builder::{NodeContext, Slot},
    folding,
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;

/// `a[start .. start + sizes]` (folded for constants).
pub(super) fn take<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    start: &[i64],
    sizes: &[i64],
) -> Result<Slot<'c, 'a>, String> {
    if sizes == a.shape.as_slice() {
        return Ok(a.clone());
    }
    if let Some(data) = &a.constant {
        let step = vec![1; sizes.len()];
        return Ok(Slot::constant(folding::slice(data, start, &step, sizes)));
    }
    let value = cx.materialize(a)?;
    let r#type = cx.tensor_type(sizes, a.element);
    let attr = cx.array_attr(start);
    let out = cx.emit(glow_graph::slice(cx.context, r#type, value, attr, cx.location).into());
    Ok(Slot::value(out, sizes.to_vec(), a.element))
}

/// `a` in `shape` (folded for constants).
pub(super) fn shaped<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    shape: &[i64],
) -> Result<Slot<'c, 'a>, String> {
    if let Some(data) = &a.constant {
        let mut data = TensorData::clone(data);
        data.dims = shape.to_vec();
        return Ok(Slot::constant(data));
    }
    super::super::compose::reshape(cx, a, shape)
}

/// `a` permuted (folded for constants).
pub(super) fn permuted<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    perm: &[usize],
) -> Result<Slot<'c, 'a>, String> {
    match &a.constant {
        Some(data) => Ok(Slot::constant(folding::transpose(data, perm))),
        None => super::super::compose::transpose(cx, a, perm),
    }
}

/// `pieces` joined along `axis`.
pub(super) fn join<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    pieces: &[Slot<'c, 'a>],
    axis: usize,
) -> Result<Slot<'c, 'a>, String> {
    if pieces.len() == 1 {
        return Ok(pieces[0].clone());
    }
    let mut shape = pieces[0].shape.clone();
    shape[axis] = pieces.iter().map(|p| p.shape[axis]).sum();
    let values = pieces
        .iter()
        .map(|p| cx.materialize(p))
        .collect::<Result<Vec<_>, _>>()?;
    let attr = cx.i64_attr(axis as i64);
    let out = cx.emit(glow_graph::concat(cx.context, &values, attr, cx.location).into());
    Ok(Slot::value(out, shape, pieces[0].element))
}

/// The matrix product of `a` [M, K] and `b` [K, N].
pub(super) fn product<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    b: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let (lhs, rhs) = (cx.materialize(a)?, cx.materialize(b)?);
    let out = cx.emit(glow_graph::matmul(cx.context, lhs, rhs, cx.location).into());
    Ok(Slot::value(out, vec![a.shape[0], b.shape[1]], a.element))
}

/// `x` limited to [-clip, clip] when the node has a clip.
pub(super) fn clipped<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    clip: Option<f64>,
) -> Result<Slot<'c, 'a>, String> {
    match clip {
        None => Ok(x.clone()),
        Some(c) => {
            let low = bin(cx, Bin::Max, x, &scalar(x.element, -c))?;
            bin(cx, Bin::Min, &low, &scalar(x.element, c))
        }
    }
}
