//! `glow-instr-share-buffers`: Glow's buffer sharing on glow.instr. An elementwise
//! `linalg.generic` (every loop parallel, every indexing map the identity) that writes
//! a fresh activation `%out` while reading, for the last time, an activation `%in` of
//! the same type, writes into `%in` instead: element i is read before element i is
//! written, and nothing reads `%in` afterwards. `%out`'s buffer goes; `%in` lives as
//! long as `%out` did. (One-shot bufferization already runs most such ops in place on
//! tensors; this catches what the buffer-level passes leave, as Glow's optimizer did.)
//!
//! Refused: views (only whole buffers are shared), `%out` used before the op, `%in`
//! used after it, maps that are not the identity (a transpose or broadcast reads other
//! elements than it writes), reductions.

use super::buffers::{
    body, deallocs, defining_op, direct_uses, erase, is_activation, linalg_segments, move_after,
    name_of, replace_uses, top_level_ops, uses, Access, TopLevel,
};
use crate::framework::{PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{attribute::ArrayAttribute, operation::OperationLike, OperationRef, Value, ValueLike},
};

/// The pass definition registered as `glow-instr-share-buffers`.
pub static SHARE_BUFFERS: PassDefinition = PassDefinition {
    argument: "glow-instr-share-buffers",
    description: "Run elementwise ops in place: the output takes the buffer of an input read for the last time (Glow's buffer sharing)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::<DialectHandle>::new,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Whether `op` is a linalg.generic whose loops are all parallel and whose indexing
/// maps are all the identity.
fn elementwise(op: OperationRef) -> bool {
    if name_of(op) != "linalg.generic" || op.result_count() != 0 {
        return false;
    }
    let (Ok(maps), Ok(iterators)) = (
        op.attribute("indexing_maps"),
        op.attribute("iterator_types"),
    ) else {
        return false;
    };
    let (Ok(maps), Ok(iterators)) = (
        ArrayAttribute::try_from(maps),
        ArrayAttribute::try_from(iterators),
    ) else {
        return false;
    };
    let parallel = (0..iterators.len()).all(|i| {
        iterators
            .element(i)
            .is_ok_and(|t| t.to_string().contains("parallel"))
    });
    let identity = (0..maps.len()).all(|i| {
        maps.element(i).is_ok_and(|map| {
            // SAFETY: queries on a live attribute.
            unsafe {
                let raw = melior::ir::AttributeLike::to_raw(&map);
                mlir_sys::mlirAttributeIsAAffineMap(raw)
                    && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(raw))
            }
        })
    });
    parallel && identity
}

/// The top-level positions of the uses of `buffer` that are not deallocations.
fn use_positions(top_level: &TopLevel, buffer: Value) -> Vec<usize> {
    uses(buffer)
        .iter()
        .filter(|u| u.access != Access::Free)
        .filter_map(|u| top_level.position(u.owner))
        .collect()
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let Some(block) = body(function) else {
        return Ok(());
    };
    let candidates = top_level_ops(block, elementwise);
    for op in candidates {
        let Some((inputs, outputs)) = linalg_segments(op) else {
            continue;
        };
        if outputs != 1 {
            continue;
        }
        let Ok(output) = op.operand(inputs) else {
            continue;
        };
        let top_level = TopLevel::new(block);
        let Some(at) = top_level.position(op) else {
            continue;
        };
        if !is_activation(output) || use_positions(&top_level, output).iter().any(|p| *p < at) {
            continue;
        }
        let shared = (0..inputs)
            .filter_map(|i| op.operand(i).ok())
            .find(|input| {
                is_activation(*input)
                    && input.r#type() == output.r#type()
                    && use_positions(&top_level, *input).iter().all(|p| *p <= at)
            });
        let Some(input) = shared else {
            continue;
        };
        // The input's buffer lives on for the output's users: its dealloc takes the
        // place of the output's.
        let output_frees = deallocs(output);
        let input_frees = deallocs(input);
        if let (Some(last), Some(first_free)) = (output_frees.last(), input_frees.first()) {
            move_after(*first_free, *last);
        }
        for free in output_frees {
            erase(free);
        }
        let Some(output_alloc) = defining_op(output) else {
            continue;
        };
        replace_uses(output, input);
        if direct_uses(output).is_empty() {
            erase(output_alloc);
        }
    }
    Ok(())
}
