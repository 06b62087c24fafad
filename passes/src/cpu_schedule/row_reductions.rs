//! `glow-lower-row-reductions` (on vectors, before `lower-vector-multi-reduction`): a
//! `vector.multi_reduction` of one float row (`vector<1x..x1xN>` over its last axis,
//! as `glow-cpu-vectorize-elementwise` writes softmax's max and sum, a norm's mean, a
//! ReduceMax over the innermost axis) becomes a tree: the row's 16-lane pieces are
//! combined elementwise pairwise, then one `vector.reduction` (reassociating for add and
//! mul) folds the last 16 lanes, and the accumulator is combined once at the end.
//! Minima and maxima halve that vector instead while its width is even (16 -> 8 -> 4
//! -> 2 -> 1; a row of 24 lanes 12 -> 6 -> 3) and reduce what is left: LLVM reduces
//! them lane by lane.
//!
//! Upstream's multi-reduction lowering that the pipeline uses (inner-parallel, right for
//! column reductions and VNNI's 4-lane sums) turns such a row into a chain of N scalar
//! steps, each a NaN-propagating maximum for softmax: ReduceMax over 128 lanes ran at
//! one element per ~7 cycles. Other multi-reductions are left to it.

use crate::{
    framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule},
    quantization::ir::{operand, result, vector_type, Emitter},
};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::OperationLike, Attribute, AttributeLike, OperationRef, Type, TypeLike, ValueLike,
    },
    Context, RewriterBase,
};

/// Lanes of one AVX-512 f32 register: the width the pieces are combined at.
const LANES: i64 = 16;

/// The pass definition registered as `glow-lower-row-reductions`.
pub static LOWER_ROW_REDUCTIONS: PassDefinition = PassDefinition {
    argument: "glow-lower-row-reductions",
    description: "Lower float vector.multi_reduction ops over one row to a tree of 16-lane combines and one vector.reduction",
    anchor: None,
    options: &[],
    dependent_dialects: || {
        // SAFETY: static descriptor of a dialect linked into the binary.
        unsafe {
            vec![
                DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__vector__()),
                DialectHandle::arith(),
            ]
        }
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

static LOWER: Rule = Rule {
    root: "vector.multi_reduction",
    generates: &[
        "vector.shape_cast",
        "vector.extract_strided_slice",
        "vector.reduction",
        "vector.broadcast",
    ],
    rewrite: lower,
};

/// The elementwise arith op combining two partial results of a reduction `kind`, and
/// whether the kind may be reassociated only under `fastmath<reassoc>` (sums and
/// products; minima and maxima are exact in any order).
fn combiner(kind: &str) -> Option<(&'static str, bool)> {
    Some(match kind {
        "add" => ("arith.addf", true),
        "mul" => ("arith.mulf", true),
        "maximumf" => ("arith.maximumf", false),
        "minimumf" => ("arith.minimumf", false),
        "maxnumf" => ("arith.maxnumf", false),
        "minnumf" => ("arith.minnumf", false),
        _ => return None,
    })
}

/// Shape and element type of a vector type.
fn vector_shape(r#type: Type) -> Option<(Vec<i64>, Type)> {
    // SAFETY: type queries on a valid type, the shape only of a vector.
    unsafe {
        let raw = r#type.to_raw();
        if !mlir_sys::mlirTypeIsAVector(raw) || mlir_sys::mlirVectorTypeIsScalable(raw) {
            return None;
        }
        let shape = (0..mlir_sys::mlirShapedTypeGetRank(raw))
            .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i as isize))
            .collect();
        Some((
            shape,
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)),
        ))
    }
}

/// The reduced axes of a multi_reduction.
fn reduction_dims(op: OperationRef) -> Option<Vec<i64>> {
    let attribute = op.attribute("reduction_dims").ok()?;
    // SAFETY: queries on a live attribute, checked to be a dense i64 array first.
    unsafe {
        let raw = attribute.to_raw();
        if !mlir_sys::mlirAttributeIsADenseI64Array(raw) {
            return None;
        }
        Some(
            (0..mlir_sys::mlirDenseArrayGetNumElements(raw))
                .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

fn lower<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Some(source), Some(acc), Some(reduced)) = (operand(op, 0), operand(op, 1), result(op, 0))
    else {
        return false;
    };
    let Some((shape, element)) = vector_shape(source.r#type()) else {
        return false;
    };
    // A masked reduction (inside vector.mask) keeps upstream's lowering.
    if op
        .parent_operation()
        .is_some_and(|parent| parent.name().as_string_ref().as_str() == Ok("vector.mask"))
    {
        return false;
    }
    let rank = shape.len();
    let length = shape[rank - 1];
    if !element.is_float()
        || reduction_dims(op).as_deref() != Some(&[rank as i64 - 1])
        || shape[..rank - 1].iter().any(|d| *d != 1)
        || length < 2
    {
        return false;
    }
    let Ok(kind_attribute) = op.attribute("kind") else {
        return false;
    };
    let kind_text = kind_attribute.to_string();
    let Some(kind) = kind_text
        .strip_prefix("#vector.kind<")
        .and_then(|k| k.strip_suffix('>'))
    else {
        return false;
    };
    let Some((combine, reassociates)) = combiner(kind) else {
        return false;
    };
    let fastmath = Attribute::parse(
        context,
        if reassociates {
            "#arith.fastmath<reassoc>"
        } else {
            "#arith.fastmath<none>"
        },
    )
    .expect("valid fastmath flags");
    let e = Emitter::before(context, op, rewriter);
    let row = e.op(
        "vector.shape_cast",
        &[source],
        &[],
        vector_type(&[length], element),
    );
    // Pieces of one register, combined pairwise (independent chains for the CPU).
    let mut pieces = vec![row];
    if length > LANES && length % LANES == 0 {
        let piece = vector_type(&[LANES], element);
        pieces = (0..length / LANES)
            .map(|k| {
                let attribute = |text: String| Attribute::parse(context, &text).expect("valid");
                e.op(
                    "vector.extract_strided_slice",
                    &[row],
                    &[
                        ("offsets", attribute(format!("[{} : i64]", k * LANES))),
                        ("sizes", attribute(format!("[{LANES} : i64]"))),
                        ("strides", attribute("[1 : i64]".into())),
                    ],
                    piece,
                )
            })
            .collect();
        while pieces.len() > 1 {
            pieces = pieces
                .chunks(2)
                .map(|pair| match pair {
                    [a, b] => e.op(combine, &[*a, *b], &[("fastmath", fastmath)], piece),
                    [a] => *a,
                    _ => unreachable!("chunks of two"),
                })
                .collect();
        }
    }
    // Minima and maxima, which LLVM folds lane by lane in one serial chain (a NaN
    // check per lane for maxnumf: about 150 cycles of latency per row, as much as the
    // exponentials of a 300-wide softmax row), keep halving while the width is even
    // (16 -> 8 -> 4 -> 2 -> 1), exact in any order.
    let mut last = pieces[0];
    let mut width = if length > LANES && length % LANES == 0 {
        LANES
    } else {
        length
    };
    while !reassociates && width > 1 && width % 2 == 0 {
        let half = width / 2;
        let slice = |offset: i64| {
            let attribute = |text: String| Attribute::parse(context, &text).expect("valid");
            e.op(
                "vector.extract_strided_slice",
                &[last],
                &[
                    ("offsets", attribute(format!("[{offset} : i64]"))),
                    ("sizes", attribute(format!("[{half} : i64]"))),
                    ("strides", attribute("[1 : i64]".into())),
                ],
                vector_type(&[half], element),
            )
        };
        let (low, high) = (slice(0), slice(half));
        last = e.op(
            combine,
            &[low, high],
            &[("fastmath", fastmath)],
            vector_type(&[half], element),
        );
        width = half;
    }
    let scalar = e.op(
        "vector.reduction",
        &[last],
        &[("kind", kind_attribute), ("fastmath", fastmath)],
        element,
    );
    // The accumulator joins last: a scalar for a 1-D row, else a vector<1x..x1>.
    let value = if acc.r#type().is_float() {
        e.op(combine, &[scalar, acc], &[("fastmath", fastmath)], element)
    } else {
        let splat = e.op("vector.broadcast", &[scalar], &[], acc.r#type());
        e.op(
            combine,
            &[splat, acc],
            &[("fastmath", fastmath)],
            acc.r#type(),
        )
    };
    debug_assert!(value.r#type() == reduced.r#type());
    rewriter.replace_op_with_values(op, &[value]);
    true
}

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_rules(op, &[&LOWER]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-lower-row-reductions: the rewrite did not converge",
        );
    })
}
