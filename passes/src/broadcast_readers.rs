//! `glow-copy-broadcasts` (on `func.func`, linalg on tensors, before
//! `linalg-fuse-elementwise-ops`): a broadcast — a parallel `linalg.generic` that only
//! copies a smaller tensor into a larger one — read by several generics gets a copy of
//! its own for each reader. linalg's elementwise fusion folds a producer into its reader
//! only when the reader is its one use, and CSE had merged the broadcasts of every
//! layer into one (torch BERT's attention mask, added to each layer's scores): the
//! broadcast was then written out whole (12 x 448 x 448 floats, 9.6 MB) and read back by
//! every layer. With a copy per reader, each reader reads the small tensor through its
//! own indexing map and the large one is never written.
//!
//! Left alone: copies that permute (a transpose folded into every reader could turn its
//! contiguous reads strided), broadcasts with a reader that is not a `linalg.generic`
//! reading it as an input (a matmul's operand, a destination), and broadcasts with one
//! reader (fusion handles those).

use crate::distinct_empties::read_copy;
use crate::framework::{attributes::name_of, PassDefinition, PassOptions};
use crate::quantization::ir::users;
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    BlockLike, OperationRef, RegionLike, ValueLike,
};

/// The pass definition registered as `glow-copy-broadcasts`.
pub static COPY_BROADCASTS: PassDefinition = PassDefinition {
    argument: "glow-copy-broadcasts",
    description: "Give each linalg.generic reading a broadcast (a generic copying a smaller tensor into a larger one) a copy of its own, so elementwise fusion folds it into every reader",
    anchor: Some("func.func"),
    options: &[],
    // The transform dialect and the `glow` dialect of the tag, loaded before functions
    // run in parallel (a script parsed then would load them, racing).
    dependent_dialects: crate::cpu_schedule::schedule_dialects,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Whether `op` is a broadcast: a `linalg.broadcast`, or a `linalg.generic` with one
/// input and one result, every loop parallel, whose payload yields its input element,
/// whose result map is the identity and whose input map reads some of the loops, in
/// order, not all of them.
fn is_broadcast(op: OperationRef) -> bool {
    if name_of(op) == "linalg.broadcast" {
        return op.result_count() == 1;
    }
    if name_of(op) != "linalg.generic" || op.operand_count() != 2 || op.result_count() != 1 {
        return false;
    }
    let Some(parallel) = crate::cpu_schedule::elementwise::parallel_iterators(op) else {
        return false;
    };
    if !parallel.iter().all(|p| *p) {
        return false;
    }
    let Some(dims) = crate::cpu_schedule::elementwise::map_dims(op) else {
        return false;
    };
    let loops = parallel.len();
    let [input, output] = dims.as_slice() else {
        return false;
    };
    let ordered = input.windows(2).all(|pair| pair[0] < pair[1]);
    if !output.iter().copied().eq(0..loops) || !ordered || input.len() >= loops {
        return false;
    }
    // The payload: `linalg.yield` of the input's block argument.
    let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else {
        return false;
    };
    let (Some(first), Ok(input)) = (body.first_operation(), body.argument(0)) else {
        return false;
    };
    name_of(first) == "linalg.yield"
        && first.operand_count() == 1
        && first
            .operand(0)
            .is_ok_and(|v| v.to_raw().ptr == input.to_raw().ptr)
}

/// The input operand positions at which `reader` reads `value`, when it is a
/// `linalg.generic` that reads it only as inputs.
fn input_positions(reader: OperationRef, value: melior::ir::Value) -> Option<Vec<usize>> {
    if name_of(reader) != "linalg.generic" {
        return None;
    }
    let inputs = reader.operand_count().checked_sub(reader.result_count())?;
    let positions: Vec<usize> = (0..reader.operand_count())
        .filter(|i| {
            reader
                .operand(*i)
                .is_ok_and(|v| v.to_raw().ptr == value.to_raw().ptr)
        })
        .collect();
    positions.iter().all(|p| *p < inputs).then_some(positions)
}

/// The tag on the named broadcasts that were copied (and their copies), for the
/// script generalizing them.
const TAG: &str = "glow.copied_broadcast";

/// Generalizes every op tagged [`TAG`] (upstream's `transform.structured.generalize`)
/// and drops the tag.
fn generalize_tagged(function: OperationRef) -> Result<(), ()> {
    let script = format!(
        "module attributes {{transform.with_named_sequence}} {{\n  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{\n    %tagged = transform.structured.match attributes{{{TAG}}} in %root : (!transform.any_op) -> !transform.any_op\n    %generic = transform.structured.generalize %tagged : (!transform.any_op) -> !transform.any_op\n    transform.yield\n  }}\n}}\n"
    );
    crate::framework::apply_transform_script(function, &script).map_err(|_| ())?;
    function.walk(WalkOrder::PreOrder, |op| {
        if op.has_attribute(TAG) {
            crate::framework::attributes::remove_attribute(op, TAG);
        }
        WalkResult::Advance
    });
    Ok(())
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let Some(block) = function.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut tagged = false;
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if !is_broadcast(op) {
            continue;
        }
        let Ok(value) = op.result(0).map(melior::ir::Value::from) else {
            continue;
        };
        let mut readers: Vec<OperationRef> = Vec::new();
        for reader in users(value) {
            if !readers
                .iter()
                .any(|r| r.to_raw().ptr == reader.to_raw().ptr)
            {
                readers.push(reader);
            }
        }
        if readers.len() < 2 {
            continue;
        }
        let positions: Option<Vec<Vec<usize>>> = readers
            .iter()
            .map(|reader| input_positions(*reader, value))
            .collect();
        let Some(positions) = positions else {
            continue;
        };
        // The first reader keeps the broadcast; every other one reads its own copy.
        // Named broadcasts are generalized below: elementwise fusion folds generics.
        let named = name_of(op) == "linalg.broadcast";
        if named {
            crate::cpu_schedule::set_tag_named(op, TAG);
            tagged = true;
        }
        for (reader, at) in readers.iter().zip(&positions).skip(1) {
            let copy = read_copy(op.to_raw(), reader.to_raw(), at[0] as isize);
            // (The copy carries the original's tag.)
            for position in &at[1..] {
                // SAFETY: the copy's result has the type of the operand it replaces.
                unsafe {
                    mlir_sys::mlirOperationSetOperand(
                        reader.to_raw(),
                        *position as isize,
                        mlir_sys::mlirOperationGetResult(copy, 0),
                    );
                }
            }
        }
    }
    if tagged {
        generalize_tagged(function)?;
    }
    Ok(())
}
