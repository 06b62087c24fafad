//! `glow-pads-in-place`: tensor.pad with static amounts and a constant value ->
//! tensor.insert_slice of the source into a linalg.fill of the padded shape
//! (destination-passing style). Run right before `eliminate-empty-tensors` and
//! bufferization, after the last CSE: the producer of the padded value then writes
//! straight into the padded buffer. A tensor.pad bufferizes to a new buffer plus a
//! strided `memrefCopy` call per run, and if CSE ran after this rewrite, two pads of
//! one shape would share one fill and bufferization would copy it.

use crate::{
    framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule},
    lower_nodes::builder::tensor_info,
    to_linalg::builder::LinalgBuilder,
};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, OperationResult},
        BlockLike, OperationRef, RegionLike, ValueLike,
    },
    Context, RewriterBase,
};

/// The pass definition registered as `glow-pads-in-place`.
pub static PADS_IN_PLACE: PassDefinition = PassDefinition {
    argument: "glow-pads-in-place",
    description: "Rewrite constant tensor.pad ops as linalg.fill + tensor.insert_slice, so producers write into the padded buffer",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || {
        vec![
            DialectHandle::linalg(),
            DialectHandle::tensor(),
            DialectHandle::arith(),
        ]
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The rewrite of one tensor.pad.
pub static PAD_TO_FILL_AND_INSERT: Rule = Rule {
    root: "tensor.pad",
    generates: &["linalg.fill", "tensor.insert_slice", "tensor.empty"],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    // Static amounts only: no dynamic low/high operands.
    if op.operand_count() != 1 {
        return false;
    }
    let (Ok(source), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some(_), Some(low)) = (
        tensor_info(result.into()),
        crate::framework::attributes::i64_array(op, "static_low"),
    ) else {
        return false;
    };
    if tensor_info(source).is_none() {
        return false;
    }
    // The padding value: a constant yielded by the region.
    let Some(fill) = padding_constant(op) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let filled = b.zeros(result.r#type(), fill);
    let converted = b.insert_slice(source, filled, &low, &vec![1; low.len()]);
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

/// The attribute of the `arith.constant` the pad's region yields, if it does.
fn padding_constant<'c>(op: OperationRef<'c, '_>) -> Option<melior::ir::Attribute<'c>> {
    let region = op.region(0).ok()?;
    let block = region.first_block()?;
    let terminator = block.terminator()?;
    let yielded = terminator.operand(0).ok()?;
    let constant = OperationResult::try_from(yielded).ok()?.owner();
    if constant.name().as_string_ref().as_str().ok()? != "arith.constant" {
        return None;
    }
    constant.attribute("value").ok()
}

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_rules(op, &[&PAD_TO_FILL_AND_INSERT]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-pads-in-place: the rewrite did not converge",
        );
    })
}
