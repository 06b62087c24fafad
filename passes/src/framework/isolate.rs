//! Groups of top-level ops of a function moved into the functions of a temporary
//! `builtin.module` nested in it while a transform script runs on them, and moved back
//! after ([`isolate`], [`Isolated::restore`]).
//!
//! Why: upstream transform ops write the ops they work on into their diagnostics
//! eagerly (`transform.structured.fuse_into_containing_op` prints the producer and the
//! loop on every call, failing or not), and printing an op numbers and verifies its
//! whole enclosing isolated-from-above op. On a function of n kernels that is n fusions
//! of O(n) each: an unrolled GRU over 48 steps (389 matmuls) spent 29 s in
//! glow-cpu-tile-and-vectorize, 325 s over 128 steps. In a function of its own, each
//! print is as small as its kernel.
//!
//! A group's operands from outside become arguments of its function (constants and
//! empty tensors are re-created inside, so the schedules see them as before); the
//! results its last op gives to the rest of the function are returned, and a
//! placeholder cast of the arguments' outside values stands in for them until the
//! group moves back.

use super::raw_ops::{defined_inside, key, nested_ops, op_name};
use melior::{
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::FunctionType,
        Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type,
        Value, ValueLike,
    },
    Context,
};
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};
use std::collections::{HashMap, HashSet};

/// Zero-operand ops re-created inside a group instead of passed to it.
const RECREATED: &[&str] = &["arith.constant", "tensor.empty", "ub.poison"];

/// The temporary module and what each group's function stands for.
pub struct Isolated<'c, 'a> {
    module: OperationRef<'c, 'a>,
    groups: Vec<Group>,
}

struct Group {
    function: MlirOperation,
    /// Stands for the group's results in the rest of the function; its operands are
    /// the outside values of the function's arguments, held as uses so that they
    /// follow when a later group's results are replaced in turn.
    placeholder: MlirOperation,
}

/// The op of `block` that is or contains `op`, if any.
pub fn top_level_in(block: MlirBlock, mut op: MlirOperation) -> Option<MlirOperation> {
    // SAFETY: parent queries on live ops.
    unsafe {
        loop {
            if op.ptr.is_null() {
                return None;
            }
            let parent = mlir_sys::mlirOperationGetBlock(op);
            if parent.ptr == block.ptr {
                return Some(op);
            }
            op = mlir_sys::mlirOperationGetParentOperation(op);
        }
    }
}

/// The ops using `value`.
fn users(value: MlirValue) -> Vec<MlirOperation> {
    // SAFETY: a live value of the function.
    crate::quantization::ir::users(unsafe { Value::from_raw(value) })
        .iter()
        .map(|user| user.to_raw())
        .collect()
}

/// Moves each group (ops of `block`, any order) into a function of a new module at the
/// start of `block`. `None`, with nothing changed, unless the groups are disjoint and
/// only the last op of each (in block order) is used outside its group.
pub fn isolate<'c, 'a>(
    context: &'c Context,
    block: BlockRef<'c, 'a>,
    groups: &[Vec<OperationRef<'c, 'a>>],
) -> Option<Isolated<'c, 'a>> {
    let raw_block = block.to_raw();
    let mut position = HashMap::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        position.insert(op.to_raw().ptr as usize, position.len());
        next = op.next_in_block();
    }
    let mut taken = HashSet::new();
    let mut ordered = Vec::new();
    for group in groups {
        let mut ops: Vec<OperationRef> = group.clone();
        ops.sort_by_key(|op| position.get(&(op.to_raw().ptr as usize)).copied());
        ops.dedup_by_key(|op| op.to_raw().ptr as usize);
        let members: HashSet<usize> = ops.iter().map(|op| op.to_raw().ptr as usize).collect();
        for op in &ops {
            let id = op.to_raw().ptr as usize;
            if !position.contains_key(&id) || !taken.insert(id) {
                return None;
            }
        }
        for op in &ops[..ops.len().saturating_sub(1)] {
            for i in 0..op.result_count() {
                let result = op.result(i).ok()?.to_raw();
                let outside = users(result).into_iter().any(|user| {
                    top_level_in(raw_block, user)
                        .is_none_or(|top| !members.contains(&(top.ptr as usize)))
                });
                if outside {
                    return None;
                }
            }
        }
        ordered.push(ops);
    }
    let location = block
        .parent_operation()
        .map_or_else(|| Location::unknown(context), |op| op.location());
    let module_region = Region::new();
    module_region.append_block(Block::new(&[]));
    let module = OperationBuilder::new("builtin.module", location)
        .add_regions([module_region])
        .build()
        .ok()?;
    let module = match block.first_operation() {
        Some(first) => block.insert_operation_before(first, module),
        None => block.append_operation(module),
    };
    let module_body = module.region(0).ok()?.first_block()?;
    let groups = ordered
        .iter()
        .enumerate()
        .map(|(index, ops)| isolate_group(context, module_body, ops, index))
        .collect::<Option<Vec<_>>>()?;
    Some(Isolated { module, groups })
}

fn isolate_group<'c>(
    context: &'c Context,
    module_body: BlockRef<'c, '_>,
    ops: &[OperationRef<'c, '_>],
    index: usize,
) -> Option<Group> {
    let last = *ops.last()?;
    let location = last.location();
    let nested: Vec<MlirOperation> = ops.iter().flat_map(|op| nested_ops(op.to_raw())).collect();
    let inside_ops: HashSet<usize> = nested.iter().map(|op| op.ptr as usize).collect();
    let inside = defined_inside(&nested);
    // The last op's results used outside the group.
    let mut returned = Vec::new();
    for i in 0..last.result_count() {
        let result = last.result(i).ok()?.to_raw();
        if users(result)
            .iter()
            .any(|user| !inside_ops.contains(&(user.ptr as usize)))
        {
            returned.push(result);
        }
    }
    // SAFETY: a new block, owned by the group's function below.
    let body = unsafe { mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null()) };
    let mut seen: HashMap<usize, MlirValue> = HashMap::new();
    let mut outer = Vec::new();
    let mut remaps = Vec::new();
    for &op in &nested {
        // SAFETY: operands of live ops; clones and arguments go to the new block.
        unsafe {
            for i in 0..mlir_sys::mlirOperationGetNumOperands(op) {
                let operand = mlir_sys::mlirOperationGetOperand(op, i);
                if inside.contains(&key(operand)) {
                    continue;
                }
                let replacement = *seen.entry(key(operand)).or_insert_with(|| {
                    let definer = if mlir_sys::mlirValueIsAOpResult(operand) {
                        Some(mlir_sys::mlirOpResultGetOwner(operand))
                    } else {
                        None
                    };
                    match definer {
                        Some(definer)
                            if mlir_sys::mlirOperationGetNumOperands(definer) == 0
                                && mlir_sys::mlirOperationGetNumRegions(definer) == 0
                                && mlir_sys::mlirOperationGetNumResults(definer) == 1
                                && RECREATED.contains(&op_name(definer).as_str()) =>
                        {
                            let clone = mlir_sys::mlirOperationClone(definer);
                            mlir_sys::mlirBlockAppendOwnedOperation(body, clone);
                            mlir_sys::mlirOperationGetResult(clone, 0)
                        }
                        _ => {
                            outer.push(operand);
                            mlir_sys::mlirBlockAddArgument(
                                body,
                                mlir_sys::mlirValueGetType(operand),
                                location.to_raw(),
                            )
                        }
                    }
                });
                remaps.push((op, i, replacement));
            }
        }
    }
    let result_types: Vec<Type> = returned
        .iter()
        // SAFETY: types of live values.
        .map(|v| unsafe { Type::from_raw(mlir_sys::mlirValueGetType(*v)) })
        .collect();
    let outer_values: Vec<Value> = outer
        .iter()
        // SAFETY: live values of the function.
        .map(|v| unsafe { Value::from_raw(*v) })
        .collect();
    let placeholder = OperationBuilder::new("builtin.unrealized_conversion_cast", location)
        .add_operands(&outer_values)
        .add_results(&result_types)
        .build()
        .ok()?;
    let block = last.block()?;
    let placeholder = block.insert_operation_before(last, placeholder).to_raw();
    // SAFETY: the placeholder's results have the returned values' types; the group's
    // ops then move into the new block in order, their outside operands replaced.
    unsafe {
        for (i, value) in returned.iter().enumerate() {
            mlir_sys::mlirValueReplaceAllUsesOfWith(
                *value,
                mlir_sys::mlirOperationGetResult(placeholder, i as isize),
            );
        }
        for op in ops {
            mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
            mlir_sys::mlirBlockAppendOwnedOperation(body, op.to_raw());
        }
        for (op, i, value) in remaps {
            mlir_sys::mlirOperationSetOperand(op, i, value);
        }
    }
    let returned: Vec<Value> = returned
        .iter()
        // SAFETY: live values, now defined in the new block.
        .map(|v| unsafe { Value::from_raw(*v) })
        .collect();
    let terminator = OperationBuilder::new("func.return", location)
        .add_operands(&returned)
        .build()
        .ok()?;
    // SAFETY: appending an owned op to the new block, then the block to a region.
    let region = Region::new();
    unsafe {
        mlir_sys::mlirBlockAppendOwnedOperation(body, terminator.into_raw());
        mlir_sys::mlirRegionAppendOwnedBlock(region.to_raw(), body);
    }
    let argument_types: Vec<Type> = outer
        .iter()
        // SAFETY: types of live values.
        .map(|v| unsafe { Type::from_raw(mlir_sys::mlirValueGetType(*v)) })
        .collect();
    let function_type = FunctionType::new(context, &argument_types, &result_types);
    let function = OperationBuilder::new("func.func", location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, &format!("isolated_{index}")).into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(function_type.into()).into(),
            ),
            (
                Identifier::new(context, "sym_visibility"),
                StringAttribute::new(context, "private").into(),
            ),
        ])
        .add_regions([region])
        .build()
        .ok()?;
    let function = module_body.append_operation(function).to_raw();
    Some(Group {
        function,
        placeholder,
    })
}

impl<'c, 'a> Isolated<'c, 'a> {
    /// The temporary module: the payload to transform.
    pub fn module(&self) -> OperationRef<'c, 'a> {
        self.module
    }

    /// Moves every group's ops (as the transform left them) back in place of its
    /// placeholder and erases the module.
    pub fn restore(self) {
        for group in self.groups.iter().rev() {
            // SAFETY: the group's function, its single block and the placeholder are
            // live; ops move before the placeholder, then arguments and placeholder
            // results are replaced by what they stood for, and the emptied function
            // goes with the module.
            unsafe {
                let region = mlir_sys::mlirOperationGetRegion(group.function, 0);
                let body = mlir_sys::mlirRegionGetFirstBlock(region);
                let terminator = mlir_sys::mlirBlockGetTerminator(body);
                let mut op = mlir_sys::mlirBlockGetFirstOperation(body);
                while !op.ptr.is_null() && op.ptr != terminator.ptr {
                    let next = mlir_sys::mlirOperationGetNextInBlock(op);
                    mlir_sys::mlirOperationMoveBefore(op, group.placeholder);
                    op = next;
                }
                for i in 0..mlir_sys::mlirOperationGetNumOperands(group.placeholder) {
                    mlir_sys::mlirValueReplaceAllUsesOfWith(
                        mlir_sys::mlirBlockGetArgument(body, i),
                        mlir_sys::mlirOperationGetOperand(group.placeholder, i),
                    );
                }
                for i in 0..mlir_sys::mlirOperationGetNumResults(group.placeholder) {
                    mlir_sys::mlirValueReplaceAllUsesOfWith(
                        mlir_sys::mlirOperationGetResult(group.placeholder, i),
                        mlir_sys::mlirOperationGetOperand(terminator, i),
                    );
                }
                mlir_sys::mlirOperationRemoveFromParent(group.placeholder);
                mlir_sys::mlirOperationDestroy(group.placeholder);
            }
        }
        // SAFETY: the module holds only the emptied functions now.
        unsafe {
            let module = self.module.to_raw();
            mlir_sys::mlirOperationRemoveFromParent(module);
            mlir_sys::mlirOperationDestroy(module);
        }
    }
}
