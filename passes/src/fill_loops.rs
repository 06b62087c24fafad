//! `glow-rolled-fill-loops` (after `convert-linalg-to-loops`): an `scf.for` nest that
//! only stores constants (a lowered `linalg.fill`, e.g. the border slabs
//! glow-pads-in-place fills) gets `loop_annotation = #llvm.loop_annotation<unroll =
//! #llvm.loop_unroll<disable = true>>` on each of its loops, which the control-flow
//! lowering carries to LLVM as `llvm.loop.unroll.disable`. The static trip counts of
//! such nests otherwise let LLVM unroll them completely: at batch 8 one slab of a
//! 14x14x256 layer's padding became 1,792 straight-line vector stores, whose
//! scheduling DAG (quadratic in a block's memory operations) took most of a 12 s
//! ResNet-50 compile. Fills are memory-bound, so the rolled loops run as fast; LLVM
//! still vectorizes them or turns contiguous ones into `memset`.

use crate::framework::{attributes::set_attribute, PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        Attribute, BlockLike, OperationRef, RegionLike, TypeLike, ValueLike,
    },
};

/// The pass definition registered as `glow-rolled-fill-loops`.
pub static ROLLED_FILL_LOOPS: PassDefinition = PassDefinition {
    argument: "glow-rolled-fill-loops",
    description: "Keep loop nests that only store constants (lowered fills) rolled: LLVM unroll-disable annotations on their scf.for loops",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::llvm(), DialectHandle::scf()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The annotation each loop of a fill nest gets.
const NO_UNROLL: &str = "#llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>";

fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// Whether `value` is an `arith.constant`'s result.
fn is_constant(value: melior::ir::Value) -> bool {
    crate::framework::values::defining_op(value).is_some_and(|op| name_of(&op) == "arith.constant")
}

/// Whether the body of the `scf.for` `op` only stores constants: `memref.store` of an
/// `arith.constant`, loops of the same kind, index arithmetic and the terminator.
fn only_stores_constants(op: &OperationRef) -> bool {
    let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else {
        return false;
    };
    let mut stores = 0;
    let mut next = body.first_operation();
    while let Some(inner) = next {
        let name = name_of(&inner);
        let fits = match name.as_str() {
            "memref.store" => {
                stores += 1;
                inner.operand(0).is_ok_and(is_constant)
            }
            "scf.for" => {
                stores += 1;
                inner.result_count() == 0 && only_stores_constants(&inner)
            }
            "scf.yield" => inner.operand_count() == 0,
            "affine.apply" | "arith.constant" => true,
            other => {
                other.starts_with("arith.") && inner.result_count() == 1 && {
                    let result = inner.result(0).map(|r| r.r#type());
                    result.is_ok_and(|t| t.is_index())
                }
            }
        };
        if !fits {
            return false;
        }
        next = inner.next_in_block();
    }
    stores > 0
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context = function.context();
    // SAFETY: the context outlives this pass run.
    let context = unsafe { context.to_ref() };
    let annotation = Attribute::parse(context, NO_UNROLL).ok_or(())?;
    let mut loops = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if name_of(&op) == "scf.for" && op.result_count() == 0 && only_stores_constants(&op) {
            loops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    for raw in loops {
        // SAFETY: collected from the live function; nothing was erased since.
        let op = unsafe { OperationRef::from_raw(raw) };
        set_attribute(op, "loop_annotation", annotation);
    }
    Ok(())
}
