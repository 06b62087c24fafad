//! ONNX's multidirectional (numpy) broadcasting made explicit: operands are reshaped
//! to the result's rank and repeated with `glow.graph.broadcast`.

use crate::builder::{NodeContext, Slot};
use glow_dialects::ods::glow_graph;
use melior::ir::Value;

/// `slot` as a value of `shape` (which it must broadcast to).
pub fn broadcast_to<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: &Slot<'c, 'a>,
    shape: &[i64],
) -> Result<Value<'c, 'a>, String> {
    if slot.shape != shape {
        // A scalar constant broadcast is a splat.
        if let Some(data) = slot.constant.as_ref().filter(|d| d.len() == 1) {
            let r#type = cx.tensor_type(shape, slot.element);
            let scalar = cx.scalar_attr(slot.element, data.to_f64s()[0]);
            return Ok(cx.emit(glow_graph::splat(cx.context, r#type, scalar, cx.location).into()));
        }
    }
    let broadcasts = slot.shape.len() <= shape.len()
        && slot
            .shape
            .iter()
            .rev()
            .zip(shape.iter().rev())
            .all(|(from, to)| from == to || *from == 1);
    if !broadcasts {
        return Err(format!(
            "shape {:?} does not broadcast to {shape:?}",
            slot.shape
        ));
    }
    let value = cx.materialize(slot)?;
    if slot.shape == shape {
        return Ok(value);
    }
    let mut aligned = vec![1i64; shape.len() - slot.shape.len()];
    aligned.extend_from_slice(&slot.shape);
    let value = if aligned.len() != slot.shape.len() {
        let r#type = cx.tensor_type(&aligned, slot.element);
        cx.emit(glow_graph::reshape(cx.context, r#type, value, cx.location).into())
    } else {
        value
    };
    if aligned == shape {
        return Ok(value);
    }
    let r#type = cx.tensor_type(shape, slot.element);
    let axis = cx.i64_attr(0);
    Ok(cx.emit(glow_graph::broadcast(cx.context, r#type, value, axis, cx.location).into()))
}

/// Reshapes `value` (of `slot`'s element type) to `shape` unless it already has it.
pub fn reshape_to<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: &Slot<'c, 'a>,
    shape: &[i64],
) -> Result<Value<'c, 'a>, String> {
    let value = cx.materialize(slot)?;
    if slot.shape == shape {
        return Ok(value);
    }
    let r#type = cx.tensor_type(shape, slot.element);
    Ok(cx.emit(glow_graph::reshape(cx.context, r#type, value, cx.location).into()))
}
