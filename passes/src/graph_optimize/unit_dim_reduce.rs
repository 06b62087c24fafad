//! Reductions read through reshapes that only add or drop unit dimensions:
//! reduce(reshape(x), axes) -> reshape(reduce(x, the same axes of x)), when the
//! reshape keeps x's other dimensions in order and every reduced axis is one of them
//! (or a unit one, which reduces nothing). A torch.onnx BERT's softmax is lowered on
//! 1 x 12 x T x T while its elementwise steps run on 12 x T x T (their reshapes sank
//! away): with its max and sum read through the reshape, every step of the softmax has
//! the same rows, and the reshape back after each reduction cancels with the one before
//! it, so `glow-cpu-vectorize-elementwise` computes the softmax row by row.

use super::sink_pad_reduce::cloned_on;
use crate::{
    framework::{
        attributes::{i64_array, set_attribute},
        Rule,
    },
    lower_nodes::builder::tensor_info,
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, ValueLike},
    Context, RewriterBase,
};

macro_rules! unit_dim_rules {
    ($($name:ident => $root:literal),* $(,)?) => {
        $(
            #[doc = concat!("Reads `", $root, "`'s input before a unit-dimension reshape.")]
            pub static $name: Rule = Rule {
                root: $root,
                generates: &["glow.graph.reshape", $root],
                rewrite,
            };
        )*
        /// Every rule of this file.
        pub const RULES: &[&Rule] = &[$(&$name),*];
    };
}

unit_dim_rules! {
    REDUCE_SUM_BEFORE_UNIT_RESHAPE => "glow.graph.reduce_sum",
    REDUCE_MEAN_BEFORE_UNIT_RESHAPE => "glow.graph.reduce_mean",
    REDUCE_MAX_BEFORE_UNIT_RESHAPE => "glow.graph.reduce_max",
    REDUCE_MIN_BEFORE_UNIT_RESHAPE => "glow.graph.reduce_min",
    REDUCE_PROD_BEFORE_UNIT_RESHAPE => "glow.graph.reduce_prod",
}

/// For each dimension of `to` that is not 1, the dimension of `from` it is, when `to`
/// only adds or drops unit dimensions of `from` (the others in the same order).
fn unit_dim_map(from: &[i64], to: &[i64]) -> Option<Vec<Option<usize>>> {
    let kept: Vec<usize> = (0..from.len()).filter(|d| from[*d] != 1).collect();
    let mut next = kept.iter();
    let map: Vec<Option<usize>> = to
        .iter()
        .map(|size| {
            if *size == 1 {
                Some(None)
            } else {
                next.next().filter(|d| from[**d] == *size).map(|d| Some(*d))
            }
        })
        .collect::<Option<_>>()?;
    next.next().is_none().then_some(map)
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(reshape) = op
        .operand(0)
        .ok()
        .and_then(crate::framework::values::defining_op)
        .filter(|r| r.name().as_string_ref().as_str() == Ok("glow.graph.reshape"))
    else {
        return false;
    };
    let (Ok(source), Ok(input), Ok(result)) = (reshape.operand(0), op.operand(0), op.result(0))
    else {
        return false;
    };
    let (Some((source_shape, _)), Some((shape, _)), Some(axes)) = (
        tensor_info(source),
        tensor_info(input),
        i64_array(op, "axes"),
    ) else {
        return false;
    };
    let Some(map) = unit_dim_map(&source_shape, &shape) else {
        return false;
    };
    let rank = shape.len() as i64;
    let mut moved_axes = Vec::new();
    for axis in axes {
        let axis = if axis < 0 { axis + rank } else { axis };
        if !(0..rank).contains(&axis) {
            return false;
        }
        // A unit axis reduces nothing; the others are the source's.
        if let Some(d) = map[axis as usize] {
            moved_axes.push(d as i64);
        }
    }
    // Reducing unit axes only is left as it is, and so is reducing every axis of a
    // source without unit dimensions (the reshape only adds some).
    if moved_axes.is_empty() || moved_axes.len() == source_shape.len() {
        return false;
    }
    moved_axes.sort_unstable();
    let keep_dims = op.attribute("keep_dims").is_ok();
    let reduced_shape: Vec<i64> = (0..source_shape.len())
        .filter_map(|d| {
            let reduced = moved_axes.contains(&(d as i64));
            match (reduced, keep_dims) {
                (true, true) => Some(1),
                (true, false) => None,
                (false, _) => Some(source_shape[d]),
            }
        })
        .collect();
    let Some((reduction, value)) = cloned_on(op, source, &reduced_shape, rewriter) else {
        return false;
    };
    set_attribute(
        reduction,
        "axes",
        DenseI64ArrayAttribute::new(context, &moved_axes).into(),
    );
    // The reduction's own shape differs from the original's in unit dimensions only.
    let back = glow_graph::reshape(context, result.r#type(), value, op.location());
    let Ok(back) = rewriter.insert(back.into()).result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[back.into()]);
    true
}

#[cfg(test)]
mod tests {
    use super::unit_dim_map;

    #[test]
    fn maps_only_unit_dimension_changes() {
        assert_eq!(
            unit_dim_map(&[12, 64, 64], &[1, 12, 64, 64]),
            Some(vec![None, Some(0), Some(1), Some(2)])
        );
        assert_eq!(
            unit_dim_map(&[1, 12, 64, 1], &[12, 64]),
            Some(vec![Some(1), Some(2)])
        );
        // A merge of two dimensions is not a unit-dimension change.
        assert_eq!(unit_dim_map(&[12, 64, 64], &[768, 64]), None);
        // Nor is a reorder.
        assert_eq!(unit_dim_map(&[12, 64], &[64, 12]), None);
    }
}
