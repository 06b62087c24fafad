//! Lifetimes of the static allocations of a single-block function body: from the
//! `memref.alloc` to the last top-level op that uses the buffer, directly, inside a
//! nested loop, or through views of it (subview, reshapes, casts).

use super::{first_fit::Interval, memref_bytes, name_of};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    BlockLike, BlockRef, Location, OperationRef, ValueLike,
};
use std::collections::HashMap;

/// One allocation to place.
pub struct Allocation<'c, 'a> {
    /// The `memref.alloc`.
    pub op: OperationRef<'c, 'a>,
    /// Its size and lifetime.
    pub interval: Interval,
    /// The `memref.dealloc` ops of the buffer (erased when it is placed).
    pub deallocs: Vec<OperationRef<'c, 'a>>,
}

/// Ops whose result is a view of their first operand.
const VIEWS: &[&str] = &[
    "memref.subview",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.view",
    "memref.reshape",
    "memref.transpose",
];

/// Every top-level static `memref.alloc` of `block` with its lifetime, or the location
/// and reason of an allocation that cannot be planned.
pub fn allocations<'c, 'a>(
    block: BlockRef<'c, 'a>,
) -> Result<Vec<Allocation<'c, 'a>>, (Location<'c>, String)> {
    let mut positions: HashMap<usize, usize> = HashMap::new();
    let mut top_level = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        positions.insert(op.to_raw().ptr as usize, top_level.len());
        top_level.push(op);
        next = op.next_in_block();
    }
    let last = top_level.len().saturating_sub(1);
    // The position of the top-level op containing `op`.
    let position = |op: OperationRef| -> usize {
        let mut raw = op.to_raw();
        loop {
            if let Some(p) = positions.get(&(raw.ptr as usize)) {
                return *p;
            }
            // SAFETY: walking up the parents of a live op.
            raw = unsafe { mlir_sys::mlirOperationGetParentOperation(raw) };
            if raw.ptr.is_null() {
                return last;
            }
        }
    };

    let mut nested = None;
    for op in &top_level {
        for index in 0..op.region_count() {
            let Ok(region) = op.region(index) else {
                continue;
            };
            let mut inner = melior::ir::RegionLike::first_block(&region);
            while let Some(inner_block) = inner {
                let mut child = inner_block.first_operation();
                while let Some(child_op) = child {
                    child_op.walk(WalkOrder::PreOrder, |candidate| {
                        if name_of(candidate) == "memref.alloc" && nested.is_none() {
                            nested = Some(candidate.location().to_raw());
                        }
                        WalkResult::Advance
                    });
                    child = child_op.next_in_block();
                }
                inner = inner_block.next_in_region();
            }
        }
    }
    if let Some(location) = nested {
        return Err((
            // SAFETY: the location belongs to the context of the live IR.
            unsafe { Location::from_raw(location) },
            "an allocation inside a loop or region cannot be planned".into(),
        ));
    }

    let mut allocations = Vec::new();
    for (start, op) in top_level.iter().enumerate() {
        if name_of(*op) != "memref.alloc" {
            continue;
        }
        let result = op
            .result(0)
            .map_err(|_| (op.location(), "no result".into()))?;
        let Some(size) = memref_bytes(result.r#type()) else {
            return Err((
                op.location(),
                format!(
                    "allocation of {} is not a static memref with the identity layout",
                    result.r#type()
                ),
            ));
        };
        let mut end = start;
        let mut deallocs = Vec::new();
        let mut values = vec![result.to_raw()];
        while let Some(value) = values.pop() {
            // SAFETY: iterating the uses of a live value.
            let mut usage = unsafe { mlir_sys::mlirValueGetFirstUse(value) };
            while !usage.ptr.is_null() {
                // SAFETY: as above.
                let owner =
                    unsafe { OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(usage)) };
                let operand = unsafe { mlir_sys::mlirOpOperandGetOperandNumber(usage) };
                let name = name_of(owner);
                if name == "memref.dealloc" {
                    deallocs.push(owner);
                } else {
                    end = end.max(position(owner));
                    if name == "func.return" {
                        end = last;
                    }
                    if operand == 0 && VIEWS.contains(&name.as_str()) {
                        if let Ok(view) = owner.result(0) {
                            values.push(view.to_raw());
                        }
                    }
                }
                // SAFETY: as above.
                usage = unsafe { mlir_sys::mlirOpOperandGetNextUse(usage) };
            }
        }
        allocations.push(Allocation {
            op: *op,
            interval: Interval { size, start, end },
            deallocs,
        });
    }
    Ok(allocations)
}
