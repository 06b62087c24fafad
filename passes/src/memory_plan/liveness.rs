//! Liveness intervals from glow.instr's instruction stream: an activation buffer is
//! alive from its `glow.instr.alloc_activation` to its `glow.instr.dealloc_activation`
//! (or to its last use, directly or through views at any loop depth, if that is later
//! or it has no dealloc), in positions of the function's top-level ops.

use super::first_fit::Interval;
use super::memref_bytes;
use crate::instr::buffers::{name_of, uses, TopLevel};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    BlockRef, Location, OperationRef, ValueLike,
};

/// One activation buffer to place.
pub struct Allocation<'c, 'a> {
    /// The `glow.instr.alloc_activation`.
    pub op: OperationRef<'c, 'a>,
    /// Its size and lifetime.
    pub interval: Interval,
}

/// Every top-level `glow.instr.alloc_activation` of `block` with its lifetime, or the
/// location and reason of a function the planner cannot work on.
pub fn allocations<'c, 'a>(
    function: OperationRef<'c, 'a>,
    block: BlockRef<'c, 'a>,
) -> Result<Vec<Allocation<'c, 'a>>, (Location<'c>, String)> {
    let mut unraised = None;
    function.walk(WalkOrder::PreOrder, |op| {
        let name = name_of(op);
        let nested_activation = name == "glow.instr.alloc_activation"
            // SAFETY: the parent of a live op.
            && unsafe { mlir_sys::mlirOperationGetParentOperation(op.to_raw()) }.ptr
                != function.to_raw().ptr;
        if name == "memref.alloc" || nested_activation {
            unraised = Some((
                op.location().to_raw(),
                if nested_activation {
                    "an activation allocated inside a loop or region cannot be planned"
                } else {
                    "a memref.alloc is left: run glow-raise-to-instr first"
                },
            ));
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if let Some((location, message)) = unraised {
        // SAFETY: the location belongs to the context of the live IR.
        return Err((unsafe { Location::from_raw(location) }, message.to_string()));
    }

    let top_level = TopLevel::new(block);
    let last = top_level.ops.len().saturating_sub(1);
    let mut allocations = Vec::new();
    for (start, op) in top_level.ops.iter().enumerate() {
        if name_of(*op) != "glow.instr.alloc_activation" {
            continue;
        }
        let result = op
            .result(0)
            .map_err(|_| (op.location(), "no result".to_string()))?;
        let Some(size) = memref_bytes(result.r#type()) else {
            return Err((
                op.location(),
                format!("activation of {} has no static size", result.r#type()),
            ));
        };
        let found = uses(result.into());
        let freed = found
            .iter()
            .any(|u| u.access == crate::instr::buffers::Access::Free);
        let mut end = found
            .iter()
            .filter_map(|u| top_level.position(u.owner))
            .max()
            .unwrap_or(start)
            .max(start);
        if !freed {
            end = last;
        }
        allocations.push(Allocation {
            op: *op,
            interval: Interval { size, start, end },
        });
    }
    Ok(allocations)
}
