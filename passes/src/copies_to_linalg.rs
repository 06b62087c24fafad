//! `glow-copies-to-linalg`: memref.copy -> linalg.copy, so copies become loops (which
//! LLVM vectorizes) instead of calls to MLIR's runtime (`memrefCopy`, a generic
//! element-by-element copy of strided memrefs from libmlir_c_runner_utils). Bundles
//! then link against libc and libm only.

use crate::framework::{
    apply_rules, emit_error, structured::named_op, PassDefinition, PassOptions, Rule,
};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, OperationRef},
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
    let copy = named_op(context, "linalg.copy", op.location(), source, target, &[]);
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
