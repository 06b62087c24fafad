//! Raw-handle helpers for moving ops between functions (`glow-outline-kernels`,
//! [`super::isolate`]): an op's name, the ops nested in an op, the values a set of ops
//! defines.

use mlir_sys::{MlirOperation, MlirValue};
use std::collections::HashSet;

/// The name of `op`.
pub fn op_name(op: MlirOperation) -> String {
    // SAFETY: `op` is a live operation; its name is an identifier MLIR keeps alive.
    unsafe {
        glow_dialects::string_ref::text(mlir_sys::mlirIdentifierStr(
            mlir_sys::mlirOperationGetName(op),
        ))
    }
}

/// Every op nested in `op`, `op` first (pre-order).
pub fn nested_ops(op: MlirOperation) -> Vec<MlirOperation> {
    unsafe extern "C" fn visit(
        op: MlirOperation,
        data: *mut std::ffi::c_void,
    ) -> mlir_sys::MlirWalkResult {
        // SAFETY: `data` is the Vec passed below, alive for the walk.
        unsafe { (*(data as *mut Vec<MlirOperation>)).push(op) };
        mlir_sys::MlirWalkResult_MlirWalkResultAdvance
    }
    let mut ops: Vec<MlirOperation> = Vec::new();
    // SAFETY: the callback only appends to `ops`.
    unsafe {
        mlir_sys::mlirOperationWalk(
            op,
            Some(visit),
            &mut ops as *mut Vec<MlirOperation> as *mut std::ffi::c_void,
            mlir_sys::MlirWalkOrder_MlirWalkPreOrder,
        )
    };
    ops
}

/// A value's identity, for sets and maps.
pub fn key(value: MlirValue) -> usize {
    value.ptr as usize
}

/// Values defined inside `ops` (results and block arguments), by [`key`].
pub fn defined_inside(ops: &[MlirOperation]) -> HashSet<usize> {
    let mut inside = HashSet::new();
    for &op in ops {
        // SAFETY: live ops, their results, regions and blocks.
        unsafe {
            for i in 0..mlir_sys::mlirOperationGetNumResults(op) {
                inside.insert(key(mlir_sys::mlirOperationGetResult(op, i)));
            }
            for r in 0..mlir_sys::mlirOperationGetNumRegions(op) {
                let mut block =
                    mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(op, r));
                while !block.ptr.is_null() {
                    for a in 0..mlir_sys::mlirBlockGetNumArguments(block) {
                        inside.insert(key(mlir_sys::mlirBlockGetArgument(block, a)));
                    }
                    block = mlir_sys::mlirBlockGetNextInRegion(block);
                }
            }
        }
    }
    inside
}
