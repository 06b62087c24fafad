//! `glow-copies-to-linalg`: memref.copy -> linalg.copy, so copies become loops (which
//! LLVM vectorizes) instead of calls to MLIR's runtime (`memrefCopy`, a generic
//! element-by-element copy of strided memrefs from libmlir_c_runner_utils). Bundles
//! then link against libc and libm only.

use crate::framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::DenseI32ArrayAttribute, operation::OperationBuilder, operation::OperationLike,
        Identifier, OperationRef, Region,
    },
    Context, RewriterBase,
};

/// The pass definition registered as `glow-copies-to-linalg`.
pub static COPIES_TO_LINALG: PassDefinition = PassDefinition {
    argument: "glow-copies-to-linalg",
    description: "Rewrite memref.copy as linalg.copy, lowered to loops instead of a runtime call",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::linalg(), DialectHandle::memref()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The rewrite of one memref.copy.
pub static COPY_TO_LINALG: Rule = Rule {
    root: "memref.copy",
    generates: &["linalg.copy"],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(source), Ok(target)) = (op.operand(0), op.operand(1)) else {
        return false;
    };
    let segments = DenseI32ArrayAttribute::new(context, &[1, 1]);
    let copy = OperationBuilder::new("linalg.copy", op.location())
        .add_operands(&[source, target])
        .add_attributes(&[(
            Identifier::new(context, "operandSegmentSizes"),
            segments.into(),
        )])
        .add_regions([Region::new()])
        .build()
        .expect("valid linalg.copy");
    // SAFETY: a freshly built linalg structured op with an empty region.
    unsafe { mlir_sys::mlirLinalgFillBuiltinNamedOpRegion(copy.to_raw()) };
    rewriter.set_insertion_point_before(op);
    rewriter.insert(copy);
    rewriter.erase_op(op);
    true
}

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_rules(op, &[&COPY_TO_LINALG]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-copies-to-linalg: the rewrite did not converge",
        );
    })
}
