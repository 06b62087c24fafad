//! `glow-lower-dot4`: glow.quant.dot4 -> `llvm.x86.avx512.vpdpbusd.512` for 16 lanes
//! (AVX-512 VNNI), or -> extui / extsi / muli and a sum of each lane's 4 products
//! (`vector.multi_reduction`) for other widths; glow.quant.permute_bytes ->
//! `llvm.x86.avx512.vpermi2var.qi.512` (AVX-512 VBMI). Runs after bufferization, on
//! buffers.

use crate::{
    framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule},
    quantization::ir::{vector_type, Emitter},
};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{DenseI32ArrayAttribute, StringAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        Attribute, OperationRef, Type, TypeLike, ValueLike,
    },
    Context, RewriterBase,
};

/// The pass definition registered as `glow-lower-dot4`.
pub static LOWER_DOT4: PassDefinition = PassDefinition {
    argument: "glow-lower-dot4",
    description:
        "Lower glow.quant.dot4 to AVX-512 VNNI's vpdpbusd (16 lanes) or to plain vector arithmetic, and glow.quant.permute_bytes to AVX-512 VBMI's vpermi2b",
    anchor: None,
    options: &[],
    dependent_dialects: || {
        // SAFETY: static descriptors of dialects linked into the binary.
        unsafe {
            vec![
                DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__llvm__()),
                DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__vector__()),
                DialectHandle::arith(),
            ]
        }
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

static LOWER: Rule = Rule {
    root: "glow.quant.dot4",
    generates: &["llvm.call_intrinsic", "vector.multi_reduction"],
    rewrite: lower,
};

static LOWER_PERMUTE: Rule = Rule {
    root: "glow.quant.permute_bytes",
    generates: &["llvm.call_intrinsic"],
    rewrite: lower_permute,
};

/// The `llvm.call_intrinsic` of `intrinsic` on `operands`, with `op`'s result type,
/// replacing `op`.
fn call_intrinsic<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    intrinsic: &str,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let operands: Vec<_> = (0..op.operand_count())
        .filter_map(|i| op.operand(i).ok())
        .collect();
    let attributes: [(&str, Attribute); 3] = [
        ("intrin", StringAttribute::new(context, intrinsic).into()),
        (
            "op_bundle_sizes",
            DenseI32ArrayAttribute::new(context, &[]).into(),
        ),
        (
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(context, &[operands.len() as i32, 0]).into(),
        ),
    ];
    let e = Emitter::before(context, op, rewriter);
    let value = e.op(
        "llvm.call_intrinsic",
        &operands,
        &attributes,
        result.r#type(),
    );
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn lower_permute<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    call_intrinsic(context, op, rewriter, "llvm.x86.avx512.vpermi2var.qi.512")
}

fn lanes(r#type: Type) -> Option<i64> {
    // SAFETY: type queries on a valid type; the size only of a vector.
    unsafe {
        mlir_sys::mlirTypeIsAVector(r#type.to_raw())
            .then(|| mlir_sys::mlirShapedTypeGetDimSize(r#type.to_raw(), 0))
    }
}

fn lower<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(acc), Ok(lhs), Ok(rhs), Ok(result)) =
        (op.operand(0), op.operand(1), op.operand(2), op.result(0))
    else {
        return false;
    };
    let Some(count) = lanes(acc.r#type()) else {
        return false;
    };
    if count == 16 {
        return call_intrinsic(context, op, rewriter, "llvm.x86.avx512.vpdpbusd.512");
    }
    let e = Emitter::before(context, op, rewriter);
    let value = {
        let i32: Type = IntegerType::new(context, 32).into();
        let wide = vector_type(&[4 * count], i32);
        let a = e.op("arith.extui", &[lhs], &[], wide);
        let b = e.op("arith.extsi", &[rhs], &[], wide);
        let product = e.op("arith.muli", &[a, b], &[], wide);
        let grouped = e.op(
            "vector.shape_cast",
            &[product],
            &[],
            vector_type(&[count, 4], i32),
        );
        let kind = Attribute::parse(context, "#vector.kind<add>").expect("valid kind");
        let dims = melior::ir::attribute::DenseI64ArrayAttribute::new(context, &[1]).into();
        e.op(
            "vector.multi_reduction",
            &[grouped, acc],
            &[("kind", kind), ("reduction_dims", dims)],
            result.r#type(),
        )
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_rules(op, &[&LOWER, &LOWER_PERMUTE]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-lower-dot4: the rewrite did not converge",
        );
    })
}
