//! CenterCropPad (opset 18): along each of `axes`, a dimension larger than its target
//! is cropped to a centered window (starting at half the difference, rounded down), a
//! smaller one is zero-padded on both sides (the odd element on the right): one slice,
//! then one pad.

use super::compose::slice;
use crate::builder::{normalize_axis, Converted, NodeContext, Slot};
use glow_dialects::ods::glow_graph;

/// CenterCropPad: see the module comment.
pub fn center_crop_pad<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let targets = cx.constant_input(1, "shape")?.to_i64s();
    let axes = match cx.attr_ints("axes") {
        Some(axes) => axes
            .iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<Vec<_>, _>>()?,
        None => (0..rank).collect(),
    };
    if let Some(axis) = axes
        .iter()
        .enumerate()
        .find_map(|(i, a)| axes[..i].contains(a).then_some(a))
    {
        return Err(format!("axis {axis} appears twice in axes"));
    }
    if targets.len() != axes.len() {
        return Err(format!(
            "shape has {} values for {} axes",
            targets.len(),
            axes.len()
        ));
    }
    let (mut start, mut kept) = (vec![0; rank], x.shape.clone());
    let mut pads = vec![0; 2 * rank];
    for (&axis, &target) in axes.iter().zip(&targets) {
        if target < 0 {
            return Err(format!("shape {target} is negative"));
        }
        let extent = x.shape[axis];
        if extent > target {
            start[axis] = (extent - target) / 2;
            kept[axis] = target;
        } else {
            pads[axis] = (target - extent) / 2;
            pads[rank + axis] = target - extent - pads[axis];
        }
    }
    let cropped = slice(cx, &x, &start, &kept)?;
    if pads.iter().all(|p| *p == 0) {
        return Ok(vec![cropped]);
    }
    let value = cx.materialize(&cropped)?;
    let zero = cx.scalar_attr(x.element, 0.0);
    let padded =
        cx.emit(glow_graph::pad(cx.context, value, cx.array_attr(&pads), zero, cx.location).into());
    let shape = cx.shape_of(padded);
    Ok(vec![Slot::value(padded, shape, x.element)])
}
