//! Which ops glow-quantize turns into integer ops.
//!
//! Compute ops (conv2d, fully_connected, matmul, batch_matmul) always: their integer
//! form is where int8 pays. The others of [`QUANTIZED_OPS`] (add, mul, pools, concat,
//! the sigmoid / tanh tables) only carry int8 from one quantized op to the next: one is
//! selected when an activation operand comes from a selected op and its result feeds
//! one, looking through data movement (reshape, transpose, slice, broadcast) and a
//! ReLU / Clip. Quantizing such an op anywhere else adds a conversion and a rounding
//! for nothing: the attention-mask add of a transformer, between a float scaling and
//! a float Softmax, would have its scores rounded to a range stretched by the mask's
//! -10000 (measured: encoder cosine 0.84 against float, 0.999 without it).
//!
//! The selection grows to a fixpoint, so chains of carriers between quantized ops
//! (ResNet's add -> relu, MobileNet's residual adds, concat of branches) are selected.

use super::{
    ir::{name_of, operand, producer, users},
    values::{is_weight, quantized_kind},
};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, Value, ValueLike,
};
use std::collections::HashSet;

/// Kinds selected on their own.
const COMPUTE: &[&str] = &["conv2d", "fully_connected", "matmul", "batch_matmul"];

/// Ops int8 values pass through unchanged in kind (their dequantize sinks below them).
fn is_transparent(op: OperationRef) -> bool {
    matches!(
        name_of(op).as_str(),
        "glow.graph.reshape"
            | "glow.graph.transpose"
            | "glow.graph.slice"
            | "glow.graph.broadcast"
            | "glow.graph.relu"
            | "glow.graph.clip"
    )
}

fn key(op: OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// The ops whose results reach `value` through transparent ops.
fn sources<'c: 'a, 'a>(value: Value<'c, 'a>, out: &mut Vec<OperationRef<'c, 'a>>) {
    if let Some(op) = producer(value) {
        match operand(op, 0).filter(|_| is_transparent(op)) {
            Some(input) => sources(input, out),
            None => out.push(op),
        }
    }
}

/// The ops `value` reaches through transparent ops.
fn sinks<'c: 'a, 'a>(value: Value<'c, 'a>, out: &mut Vec<OperationRef<'c, 'a>>) {
    for user in users(value) {
        match user.result(0).ok().filter(|_| is_transparent(user)) {
            // SAFETY: the result lives in the same IR as `value`.
            Some(result) => sinks(unsafe { Value::from_raw(result.to_raw()) }, out),
            None => out.push(user),
        }
    }
}

/// The ops of `function` to quantize, in IR order: every op of an integer form whose
/// kind `kept` does not name, compute ops always, carriers where they join quantized ops.
pub fn select_ops<'c: 'a, 'a>(
    function: OperationRef<'c, 'a>,
    kept: &dyn Fn(OperationRef) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut candidates: Vec<OperationRef<'c, 'a>> = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        // SAFETY: ops of the function outlive this selection.
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if quantized_kind(op).is_some() && !kept(op) {
            candidates.push(op);
        }
        WalkResult::Advance
    });
    let mut selected: HashSet<usize> = candidates
        .iter()
        .filter(|op| quantized_kind(**op).is_some_and(|k| COMPUTE.contains(&k)))
        .map(|op| key(*op))
        .collect();
    loop {
        let before = selected.len();
        for op in &candidates {
            if selected.contains(&key(*op)) {
                continue;
            }
            let mut inputs = Vec::new();
            for i in (0..op.operand_count()).filter(|i| !is_weight(*op, *i)) {
                if let Some(value) = operand(*op, i) {
                    sources(value, &mut inputs);
                }
            }
            let mut outputs = Vec::new();
            if let Some(result) = crate::quantization::ir::result(*op, 0) {
                sinks(result, &mut outputs);
            }
            let fed = inputs.iter().any(|p| selected.contains(&key(*p)));
            let feeds = outputs.iter().any(|u| selected.contains(&key(*u)));
            if fed && feeds {
                selected.insert(key(*op));
            }
        }
        if selected.len() == before {
            break;
        }
    }
    candidates.retain(|op| selected.contains(&key(*op)));
    candidates
}
