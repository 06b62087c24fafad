//! If with a condition known at import (an initializer, a Constant, a value computed
//! from static shapes, or an input frozen with --freeze-input): the nodes of the branch
//! it selects are converted in place, in the enclosing function, reading outer values by
//! name as ONNX's scoping allows, and the branch's outputs become the If's (each value
//! checked against --max-tensor-bytes as the graph's are). The other branch is not
//! converted, nor checked for unsupported ops. A condition computed at run time is refused: glow compiles
//! one static graph (the branches may even have different output shapes).

use super::converter;
use crate::{
    builder::{Converted, NodeContext, Slot},
    import::{check_tensor_size, node_label},
    tensor::TensorData,
};
use melior::ir::Location;

/// If: see the module comment.
pub fn r#if<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let condition = cx.input(0)?;
    let Some(data) = condition.constant.clone() else {
        return Err(format!(
            "the condition (input #0, '{}') must be a constant or computable from static shapes: \
             glow compiles one static graph (a runtime flag can be frozen with --freeze-input)",
            cx.node.input[0]
        ));
    };
    let [value] = data.to_f64s()[..] else {
        return Err(format!(
            "the condition holds {} values, not one",
            data.len()
        ));
    };
    let taken = if value != 0.0 {
        "then_branch"
    } else {
        "else_branch"
    };
    let node = cx.node;
    let branch = node
        .attribute
        .iter()
        .find(|a| a.name() == taken)
        .and_then(|a| a.g.as_ref())
        .ok_or_else(|| format!("the node has no {taken} graph"))?;
    if branch.output.len() != node.output.len() {
        return Err(format!(
            "the {taken} has {} outputs for the node's {}",
            branch.output.len(),
            node.output.len()
        ));
    }
    for tensor in &branch.initializer {
        let data = TensorData::from_proto(tensor, &cx.resources.directory)
            .map_err(|error| format!("the {taken}: {error}"))?;
        cx.env
            .insert(tensor.name().to_string(), Slot::constant(data));
    }
    for inner in &branch.node {
        let label = node_label(inner);
        let fail = |reason: String| {
            format!(
                "node '{label}' ({}) of the {taken}: {reason}",
                inner.op_type()
            )
        };
        let convert = converter(inner).ok_or_else(|| fail("unsupported op".into()))?;
        let mut inner_cx = NodeContext {
            context: cx.context,
            block: cx.block,
            location: Location::name(cx.context, &label, cx.location),
            node: inner,
            opset: cx.opset,
            env: &mut *cx.env,
            resources: &mut *cx.resources,
        };
        let slots = convert(&mut inner_cx).map_err(fail)?;
        for (name, slot) in inner.output.iter().zip(slots) {
            check_tensor_size(&slot.shape, slot.element, cx.resources.max_tensor_bytes)
                .map_err(|reason| fail(format!("output '{name}': {reason}")))?;
            if !name.is_empty() {
                cx.env.insert(name.clone(), slot);
            }
        }
    }
    branch
        .output
        .iter()
        .map(|output| {
            cx.env.get(output.name()).cloned().ok_or_else(|| {
                format!(
                    "the {taken}'s output '{}' is not produced by any node",
                    output.name()
                )
            })
        })
        .collect()
}
