//! Building linalg's named structured ops (`linalg.copy`, `linalg.fill`) from Rust: one
//! input, one init, the payload region linalg itself fills in.

use melior::{
    ir::{
        attribute::DenseI32ArrayAttribute, operation::OperationBuilder, operation::OperationLike,
        Identifier, Location, Operation, Region, Type, Value,
    },
    Context,
};

/// `name ins(input) outs(init)` with `results` (none on buffers, the init's type on
/// tensors), its payload built by linalg.
pub fn named_op<'c>(
    context: &'c Context,
    name: &str,
    location: Location<'c>,
    input: Value<'c, '_>,
    init: Value<'c, '_>,
    results: &[Type<'c>],
) -> Operation<'c> {
    let op = OperationBuilder::new(name, location)
        .add_operands(&[input, init])
        .add_attributes(&[(
            Identifier::new(context, "operandSegmentSizes"),
            DenseI32ArrayAttribute::new(context, &[1, 1]).into(),
        )])
        .add_results(results)
        .add_regions([Region::new()])
        .build()
        .expect("a valid linalg structured op");
    // SAFETY: a freshly built linalg structured op with an empty region.
    unsafe { mlir_sys::mlirLinalgFillBuiltinNamedOpRegion(op.to_raw()) };
    op
}
