//! `glow-private-buffers` (on buffers, with threads, after `scf-forall-to-parallel`): a
//! `memref.alloc` inside an `scf.parallel` body is a buffer of one iteration, private
//! to the thread running it (a row chain's row buffers: softmax one row at a time).
//! It becomes a `memref.alloca` of the same type, its `memref.dealloc`s are dropped:
//! convert-scf-to-openmp wraps each loop body in a `memref.alloca_scope`, so the stack
//! is given back when the iteration ends. The static memory plan can place no buffer
//! inside a loop (one arena offset would be shared by the threads), and a heap
//! allocation per iteration would call malloc per row.
//!
//! Upstream `promote-buffers-to-stack` is not used: it promotes every small buffer,
//! also the top-level activations the memory plan places.
//!
//! Left as they are (the memory plan then reports them): buffers with a dynamic shape
//! or a layout, buffers larger than [`MAX_BYTES`] (a thread's stack is a few MB),
//! buffers inside a loop of the body (each of its steps would take more stack, given
//! back only when the iteration ends), buffers used outside the parallel loop, and
//! buffers passed to a call (which may keep or free them).

use crate::framework::{attributes::name_of, PassDefinition, PassOptions};
use crate::instr::buffers::{erase, replace_uses};
use crate::memory_plan::memref_bytes;
use crate::quantization::ir::users;
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::DenseI32ArrayAttribute,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        BlockLike, Identifier, OperationRef, ValueLike,
    },
};

/// The largest buffer put on a thread's stack. Rows of up to 16,384 floats; several
/// such buffers per iteration stay far below libomp's 4 MB worker stacks.
pub const MAX_BYTES: u64 = 64 << 10;

/// The pass definition registered as `glow-private-buffers`.
pub static PRIVATE_BUFFERS: PassDefinition = PassDefinition {
    argument: "glow-private-buffers",
    description: "Make the buffers an scf.parallel iteration allocates stack allocations private to its thread",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::memref()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Whether `op` sits directly in an `scf.parallel` body (deeper, inside a loop of the
/// body, each step of that loop would take more stack), and every use of its result is
/// inside that loop without passing it to a call.
fn private_to_iteration(op: OperationRef) -> bool {
    let Some(parallel) = op
        .parent_operation()
        .filter(|p| name_of(*p) == "scf.parallel")
    else {
        return false;
    };
    let Ok(buffer) = op.result(0) else {
        return false;
    };
    users(buffer.into())
        .iter()
        .all(|user| name_of(*user) != "func.call" && inside(*user, parallel))
}

/// Whether `op` is nested in `ancestor`.
fn inside(op: OperationRef, ancestor: OperationRef) -> bool {
    let mut parent = op.parent_operation();
    while let Some(p) = parent {
        if p.to_raw().ptr == ancestor.to_raw().ptr {
            return true;
        }
        parent = p.parent_operation();
    }
    false
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let mut allocs = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if name_of(op) == "memref.alloc"
            && op.operand_count() == 0
            && op
                .result(0)
                .is_ok_and(|r| memref_bytes(r.r#type()).is_some_and(|bytes| bytes <= MAX_BYTES))
            && private_to_iteration(op)
        {
            allocs.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let context = function.context();
    // SAFETY: the context outlives this pass run.
    let context = unsafe { context.to_ref() };
    for raw in allocs {
        // SAFETY: collected from the live function above; nothing erased them since.
        let alloc = unsafe { OperationRef::from_raw(raw) };
        let buffer = alloc.result(0).map_err(|_| ())?;
        let mut builder = OperationBuilder::new("memref.alloca", alloc.location())
            .add_results(&[buffer.r#type()]);
        if let Ok(alignment) = alloc.attribute("alignment") {
            builder = builder.add_attributes(&[(Identifier::new(context, "alignment"), alignment)]);
        }
        // The segment sizes of memref.alloca's (dynamic sizes, symbols): none.
        let alloca = builder
            .add_attributes(&[(
                Identifier::new(context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(context, &[0, 0]).into(),
            )])
            .build()
            .map_err(|_| ())?;
        let block = alloc.block().ok_or(())?;
        let alloca = block.insert_operation_before(alloc, alloca);
        for user in users(buffer.into()) {
            if name_of(user) == "memref.dealloc" {
                erase(user);
            }
        }
        replace_uses(buffer.into(), alloca.result(0).map_err(|_| ())?.into());
        erase(alloc);
    }
    Ok(())
}
