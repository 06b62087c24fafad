//! reduce_sum / prod / max / min -> linalg.reduce into an init filled with the
//! reduction's identity (+ tensor.reshape for kept dims); a sum, max or min of every
//! axis in two steps, over the columns of rows of 16-64 elements, then over those; a
//! softmax's row maximum (tagged by glow-lower-nodes) with `arith.maxnumf`.

use super::builder::{is_float, LinalgBuilder};
use super::rules::{is_int, is_unsigned};
use crate::framework::{attributes::i64_array, Rule};
use crate::lower_nodes::builder::tensor_info;
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        Attribute, OperationRef, Type, TypeLike,
    },
    Context, RewriterBase,
};

/// reduce_* -> linalg.reduce into an init filled with the reduction's identity, then
/// tensor.reshape to put back kept dimensions.
fn reduction<'c>(
    kind: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(input) else {
        return false;
    };
    let Some((result_shape, _)) = tensor_info(result.into()) else {
        return false;
    };
    let Some(axes) = i64_array(op, "axes") else {
        return false;
    };
    let rank = shape.len() as i64;
    let mut axes: Vec<i64> = axes
        .into_iter()
        .map(|a| if a < 0 { a + rank } else { a })
        .collect();
    axes.sort_unstable();
    let float = is_float(element);
    if !float && !is_int(element) {
        return false;
    }
    // f16 sums accumulate in f32 (half_precision::REDUCE_SUM).
    if kind == "sum" && element.is_f16() {
        return false;
    }
    let (combiner, identity): (&str, Attribute) = match (kind, float) {
        ("sum", true) => (
            "arith.addf",
            FloatAttribute::new(context, element, 0.0).into(),
        ),
        ("sum", false) => ("arith.addi", IntegerAttribute::new(element, 0).into()),
        ("prod", true) => (
            "arith.mulf",
            FloatAttribute::new(context, element, 1.0).into(),
        ),
        ("prod", false) => ("arith.muli", IntegerAttribute::new(element, 1).into()),
        // A softmax's row maximum ignores NaN (see lower_nodes::softmax::SOFTMAX_MAX).
        ("max", true) if op.has_attribute(crate::lower_nodes::softmax::SOFTMAX_MAX) => (
            "arith.maxnumf",
            FloatAttribute::new(context, element, f64::NEG_INFINITY).into(),
        ),
        ("max", true) => (
            "arith.maximumf",
            FloatAttribute::new(context, element, f64::NEG_INFINITY).into(),
        ),
        // Unsigned and bool (i1 compares as unsigned: true > false).
        ("max", false) if is_unsigned(element) || int_width(element) == 1 => {
            ("arith.maxui", IntegerAttribute::new(element, 0).into())
        }
        ("min", false) if is_unsigned(element) || int_width(element) == 1 => {
            ("arith.minui", IntegerAttribute::new(element, -1).into())
        }
        ("max", false) => (
            "arith.maxsi",
            IntegerAttribute::new(element, i64::MIN >> (64 - int_width(element))).into(),
        ),
        ("min", true) => (
            "arith.minimumf",
            FloatAttribute::new(context, element, f64::INFINITY).into(),
        ),
        ("min", false) => (
            "arith.minsi",
            IntegerAttribute::new(element, i64::MAX >> (64 - int_width(element))).into(),
        ),
        _ => return false,
    };
    let reduced_shape: Vec<i64> = (0..shape.len())
        .filter(|d| !axes.contains(&(*d as i64)))
        .map(|d| shape[d])
        .collect();
    let b = LinalgBuilder::before(context, op, rewriter);
    let reduced_type = b.tensor(&reduced_shape, element);
    let init = b.zeros(reduced_type, identity);
    let reduced = match whole_tensor_columns(&shape, &reduced_shape, kind) {
        // Every axis: first `columns` running results, each over every `columns`-th
        // element (an elementwise combine of contiguous rows, which vectorizes), then
        // those; one reduction over the whole tensor ran as a chain of scalar steps.
        Some(columns) => {
            let count: i64 = shape.iter().product();
            let rows = b.reshape(input, &[count / columns, columns], element);
            let partial_type = b.tensor(&[columns], element);
            let partial_init = b.zeros(partial_type, identity);
            let partial = b.reduce(rows, partial_init, partial_type, &[0], combiner, element);
            b.reduce(partial, init, reduced_type, &[0], combiner, element)
        }
        None => b.reduce(input, init, reduced_type, &axes, combiner, element),
    };
    let converted = if reduced_shape == result_shape {
        reduced
    } else {
        b.reshape(reduced, &result_shape, element)
    };
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

/// For a reduction of every axis of `shape` (sum, max or min) over enough elements,
/// the row width (a multiple of 16 lanes dividing the element count, at most 64) it
/// is computed in two steps at.
fn whole_tensor_columns(shape: &[i64], reduced_shape: &[i64], kind: &str) -> Option<i64> {
    let count: i64 = shape.iter().product();
    if !reduced_shape.is_empty() || kind == "prod" || shape.is_empty() {
        return None;
    }
    [64, 32, 16]
        .into_iter()
        .find(|columns| count % columns == 0 && count / columns >= 4)
}

fn int_width(element: Type) -> u32 {
    IntegerType::try_from(element)
        .map(|t| t.width())
        .unwrap_or(64)
}

rule!(REDUCE_SUM, "glow.graph.reduce_sum", |c, o, r| reduction(
    "sum", c, o, r
));
rule!(REDUCE_PROD, "glow.graph.reduce_prod", |c, o, r| reduction(
    "prod", c, o, r
));
rule!(REDUCE_MAX, "glow.graph.reduce_max", |c, o, r| reduction(
    "max", c, o, r
));
rule!(REDUCE_MIN, "glow.graph.reduce_min", |c, o, r| reduction(
    "min", c, o, r
));
