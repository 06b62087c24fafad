//! Transposes sink below pads and reductions, so the channels-last layout also
//! crosses the padding and range reductions an integer convolution with a run-time
//! zero point needs (DynamicQuantizeLinear -> ConvInteger):
//! - pad(transpose(x, p)) -> transpose(pad(x, pads moved by p), p), when the
//!   transpose has no other user;
//! - reduce(transpose(x, p), axes) -> reduce(x, p[axes]), then the transpose of the
//!   remaining dimensions (none when every axis is reduced, or when they keep their
//!   order); the transpose stays for its other users, the reduction no longer reads it.

use super::compose_transposes::{defining_op, has_one_use, permutation};
use crate::{
    framework::{
        attributes::{i64_array, set_attribute},
        Rule,
    },
    lower_nodes::builder::tensor_info,
    quantization::ir::tensor_type,
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Sinks a transpose below `glow.graph.pad`.
pub static SINK_TRANSPOSE_BELOW_PAD: Rule = Rule {
    root: "glow.graph.pad",
    generates: &["glow.graph.transpose", "glow.graph.pad"],
    rewrite: rewrite_pad,
};

macro_rules! reduction_rules {
    ($($name:ident => $root:literal),* $(,)?) => {
        $(
            #[doc = concat!("Reads `", $root, "`'s input before its transpose.")]
            pub static $name: Rule = Rule {
                root: $root,
                generates: &["glow.graph.transpose", $root],
                rewrite: rewrite_reduction,
            };
        )*
        /// Every reduction rule.
        pub const REDUCTION_RULES: &[&Rule] = &[$(&$name),*];
    };
}

reduction_rules! {
    SINK_TRANSPOSE_BELOW_REDUCE_SUM => "glow.graph.reduce_sum",
    SINK_TRANSPOSE_BELOW_REDUCE_MEAN => "glow.graph.reduce_mean",
    SINK_TRANSPOSE_BELOW_REDUCE_MAX => "glow.graph.reduce_max",
    SINK_TRANSPOSE_BELOW_REDUCE_MIN => "glow.graph.reduce_min",
    SINK_TRANSPOSE_BELOW_REDUCE_PROD => "glow.graph.reduce_prod",
}

/// What a rule needs of `op` whose operand 0 is a transpose: whether that transpose has
/// one use, its permutation, its source and the source's shape, and `op`'s integer
/// array attribute `name`.
struct Transposed<'c, 'a> {
    one_use: bool,
    perm: Vec<i64>,
    source: Value<'c, 'a>,
    source_shape: Vec<i64>,
    attribute: Vec<i64>,
}

fn transposed_operand<'c, 'a>(op: OperationRef<'c, 'a>, name: &str) -> Option<Transposed<'c, 'a>> {
    let input = op.operand(0).ok()?;
    let transpose = defining_op(input, "glow.graph.transpose")?;
    let perm = permutation(transpose)?;
    let source = transpose.operand(0).ok()?;
    // SAFETY: the source lives in the same IR as `op`.
    let source = unsafe { Value::from_raw(source.to_raw()) };
    let (source_shape, _) = tensor_info(source)?;
    (source_shape.len() == perm.len()).then_some(Transposed {
        one_use: has_one_use(input),
        perm,
        source,
        source_shape,
        attribute: i64_array(op, name)?,
    })
}

/// `op` cloned onto `source` with result `shape` (its own element type), before `op`.
pub(super) fn cloned_on<'c, 'a>(
    op: OperationRef<'c, 'a>,
    source: Value<'c, '_>,
    shape: &[i64],
    rewriter: &RewriterBase<'c, '_>,
) -> Option<(OperationRef<'c, 'a>, Value<'c, 'a>)> {
    let (_, element) = tensor_info(op.result(0).ok()?.into())?;
    rewriter.set_insertion_point_before(op);
    let moved = rewriter.clone_op(op);
    // SAFETY: the clone is alive and has operand 0; `source` dominates it.
    unsafe { mlir_sys::mlirOperationSetOperand(moved.to_raw(), 0, source.to_raw()) };
    let result = moved.result(0).ok()?;
    // SAFETY: the clone's result takes the source layout's shape.
    let r#type = tensor_type(shape, element);
    unsafe { mlir_sys::mlirValueSetType(result.to_raw(), melior::ir::TypeLike::to_raw(&r#type)) };
    Some((moved, result.into()))
}

/// Replaces `op` with `value` transposed by `perm` (or `value` itself for the identity).
pub(super) fn replace_transposed<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    value: Value<'c, '_>,
    perm: &[i64],
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    if perm.iter().enumerate().all(|(i, p)| *p == i as i64) {
        rewriter.replace_op_with_values(op, &[value]);
        return true;
    }
    let attribute = DenseI64ArrayAttribute::new(context, perm).into();
    let transpose = glow_graph::transpose(context, value, attribute, op.location());
    let Ok(result) = rewriter.insert(transpose.into()).result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[result.into()]);
    true
}

fn rewrite_pad<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(Transposed {
        one_use,
        perm,
        source,
        source_shape,
        attribute: pads,
    }) = transposed_operand(op, "pads")
    else {
        return false;
    };
    let rank = perm.len();
    if !one_use || pads.len() != 2 * rank {
        return false;
    }
    // Operand dimension i is source dimension perm[i].
    let mut moved = vec![0i64; 2 * rank];
    let mut shape = source_shape.clone();
    for (i, p) in perm.iter().enumerate() {
        let Ok(p) = usize::try_from(*p) else {
            return false;
        };
        moved[p] = pads[i];
        moved[rank + p] = pads[rank + i];
        shape[p] += pads[i] + pads[rank + i];
    }
    let Some((pad, padded)) = cloned_on(op, source, &shape, rewriter) else {
        return false;
    };
    set_attribute(
        pad,
        "pads",
        DenseI64ArrayAttribute::new(context, &moved).into(),
    );
    replace_transposed(context, op, padded, &perm, rewriter)
}

fn rewrite_reduction<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(Transposed {
        perm,
        source,
        source_shape,
        attribute: axes,
        ..
    }) = transposed_operand(op, "axes")
    else {
        return false;
    };
    let rank = perm.len() as i64;
    let Some(axes) = axes
        .iter()
        .map(|a| {
            let a = if *a < 0 { a + rank } else { *a };
            (0..rank).contains(&a).then_some(a as usize)
        })
        .collect::<Option<Vec<usize>>>()
    else {
        return false;
    };
    let keep_dims = op.attribute("keep_dims").is_ok();
    let mut moved_axes: Vec<i64> = axes.iter().map(|a| perm[*a]).collect();
    moved_axes.sort_unstable();
    let reduced = |d: usize| moved_axes.contains(&(d as i64));
    let (shape, after): (Vec<i64>, Vec<i64>) = if keep_dims {
        let shape = (0..source_shape.len())
            .map(|d| if reduced(d) { 1 } else { source_shape[d] })
            .collect();
        (shape, perm.clone())
    } else {
        // The kept source dimensions in order, and where each kept operand dimension
        // (in operand order) lands among them.
        let kept: Vec<usize> = (0..source_shape.len()).filter(|d| !reduced(*d)).collect();
        let shape = kept.iter().map(|d| source_shape[*d]).collect();
        let after = (0..perm.len())
            .filter(|i| !axes.contains(i))
            .filter_map(|i| kept.iter().position(|d| *d as i64 == perm[i]))
            .map(|j| j as i64)
            .collect();
        (shape, after)
    };
    let Some((reduction, value)) = cloned_on(op, source, &shape, rewriter) else {
        return false;
    };
    set_attribute(
        reduction,
        "axes",
        DenseI64ArrayAttribute::new(context, &moved_axes).into(),
    );
    replace_transposed(context, op, value, &after, rewriter)
}
