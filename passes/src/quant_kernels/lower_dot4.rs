//! `glow-lower-dot4`: glow.quant.dot4 -> `llvm.x86.avx512.vpdpbusd.512` for 16 lanes
//! (AVX-512 VNNI), or -> extui / extsi / muli and a sum of each lane's 4 products
//! (`vector.multi_reduction`) for other widths. Runs after bufferization, on buffers.

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
        "Lower glow.quant.dot4 to AVX-512 VNNI's vpdpbusd (16 lanes) or to plain vector arithmetic",
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
    let e = Emitter::before(context, op, rewriter);
    let value = if count == 16 {
        let attributes: [(&str, Attribute); 3] = [
            (
                "intrin",
                StringAttribute::new(context, "llvm.x86.avx512.vpdpbusd.512").into(),
            ),
            (
                "op_bundle_sizes",
                DenseI32ArrayAttribute::new(context, &[]).into(),
            ),
            (
                "operandSegmentSizes",
                DenseI32ArrayAttribute::new(context, &[3, 0]).into(),
            ),
        ];
        e.op(
            "llvm.call_intrinsic",
            &[acc, lhs, rhs],
            &attributes,
            result.r#type(),
        )
    } else {
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
    apply_rules(op, &[&LOWER]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-lower-dot4: the rewrite did not converge",
        );
    })
}
