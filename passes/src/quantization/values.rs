//! Which float values quantization touches, their names, and the graph hash, shared
//! by glow-profile and glow-quantize so both see the same values under the same names
//! on the same graph.
//!
//! Quantized ops are the ones with an integer form ([`QUANTIZED_OPS`]). Their float
//! activation operands are profiled, and so are their results, taken after a ReLU or
//! Clip that follows them alone (the activation is fused into the integer op's clamp).
//! Constant weights (a convolution's filter, a fully-connected or matmul right-hand
//! side) are quantized from their own values and biases from the weights' scales, so
//! neither is profiled.

use super::ir::{name_of, operand, producer};
use crate::{graph_optimize::compose_transposes::has_one_use, lower_nodes::builder::tensor_info};
use melior::ir::{
    operation::{OperationLike, OperationPrintingFlags, WalkOrder, WalkResult},
    BlockLike, OperationRef, RegionLike, TypeLike, Value, ValueLike,
};
use std::collections::HashMap;

/// glow.graph ops with an integer form (glow-quantization-folding turns them into
/// glow.quant ops once their operands and results are quantized).
pub const QUANTIZED_OPS: &[&str] = &[
    "conv2d",
    "fully_connected",
    "matmul",
    "batch_matmul",
    "add",
    "mul",
    "max_pool",
    "avg_pool",
    "concat",
    "sigmoid",
    "tanh",
];

/// The kind of `op` ("conv2d") if it is a glow.graph op of [`QUANTIZED_OPS`].
pub fn quantized_kind(op: OperationRef) -> Option<&'static str> {
    let name = name_of(op);
    let kind = name.strip_prefix("glow.graph.")?;
    QUANTIZED_OPS.iter().copied().find(|k| *k == kind)
}

/// Whether operand `i` of `op` is a weight quantized from its constant values
/// (per output channel) rather than from a profile, or a bias (quantized with the
/// weights' scales).
pub fn is_weight(op: OperationRef, i: usize) -> bool {
    let kind = quantized_kind(op);
    let constant = operand(op, i).and_then(producer).is_some_and(|p| {
        matches!(
            name_of(p).as_str(),
            "glow.graph.constant" | "arith.constant"
        )
    });
    match (kind, i) {
        (Some("conv2d" | "fully_connected"), 1 | 2) => constant,
        (Some("matmul"), 1) => constant,
        _ => false,
    }
}

/// The value an op's result is quantized at: after a ReLU / Clip that is its only
/// user, else the result itself.
pub fn output_point<'c: 'a, 'a>(result: Value<'c, 'a>) -> Value<'c, 'a> {
    if !has_one_use(result) {
        return result;
    }
    // SAFETY: the use is alive; its owner is an op of the same IR.
    let user = unsafe {
        let first = mlir_sys::mlirValueGetFirstUse(result.to_raw());
        OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(first))
    };
    match name_of(user).as_str() {
        "glow.graph.relu" | "glow.graph.clip" => user
            .result(0)
            .map(|r| {
                // SAFETY: the result lives in the same IR as `result`.
                unsafe { Value::from_raw(r.to_raw()) }
            })
            .unwrap_or(result),
        _ => result,
    }
}

fn is_float_tensor(value: Value) -> bool {
    tensor_info(value).is_some_and(|(_, element)| crate::to_linalg::builder::is_float(element))
}

/// The values quantization touches in `function`, in IR order, with unique names:
/// ONNX port names for arguments, node names (the op's location) for results;
/// repeated names get `#2`, `#3` ... in order.
pub fn quantized_values<'c: 'a, 'a>(
    function: OperationRef<'c, 'a>,
) -> Vec<(Value<'c, 'a>, String)> {
    let mut chosen: Vec<Value> = Vec::new();
    let add = |value: Value<'c, 'a>, chosen: &mut Vec<Value<'c, 'a>>| {
        if is_float_tensor(value) && !chosen.iter().any(|v| v.to_raw().ptr == value.to_raw().ptr) {
            chosen.push(value);
        }
    };
    function.walk(WalkOrder::PreOrder, |op| {
        // SAFETY: ops of the function outlive this walk's callers.
        let op: OperationRef<'c, 'a> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if quantized_kind(op).is_none() {
            return WalkResult::Advance;
        }
        for i in 0..op.operand_count() {
            if !is_weight(op, i) {
                if let Some(v) = operand(op, i) {
                    add(v, &mut chosen);
                }
            }
        }
        if let Some(result) = crate::quantization::ir::result(op, 0) {
            add(output_point(result), &mut chosen);
        }
        WalkResult::Advance
    });
    let ports = function_ports(function);
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut named = Vec::new();
    // Order by position in the IR: arguments first, then definitions.
    let position = |value: &Value| -> (usize, usize) {
        // SAFETY: queries on live values.
        unsafe {
            if mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
                return (
                    0,
                    mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) as usize,
                );
            }
        }
        (1, 0)
    };
    chosen.sort_by_key(position);
    for value in chosen {
        let base = value_name(value, &ports);
        let count = seen.entry(base.clone()).or_insert(0);
        *count += 1;
        let name = if *count == 1 {
            base
        } else {
            format!("{base}#{count}")
        };
        named.push((value, name));
    }
    named
}

fn function_ports(function: OperationRef) -> Vec<Option<String>> {
    glow_dialects::port_names::port_names(function).0
}

fn value_name(value: Value, ports: &[Option<String>]) -> String {
    // SAFETY: queries on a live value.
    unsafe {
        if mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
            let i = mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) as usize;
            return ports
                .get(i)
                .cloned()
                .flatten()
                .unwrap_or_else(|| format!("input{i}"));
        }
        let owner = OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw()));
        let base = crate::framework::locations::node_name(owner).unwrap_or_else(|| name_of(owner));
        let index = mlir_sys::mlirOpResultGetResultNumber(value.to_raw());
        if owner.result_count() > 1 {
            format!("{base}:{index}")
        } else {
            base
        }
    }
}

/// `text` with the names inside `dense_resource<...>` removed: MLIR renames blobs that
/// already exist in a context (w0 -> w0_1), and their bytes are hashed separately.
fn without_resource_names(text: &str) -> String {
    const MARK: &str = "dense_resource<";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(MARK) {
        out.push_str(&rest[..start + MARK.len()]);
        rest = &rest[start + MARK.len()..];
        rest = &rest[rest.find('>').unwrap_or(0)..];
    }
    out.push_str(rest);
    out
}

/// FNV-1a, 64 bits.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x100000001b3);
    }
}

/// A hash of `function` before instrumentation (Glow's pre-lowering graph hash): its
/// signature and its body's generic form without locations or constant payloads, then
/// every constant's bytes.
pub fn graph_hash(function: OperationRef) -> String {
    let mut hash = 0xcbf29ce484222325u64;
    let flags = || {
        OperationPrintingFlags::new()
            .elide_large_elements_attributes(16)
            .print_generic_operation_form()
    };
    // The signature and the body, not the function's attributes: runners add their
    // own (llvm.emit_c_interface, glow.profile_hash) without changing the graph.
    if let Ok(signature) = function.attribute("function_type") {
        fnv(&mut hash, signature.to_string().as_bytes());
    }
    if let Some(body) = function.region(0).ok().and_then(|r| r.first_block()) {
        let mut next = body.first_operation();
        while let Some(op) = next {
            if let Ok(text) = op.to_string_with_flags(flags()) {
                fnv(&mut hash, without_resource_names(&text).as_bytes());
            }
            next = op.next_in_block();
        }
    }
    let mut constants = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if matches!(
            name_of(op).as_str(),
            "glow.graph.constant" | "arith.constant"
        ) {
            constants.push(op.to_raw());
        }
        WalkResult::Advance
    });
    for raw in constants {
        // SAFETY: collected from the live function just above.
        let op = unsafe { OperationRef::from_raw(raw) };
        let (Ok(result), Ok(attribute)) = (op.result(0), op.attribute("value")) else {
            continue;
        };
        let Some((_, element)) = tensor_info(result.into()) else {
            continue;
        };
        let float = crate::to_linalg::builder::is_float(element);
        // SAFETY: a type query.
        // SAFETY: type queries on a valid type.
        let width = if unsafe { mlir_sys::mlirTypeIsAInteger(element.to_raw()) } {
            (unsafe { mlir_sys::mlirIntegerTypeGetWidth(element.to_raw()) }) as usize
        } else if element.is_f64() {
            64
        } else {
            32
        };
        if let Some(bytes) = glow_dialects::elements::raw_bytes(attribute, width.div_ceil(8), float)
        {
            fnv(&mut hash, &bytes);
        } else {
            fnv(&mut hash, attribute.to_string().as_bytes());
        }
    }
    format!("{hash:016x}")
}

/// The `func.func` ops of a module op.
pub fn functions<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    if let Some(block) = module.region(0).ok().and_then(|r| r.first_block()) {
        let mut op = block.first_operation();
        while let Some(current) = op {
            if name_of(current) == "func.func" {
                // SAFETY: the op lives in the module, alive for 'a.
                out.push(unsafe { OperationRef::from_raw(current.to_raw()) });
            }
            op = current.next_in_block();
        }
    }
    out
}
