//! `glow-instr-dead-allocs`: Glow's dead allocation removal on glow.instr. An
//! activation buffer that nothing reads is removed with everything that only writes
//! it: its `alloc_activation` / `dealloc_activation`, its views, and the stores, fills,
//! copies and elementwise writes into it. A buffer that some op reads, or that an op
//! writes together with other buffers or with results, stays.

use super::buffers::{body, erase, name_of, top_level_ops, uses, Access, VIEWS};
use crate::framework::{PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, OperationRef, Value, ValueLike},
};

/// The pass definition registered as `glow-instr-dead-allocs`.
pub static DEAD_ALLOCS: PassDefinition = PassDefinition {
    argument: "glow-instr-dead-allocs",
    description: "Remove glow.instr activation buffers that nothing reads, with the ops that only write them (Glow's dead allocation removal)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::<DialectHandle>::new,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Whether `op`, writing `buffer` only, does nothing else: no results, and no operand
/// it may write other than views of `buffer`.
fn only_writes(op: OperationRef, buffer: Value) -> bool {
    if op.result_count() != 0 {
        return false;
    }
    let writers = [
        "memref.store",
        "vector.transfer_write",
        "vector.store",
        "memref.copy",
        "glow.instr.copy",
        "linalg.fill",
        "linalg.copy",
        "linalg.generic",
    ];
    if !writers.contains(&name_of(op).as_str()) {
        return false;
    }
    (0..op.operand_count()).all(|i| {
        let operand = op.operand(i).expect("in range");
        if crate::framework::values::memref_type(operand.r#type()).is_none() {
            return true;
        }
        let written = super::buffers::access(op, i).writes();
        !written || super::buffers::root(operand) == buffer
    })
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let Some(block) = body(function) else {
        return Ok(());
    };
    let allocations = top_level_ops(block, |op| name_of(op) == "glow.instr.alloc_activation");
    for alloc in allocations {
        let buffer: Value = alloc.result(0).map_err(|_| ())?.into();
        let found = uses(buffer);
        let dead = found.iter().all(|u| {
            u.access == Access::Free || (u.access == Access::Write && only_writes(u.owner, buffer))
        });
        if !dead {
            continue;
        }
        let mut erased = std::collections::HashSet::new();
        for u in &found {
            if erased.insert(u.owner.to_raw().ptr as usize) {
                erase(u.owner);
            }
        }
        erase_views(buffer);
        erase(alloc);
    }
    Ok(())
}

/// Erases the views of `value` (whose users are gone), innermost first.
fn erase_views(value: Value) {
    for (owner, operand) in super::buffers::direct_uses(value) {
        if operand == 0 && VIEWS.contains(&name_of(owner).as_str()) {
            if let Ok(view) = owner.result(0) {
                erase_views(view.into());
            }
            erase(owner);
        }
    }
}
