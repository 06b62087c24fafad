//! `glow-distinct-results` (on tensors, before bufferization): a function that returns
//! the same value more than once (an ONNX graph whose outputs are one tensor under two
//! names) returns a `linalg.copy` of it in each further position, so every result gets
//! a buffer of its own. Upstream `buffer-results-to-out-params` crashes on a buffer
//! returned twice, and the planned pipeline needs one output buffer per result.

use crate::framework::{structured::named_op, PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationBuilder, OperationLike},
        r#type::RankedTensorType,
        BlockLike, OperationRef, RegionLike, ValueLike,
    },
};

/// The pass definition registered as `glow-distinct-results`.
pub static DISTINCT_RESULTS: PassDefinition = PassDefinition {
    argument: "glow-distinct-results",
    description: "Return a copy of a tensor a function returns more than once, so each result gets its own buffer",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::linalg(), DialectHandle::tensor()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context = function.context();
    // SAFETY: the context outlives this pass run.
    let context = unsafe { context.to_ref() };
    let region = function.region(0).map_err(|_| ())?;
    let Some(block) = region.first_block() else {
        return Ok(());
    };
    let Some(terminator) = block.terminator() else {
        return Ok(());
    };
    if terminator.name().as_string_ref().as_str() != Ok("func.return") {
        return Ok(());
    }
    let mut seen = Vec::new();
    for index in 0..terminator.operand_count() {
        let value = terminator.operand(index).map_err(|_| ())?;
        let raw = value.to_raw().ptr as usize;
        if !seen.contains(&raw) {
            seen.push(raw);
            continue;
        }
        let Ok(tensor) = RankedTensorType::try_from(value.r#type()) else {
            continue;
        };
        if !melior::ir::r#type::ShapedTypeLike::has_static_shape(&tensor) {
            continue;
        }
        let location = terminator.location();
        let empty = OperationBuilder::new("tensor.empty", location)
            .add_results(&[value.r#type()])
            .build()
            .map_err(|_| ())?;
        let empty = block.insert_operation_before(terminator, empty);
        let copy = named_op(
            context,
            "linalg.copy",
            location,
            value,
            empty.result(0).map_err(|_| ())?.into(),
            &[value.r#type()],
        );
        let copy = block.insert_operation_before(terminator, copy);
        let result = copy.result(0).map_err(|_| ())?;
        // SAFETY: the copy has the operand's type and precedes the return.
        unsafe {
            mlir_sys::mlirOperationSetOperand(terminator.to_raw(), index as isize, result.to_raw())
        };
    }
    Ok(())
}
