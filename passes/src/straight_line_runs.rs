//! The straight-line runs of a model function that `glow-outline-kernels` moves into
//! kernels besides its loop nests: the vector code of layers too small to need a tile
//! loop (an LSTM cell's gates on one row of 256 values, unrolled over the sequence),
//! which otherwise stayed in the model function. Left there, a 2-layer LSTM over 64
//! steps made a model function of 116,000 LLVM-dialect ops in a handful of blocks, and
//! LLVM's code generator took 58 s on it; as kernels, the 64 identical steps share one
//! function.
//!
//! A run is the compute ops (vector, arith, math, memref.load / store) between two
//! barriers (ops with regions, calls, deallocations, the terminator, any op not
//! listed), minus the ops whose values the views, allocations and constants between
//! the run's ops use and the ops those read from: they stay where they are (as do those
//! views, which the kernel takes or re-creates), and the rest moves into one call
//! placed where the run's last moved op was, returning the values used after it (an
//! LSTM's cell state, carried in registers from one step to the next). The ops left
//! behind must not read memory that a moved op before them writes; the run is skipped
//! otherwise, and when it has fewer than four ops.

use crate::framework::raw_ops::op_name;
use crate::outline_kernels::{CONSTANTS, VIEWS};
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, ValueLike};
use std::collections::{HashMap, HashSet};

/// Ops besides the kernels' constants and views that neither compute nor end a run:
/// they stay in the model function, and a kernel takes their results as arguments.
const SUPPORT: &[&str] = &[
    "memref.alloc",
    "memref.alloca",
    "memref.view",
    "memref.reshape",
    "memref.get_global",
    "affine.apply",
];

/// Whether an op named `name` is a support op (see [`SUPPORT`]).
fn support(name: &str) -> bool {
    SUPPORT.contains(&name) || CONSTANTS.contains(&name) || VIEWS.contains(&name)
}

/// Whether `op` (named `name`), not part of a run, may stand between a run's ops: a
/// support op, or scalar arith (pure).
fn stays(op: OperationRef, name: &str) -> bool {
    support(name) || (name.starts_with("arith.") && op.region_count() == 0)
}

/// Vector ops that touch memory.
const VECTOR_MEMORY: &[&str] = &[
    "vector.transfer_read",
    "vector.transfer_write",
    "vector.load",
    "vector.store",
    "vector.maskedload",
    "vector.maskedstore",
    "vector.gather",
    "vector.scatter",
    "vector.expandload",
    "vector.compressstore",
];

/// Whether `op` (without regions) belongs in a run, and whether it touches memory
/// (`Some(true)`), or ends the run (`None`, also for scalar arith, which stays with the
/// views it computes offsets for, and for the support ops).
fn compute(op: OperationRef) -> Option<bool> {
    let name = op_name(op.to_raw());
    let vector_result = || {
        // SAFETY: type queries on a live op's results.
        op.results()
            .any(|r| unsafe { mlir_sys::mlirTypeIsAVector(mlir_sys::mlirValueGetType(r.to_raw())) })
    };
    if support(&name) {
        None
    } else if VECTOR_MEMORY.contains(&name.as_str())
        || matches!(name.as_str(), "memref.load" | "memref.store")
    {
        Some(true)
    } else if name.starts_with("vector.")
        || name.starts_with("math.")
        || (name.starts_with("arith.") && vector_result())
    {
        Some(false)
    } else {
        None
    }
}

/// Whether an op named `name` writes memory.
fn writes(name: &str) -> bool {
    matches!(
        name,
        "vector.transfer_write"
            | "vector.store"
            | "vector.maskedstore"
            | "vector.scatter"
            | "vector.compressstore"
            | "memref.store"
    )
}

/// The runs of `block` worth a kernel, each in block order.
pub fn straight_line_runs<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<Vec<OperationRef<'c, 'a>>> {
    // Block order, to tell the ops between a run's first and last op from those after.
    let mut position: HashMap<usize, usize> = HashMap::new();
    let mut runs = Vec::new();
    let mut current: Vec<OperationRef<'c, 'a>> = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        position.insert(pointer(op), position.len());
        let name = op_name(op.to_raw());
        if op.region_count() == 0 && compute(op).is_some() {
            current.push(op);
        } else if op.region_count() > 0 || !stays(op, &name) {
            runs.push(std::mem::take(&mut current));
        }
    }
    runs.push(current);
    runs.into_iter()
        .filter_map(|run| movable_part(run, block, &position))
        .collect()
}

/// Ops in a run smaller than this stay where they are.
const MINIMUM_OPS: usize = 4;

fn pointer(op: OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// The ops of `run` that can move into one kernel: without the ops whose values the
/// views or allocations between the run's ops use, and the ops of the run those read
/// (transitively), if those left behind read no memory that a moved op before them
/// writes and the moved ops' values are used only after the last of them.
fn movable_part<'c, 'a>(
    run: Vec<OperationRef<'c, 'a>>,
    block: BlockRef<'c, 'a>,
    position: &HashMap<usize, usize>,
) -> Option<Vec<OperationRef<'c, 'a>>> {
    let last = position[&pointer(*run.last()?)];
    let members: HashMap<usize, OperationRef> = run.iter().map(|op| (pointer(*op), *op)).collect();
    // The top-level position of a user (ops nested in a later op count as that op).
    let top_level = |owner: mlir_sys::MlirOperation| -> Option<usize> {
        crate::framework::isolate::top_level_in(block.to_raw(), owner)
            .and_then(|op| position.get(&(op.ptr as usize)).copied())
    };
    // Ops whose values an op between the run's ops uses stay, with what they read.
    let mut staying: HashSet<usize> = HashSet::new();
    let mut pending: Vec<OperationRef> = run
        .iter()
        .copied()
        .filter(|op| {
            users(*op).into_iter().any(|user| {
                !members.contains_key(&(user.ptr as usize))
                    && top_level(user).is_none_or(|at| at <= last)
            })
        })
        .collect();
    while let Some(op) = pending.pop() {
        if !staying.insert(pointer(op)) {
            continue;
        }
        for operand in op.operands() {
            // SAFETY: queries on a live value.
            let owner = unsafe {
                if !mlir_sys::mlirValueIsAOpResult(operand.to_raw()) {
                    continue;
                }
                mlir_sys::mlirOpResultGetOwner(operand.to_raw()).ptr as usize
            };
            if let Some(producer) = members.get(&owner) {
                pending.push(*producer);
            }
        }
    }
    let mut written_before = false;
    let mut moving = Vec::new();
    for op in run {
        let name = op_name(op.to_raw());
        if staying.contains(&pointer(op)) {
            // A memory op left behind would run before the moved writes it followed.
            if written_before && compute(op) == Some(true) {
                return None;
            }
        } else {
            written_before |= writes(&name);
            moving.push(op);
        }
    }
    // The call goes where the last moved op was: every outside use of a moved value
    // must come after it.
    let call_at = position[&pointer(*moving.last()?)];
    let moved: HashSet<usize> = moving.iter().map(|op| pointer(*op)).collect();
    let outside_users: Vec<_> = moving
        .iter()
        .flat_map(|op| users(*op))
        .filter(|user| !moved.contains(&(user.ptr as usize)))
        .collect();
    let used_after = outside_users
        .iter()
        .all(|user| top_level(*user).is_some_and(|at| at > call_at));
    // A kernel must write memory or return a value.
    let effective =
        !outside_users.is_empty() || moving.iter().any(|op| writes(&op_name(op.to_raw())));
    (used_after && effective && moving.len() >= MINIMUM_OPS).then_some(moving)
}

/// The ops using a result of `op`.
fn users(op: OperationRef) -> Vec<mlir_sys::MlirOperation> {
    op.results()
        .flat_map(|result| crate::quantization::ir::users(result.into()))
        .map(|user| user.to_raw())
        .collect()
}
