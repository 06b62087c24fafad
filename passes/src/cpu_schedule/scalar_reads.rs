//! `glow-splat-scalar-reads` (on vectors, before `convert-vector-to-scf`): a
//! `vector.transfer_read` of a one-element memref at index 0, broadcast into an n-D
//! vector by its permutation map (a run-time scale or zero point applied to every
//! element of a tile), becomes `memref.load` + `vector.broadcast` of the scalar, a
//! splat.
//!
//! Upstream's transfer lowering reads such a value as `vector<1xT>`, broadcasts it with
//! the broadcast axes outermost and transposes them into place; on n-D vectors that
//! transpose became one extract / insert per lane in LLVM (a dynamically quantized
//! MobileNetV2: 15,000 of each in its main function, 9 of its 17 s of compilation).

use crate::{
    framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule},
    quantization::ir::{operand, result, Emitter},
};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::IntegerAttribute, operation::OperationLike, r#type::DimSize, OperationRef,
        ShapedTypeLike, ValueLike,
    },
    Context, RewriterBase,
};

/// The pass definition registered as `glow-splat-scalar-reads`.
pub static SPLAT_SCALAR_READS: PassDefinition = PassDefinition {
    argument: "glow-splat-scalar-reads",
    description: "Read one-element memrefs broadcast into vectors as a scalar load and a splat",
    anchor: None,
    options: &[],
    dependent_dialects: || {
        // SAFETY: static descriptors of dialects linked into the binary.
        unsafe {
            vec![
                DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__vector__()),
                DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__memref__()),
            ]
        }
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

static SPLAT: Rule = Rule {
    root: "vector.transfer_read",
    generates: &["memref.load", "vector.broadcast"],
    rewrite,
};

/// Whether `op` (an index operand's producer) is the constant 0.
fn is_zero_constant(op: OperationRef) -> bool {
    op.name().as_string_ref().as_str() == Ok("arith.constant")
        && op
            .attribute("value")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .is_some_and(|a| a.value() == 0)
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Some(source), Some(read)) = (operand(op, 0), result(op, 0)) else {
        return false;
    };
    let Some(memref) = crate::framework::values::memref_type(source.r#type()) else {
        return false;
    };
    let rank = memref.rank();
    let one_element = (0..rank).all(|d| {
        memref
            .dim_size(d)
            .is_ok_and(|size| size == DimSize::Static(1))
    });
    // Operands: source, one index per dimension, padding; a mask would follow.
    if !one_element || op.operand_count() != rank + 2 {
        return false;
    }
    let indices: Vec<_> = (1..=rank).filter_map(|i| operand(op, i)).collect();
    let all_zero = indices.len() == rank
        && indices.iter().all(|index| {
            crate::framework::values::defining_op(*index).is_some_and(is_zero_constant)
        });
    if !all_zero {
        return false;
    }
    let e = Emitter::before(context, op, rewriter);
    let mut operands = vec![source];
    operands.extend(indices);
    let scalar = e.op("memref.load", &operands, &[], memref.element());
    let splat = e.op("vector.broadcast", &[scalar], &[], read.r#type());
    rewriter.replace_op_with_values(op, &[splat]);
    true
}

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_rules(op, &[&SPLAT]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-splat-scalar-reads: the rewrite did not converge",
        );
    })
}
