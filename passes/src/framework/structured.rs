//! Building linalg's named structured ops (`linalg.copy`, `linalg.fill`) from Rust: one
//! input, one init, the payload region linalg itself fills in; and recognizing fills.

use melior::{
    ir::{
        attribute::DenseI32ArrayAttribute, operation::OperationBuilder, operation::OperationLike,
        BlockLike, Identifier, Location, Operation, OperationRef, Region, RegionLike, Type, Value,
        ValueLike,
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

/// The value a fill writes into every element of its output, if `op` is one: a
/// `linalg.fill`, or a generic without inputs whose payload yields a value from outside
/// it (`glow-generalize-elementwise`'s form of a fill), on buffers or tensors.
pub fn filled_value<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    match op.name().as_string_ref().as_str().unwrap_or_default() {
        "linalg.fill" => op.operand(0).ok(),
        "linalg.generic" => {
            if op.operand_count() != 1 {
                return None;
            }
            let region = op.region(0).ok()?;
            let body = region.first_block()?;
            let terminator = body.terminator()?;
            let yielded = terminator.operand(0).ok()?;
            // Defined outside the generic: not one of its block arguments or ops.
            // SAFETY: queries on live values and ops.
            let outside = unsafe {
                if mlir_sys::mlirValueIsABlockArgument(yielded.to_raw()) {
                    mlir_sys::mlirBlockArgumentGetOwner(yielded.to_raw()).ptr != body.to_raw().ptr
                } else {
                    let owner = mlir_sys::mlirOpResultGetOwner(yielded.to_raw());
                    mlir_sys::mlirOperationGetBlock(owner).ptr != body.to_raw().ptr
                }
            };
            outside.then_some(yielded)
        }
        _ => None,
    }
}
