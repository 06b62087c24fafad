//! Masked row reductions (a `vector.mask` around a `vector.multi_reduction`, as the
//! vectorizer writes rows whose length no vector width divides) become a select of the
//! row against the reduction's neutral element and the plain reduction, which
//! glow-lower-row-reductions then lowers as a tree. The mask region would not survive
//! bufferization's deallocation pass, which inserts ops into every region.

use crate::framework::Rule;
use crate::quantization::ir::{operand, result, Emitter};
use melior::{
    ir::{operation::OperationLike, Attribute, BlockLike, OperationRef, RegionLike, ValueLike},
    Context, RewriterBase,
};

/// The rule rewriting one masked multi-reduction.
pub static UNMASK_REDUCTION: Rule = Rule {
    root: "vector.mask",
    generates: &["arith.constant", "arith.select", "vector.multi_reduction"],
    rewrite: unmask,
};

/// The neutral element of a float reduction kind, as attribute text.
fn neutral(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "add" => "0.0",
        "mul" => "1.0",
        "maximumf" | "maxnumf" => "0xFF800000",
        "minimumf" | "minnumf" => "0x7F800000",
        _ => return None,
    })
}

fn unmask<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Some(mask), Some(masked_result)) = (operand(op, 0), result(op, 0)) else {
        return false;
    };
    if op.operand_count() != 1 {
        return false;
    }
    let Some(reduction) = op
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.first_operation())
    else {
        return false;
    };
    if reduction.name().as_string_ref().as_str() != Ok("vector.multi_reduction") {
        return false;
    }
    // SAFETY: the reduction lives in the mask's region, alive as long as `op`.
    let reduction: OperationRef<'c, '_> = unsafe { OperationRef::from_raw(reduction.to_raw()) };
    let (Some(source), Some(accumulator)) = (operand(reduction, 0), operand(reduction, 1)) else {
        return false;
    };
    let (Ok(kind), Ok(dims)) = (
        reduction.attribute("kind"),
        reduction.attribute("reduction_dims"),
    ) else {
        return false;
    };
    let kind_text = kind.to_string();
    let Some(value) = kind_text
        .strip_prefix("#vector.kind<")
        .and_then(|k| k.strip_suffix('>'))
        .and_then(neutral)
    else {
        return false;
    };
    let row_type = source.r#type();
    let Some(splat) = Attribute::parse(context, &format!("dense<{value}> : {row_type}")) else {
        return false;
    };
    let e = Emitter::before(context, op, rewriter);
    let fill = e.op("arith.constant", &[], &[("value", splat)], row_type);
    let kept = e.op("arith.select", &[mask, source, fill], &[], row_type);
    let reduced = e.op(
        "vector.multi_reduction",
        &[kept, accumulator],
        &[("kind", kind), ("reduction_dims", dims)],
        masked_result.r#type(),
    );
    rewriter.replace_op_with_values(op, &[reduced]);
    true
}
