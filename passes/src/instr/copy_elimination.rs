//! `glow-instr-copy-elimination`: Glow's copy elimination on glow.instr. Each top-level
//! `glow.instr.copy out %dst, in %src` goes, by the first rule that applies:
//! - **copy of a splat**: `%src` is an activation whose only writer is an earlier fill
//!   (`linalg.fill`, or a `linalg.generic` without inputs that yields one outside
//!   value): the copy becomes the same fill of `%dst` (and `%src`, once no copy reads
//!   it, is left to `glow-instr-dead-allocs`);
//! - **backward propagation**: `%src` is an activation the copy reads last, and `%dst`
//!   (an activation or a function argument) is untouched from `%src`'s allocation to
//!   the copy: `%src`'s producers write into `%dst` directly;
//! - **forward propagation**: `%dst` is an activation the copy writes first and nothing
//!   writes afterwards, and `%src` is not written while `%dst` lives: `%dst`'s readers
//!   read `%src` (whose lifetime is extended to theirs).
//!
//! Only whole buffers (not views) are propagated.

use super::buffers::{
    body, defining_op, direct_uses, erase, is_activation, move_after, move_before, name_of,
    replace_uses, top_level_ops, uses, Access, TopLevel,
};
use crate::framework::{structured::named_op, PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, Value, ValueLike},
};

/// The pass definition registered as `glow-instr-copy-elimination`.
pub static COPY_ELIMINATION: PassDefinition = PassDefinition {
    argument: "glow-instr-copy-elimination",
    description: "Remove glow.instr.copy ops: copies of splats become fills, and copies are propagated backward into their producers or forward into their readers (Glow's copy elimination)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::linalg()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let Some(block) = body(function) else {
        return Ok(());
    };
    let copies = top_level_ops(block, |op| name_of(op) == "glow.instr.copy");
    for copy in copies {
        let _ = copy_of_splat(block, copy)
            || propagate_backward(block, copy)
            || propagate_forward(block, copy);
    }
    Ok(())
}

fn copy_of_splat(block: BlockRef, copy: OperationRef) -> bool {
    let (Ok(destination), Ok(source)) = (copy.operand(0), copy.operand(1)) else {
        return false;
    };
    if !is_activation(source) {
        return false;
    }
    let writers: Vec<_> = uses(source)
        .into_iter()
        .filter(|u| u.access.writes())
        .collect();
    let [writer] = writers.as_slice() else {
        return false;
    };
    let top_level = TopLevel::new(block);
    let (Some(fill_at), Some(copy_at)) =
        (top_level.position(writer.owner), top_level.position(copy))
    else {
        return false;
    };
    if top_level.ops[fill_at].to_raw().ptr != writer.owner.to_raw().ptr || fill_at > copy_at {
        return false;
    }
    let Some(value) = crate::framework::structured::filled_value(writer.owner) else {
        return false;
    };
    let context = copy.context();
    // SAFETY: the context outlives this pass run.
    let context = unsafe { context.to_ref() };
    let fill = named_op(
        context,
        "linalg.fill",
        copy.location(),
        value,
        destination,
        &[],
    );
    block.insert_operation_before(copy, fill);
    erase(copy);
    true
}

/// The top-level positions of the uses of `buffer` other than deallocations and `skip`.
fn positions(top_level: &TopLevel, buffer: Value, skip: OperationRef) -> Vec<(usize, Access)> {
    uses(buffer)
        .into_iter()
        .filter(|u| u.access != Access::Free && u.owner.to_raw().ptr != skip.to_raw().ptr)
        .filter_map(|u| Some((top_level.position(u.owner)?, u.access)))
        .collect()
}

/// Whether `value` is an argument of the function's entry block.
fn is_argument(block: BlockRef, value: Value) -> bool {
    // SAFETY: queries on a live value.
    unsafe {
        mlir_sys::mlirValueIsABlockArgument(value.to_raw())
            && mlir_sys::mlirBlockArgumentGetOwner(value.to_raw()).ptr == block.to_raw().ptr
    }
}

fn propagate_backward(block: BlockRef, copy: OperationRef) -> bool {
    let (Ok(destination), Ok(source)) = (copy.operand(0), copy.operand(1)) else {
        return false;
    };
    let Some(source_alloc) = defining_op(source).filter(|_| is_activation(source)) else {
        return false;
    };
    let destination_alloc = defining_op(destination).filter(|_| is_activation(destination));
    if destination_alloc.is_none() && !is_argument(block, destination) {
        return false;
    }
    let top_level = TopLevel::new(block);
    let (Some(start), Some(copy_at)) = (top_level.position(source_alloc), top_level.position(copy))
    else {
        return false;
    };
    // The copy reads the source last; the destination is untouched since the source
    // was allocated.
    if positions(&top_level, source, copy)
        .iter()
        .any(|(p, _)| *p > copy_at)
        || positions(&top_level, destination, copy)
            .iter()
            .any(|(p, _)| (start..copy_at).contains(p))
    {
        return false;
    }
    if let Some(alloc) = destination_alloc {
        if top_level.position(alloc).is_some_and(|p| p > start) {
            move_before(alloc, source_alloc);
        }
    }
    for (owner, _) in direct_uses(source) {
        if name_of(owner) == "glow.instr.dealloc_activation" {
            erase(owner);
        }
    }
    erase(copy);
    replace_uses(source, destination);
    erase(source_alloc);
    true
}

fn propagate_forward(block: BlockRef, copy: OperationRef) -> bool {
    let (Ok(destination), Ok(source)) = (copy.operand(0), copy.operand(1)) else {
        return false;
    };
    let Some(destination_alloc) = defining_op(destination).filter(|_| is_activation(destination))
    else {
        return false;
    };
    let source_is_buffer = is_activation(source)
        || is_argument(block, source)
        || defining_op(source).is_some_and(|op| name_of(op) == "glow.instr.weight");
    if !source_is_buffer {
        return false;
    }
    let top_level = TopLevel::new(block);
    let Some(copy_at) = top_level.position(copy) else {
        return false;
    };
    // The destination: written by the copy first, then only read.
    let readers = positions(&top_level, destination, copy);
    if readers
        .iter()
        .any(|(p, access)| *p <= copy_at || access.writes())
    {
        return false;
    }
    let last_read = readers.iter().map(|(p, _)| *p).max().unwrap_or(copy_at);
    // The source: not written while the destination lives.
    if positions(&top_level, source, copy)
        .iter()
        .any(|(p, access)| access.writes() && (copy_at..=last_read).contains(p))
    {
        return false;
    }
    // The source lives as long as the destination's readers.
    if is_activation(source) {
        for (owner, _) in direct_uses(source) {
            if name_of(owner) == "glow.instr.dealloc_activation"
                && top_level.position(owner).is_some_and(|p| p < last_read)
            {
                move_after(owner, top_level.ops[last_read]);
            }
        }
    }
    for (owner, _) in direct_uses(destination) {
        if name_of(owner) == "glow.instr.dealloc_activation" {
            erase(owner);
        }
    }
    erase(copy);
    replace_uses(destination, source);
    erase(destination_alloc);
    true
}
