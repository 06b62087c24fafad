//! What the payload of a `linalg.generic` computes, as the schedules of
//! `glow-cpu-vectorize-elementwise` and its row chains ask it: whether it may run on
//! masked vectors, calls a polynomial-expanded transcendental, touches booleans, or
//! reduces with arithmetic the vectorizer recognizes.

use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::RankedTensorType,
    BlockLike, OperationRef, RegionLike, ShapedTypeLike, TypeLike, ValueLike,
};

/// Whether `op` may run on masked vectors: f32 operands only (the reductions' neutral
/// elements are written for f32; tables its payload reads are not operands, and the
/// vectorizer masks those reads) and no integer division (masked-off lanes compute on
/// padding, which must not trap).
pub(super) fn maskable(op: OperationRef) -> bool {
    // f32 rows only (the reductions' neutral elements are written for f32).
    let f32_only = (0..op.operand_count()).all(|i| {
        op.operand(i)
            .ok()
            .and_then(|v| RankedTensorType::try_from(v.r#type()).ok())
            .is_some_and(|t| t.element().is_f32())
    });
    if !f32_only {
        return false;
    }
    // Masked-off lanes compute on padding: integer division there could trap.
    let mut traps = false;
    op.walk(WalkOrder::PreOrder, |nested| {
        let name = nested.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        if name.starts_with("arith.")
            && (name.contains("div") || name.contains("rem"))
            && !name.ends_with('f')
        {
            traps = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    !traps
}

/// Whether the payload of `op` calls a transcendental function that
/// glow-math-approximation expands into a polynomial (erf, exp, tanh, log): vectorized
/// here, the polynomial runs on whole vectors; left to LLVM, its loop vectorizer
/// guards the loop with overlap checks between the arena's views.
pub(super) fn transcendental(op: OperationRef) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |nested| {
        if matches!(
            nested.name().as_string_ref().as_str(),
            Ok("math.erf" | "math.exp" | "math.tanh" | "math.log")
        ) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether `op` reads or writes booleans (a select's mask, a comparison's result):
/// LLVM's loop vectorizer leaves such loops scalar (the masked fill of attention
/// scores, 0.64 ns an element), where their vector form accesses the bytes 16 at a
/// time (`glow-byte-bools` keeps vector accesses of `i1` one byte per element).
pub(super) fn touches_booleans(op: OperationRef) -> bool {
    op.operands().any(|value| {
        RankedTensorType::try_from(value.r#type()).is_ok_and(|t| {
            melior::ir::r#type::IntegerType::try_from(t.element()).is_ok_and(|i| i.width() == 1)
        })
    })
}

/// Whether a reduction's payload combines with arithmetic the vectorizer recognizes:
/// one result, no `linalg.index`, comparison or select (an arg-max / arg-min carries an
/// index and picks with a select, which the vectorizer cannot reduce), and the
/// accumulator read once, by the op whose result is yielded (`out + in + in` is not a
/// reduction upstream's vectorizer or `tile_reduction_using_for` can analyse).
pub(super) fn plain_reduction(op: OperationRef) -> bool {
    if op.result_count() != 1 || !single_combiner(op) {
        return false;
    }
    let mut plain = true;
    op.walk(WalkOrder::PreOrder, |nested| {
        let name = nested.name();
        if matches!(
            name.as_string_ref().as_str(),
            Ok("linalg.index" | "arith.select" | "arith.cmpf" | "arith.cmpi")
        ) {
            plain = false;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    plain
}

/// Whether the payload of the one-result generic `op` reads its accumulator (the last
/// block argument) exactly once, in the op whose result it yields.
fn single_combiner(op: OperationRef) -> bool {
    let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else {
        return false;
    };
    let (Some(terminator), Some(count)) = (body.terminator(), body.argument_count().checked_sub(1))
    else {
        return false;
    };
    let (Ok(accumulator), Ok(yielded)) = (body.argument(count), terminator.operand(0)) else {
        return false;
    };
    match crate::quantization::ir::users(accumulator.into()).as_slice() {
        [user] => user
            .result(0)
            .is_ok_and(|r| user.result_count() == 1 && r.to_raw().ptr == yielded.to_raw().ptr),
        _ => false,
    }
}
