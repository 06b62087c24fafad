//! `glow-distinct-empties` (on tensors, before bufferization): a `tensor.empty` with
//! several users is replaced by one copy per user, created just before it. CSE merges every empty tensor of one type into one
//! value, and one-shot bufferization's conflict analysis (which
//! `eliminate-empty-tensors` runs too) compares the writes into a value's aliases with
//! every read of them: hundreds of ops writing into one shared empty tensor made both
//! passes cubic in the number of ops (a recurrence unrolled over 400 steps: 7.2 of its
//! 9.8 s of compilation; an ONNX LSTM over 128 steps: 277 of 285 s). Separate empty
//! tensors bufferize to the same allocations as before.
//!
//! Upstream CSE has the same blind spot before this pass: it hashes an op's name,
//! attributes and operands, not its regions, so the kernels' `scf.forall` loops writing
//! into one shared empty tensor (an unrolled recurrence's 1,024 gate kernels) all hash
//! alike and each is compared region by region with every earlier one (quadratic: 2 of
//! a 512-step LSTM's 12 s of compilation in its CSE runs). The schedules number their
//! top-level loops ([`number_loops`], `glow.loop`), which keeps their hashes apart,
//! and this pass, after the last CSE on tensors, drops the numbers.

use crate::framework::{
    attributes::{remove_attribute, set_attribute},
    PassDefinition, PassOptions,
};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        BlockLike, OperationRef, RegionLike,
    },
};
use mlir_sys::MlirOperation;

/// The pass definition registered as `glow-distinct-empties`.
pub static DISTINCT_EMPTIES: PassDefinition = PassDefinition {
    argument: "glow-distinct-empties",
    description: "Give each user of a shared tensor.empty its own copy, created just before it, so bufferization's alias sets stay small",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::tensor()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The (owner, operand index) of every use of `op`'s single result.
fn uses(op: MlirOperation) -> Vec<(MlirOperation, isize)> {
    let mut found = Vec::new();
    // SAFETY: use-list traversal of a live op's result.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(mlir_sys::mlirOperationGetResult(op, 0));
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            found.push((
                mlir_sys::mlirOpOperandGetOwner(operand),
                mlir_sys::mlirOpOperandGetOperandNumber(operand) as isize,
            ));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    found
}

/// The attribute numbering a function's top-level `scf.forall` loops on tensors.
pub const LOOP_NUMBER: &str = "glow.loop";

/// Numbers the top-level `scf.forall` ops with results in `function`'s body
/// ([`LOOP_NUMBER`]), so CSE's hash tells apart loops with equal operands.
pub(crate) fn number_loops(function: OperationRef) {
    let Some(block) = function.region(0).ok().and_then(|r| r.first_block()) else {
        return;
    };
    let context = function.context();
    // SAFETY: the function's context outlives this call.
    let context = unsafe { context.to_ref() };
    let index = melior::ir::r#type::IntegerType::new(context, 64).into();
    let mut number = 0;
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.result_count() > 0 && op.name().as_string_ref().as_str() == Ok("scf.forall") {
            let value = melior::ir::attribute::IntegerAttribute::new(index, number);
            set_attribute(op, LOOP_NUMBER, value.into());
            number += 1;
        }
    }
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let mut empties = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str();
        if name == Ok("tensor.empty") && op.result_count() == 1 {
            empties.push(op.to_raw());
        } else if name == Ok("scf.forall") {
            remove_attribute(op, LOOP_NUMBER);
        }
        WalkResult::Advance
    });
    for empty in empties {
        let uses = uses(empty);
        if uses.len() < 2 {
            continue;
        }
        // Every user gets a copy just before it; the original is then unused.
        for (owner, index) in uses {
            read_copy(empty, owner, index);
        }
        // SAFETY: the original has no users left.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(empty);
            mlir_sys::mlirOperationDestroy(empty);
        }
    }
    Ok(())
}

/// Makes operand `index` of `owner` read a copy of the op `empty` it reads (a
/// `tensor.empty`, a fill of one, a broadcast), created just before `owner`; returns
/// the copy.
pub(crate) fn read_copy(empty: MlirOperation, owner: MlirOperation, index: isize) -> MlirOperation {
    // SAFETY: a clone of a live op (its operands dominate the original, which dominates
    // `owner`), inserted just before `owner` in its block; the owner's operand then
    // reads the clone's result, of the same type.
    unsafe {
        let block = mlir_sys::mlirOperationGetBlock(owner);
        let clone = mlir_sys::mlirOperationClone(empty);
        mlir_sys::mlirBlockInsertOwnedOperationBefore(block, owner, clone);
        mlir_sys::mlirOperationSetOperand(owner, index, mlir_sys::mlirOperationGetResult(clone, 0));
        clone
    }
}

/// Gives `owner` a `tensor.empty` of its own for its last operand (its destination),
/// when that operand is a `tensor.empty` other ops read too.
pub(crate) fn own_destination(owner: OperationRef) {
    let Some(index) = owner.operand_count().checked_sub(1) else {
        return;
    };
    let Some(empty) = owner
        .operand(index)
        .ok()
        .and_then(crate::framework::values::defining_op)
    else {
        return;
    };
    if empty.name().as_string_ref().as_str() == Ok("tensor.empty") && uses(empty.to_raw()).len() > 1
    {
        read_copy(empty.to_raw(), owner.to_raw(), index as isize);
    }
}
