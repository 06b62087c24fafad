//! concat(transpose(x1, p), .., transpose(xn, p)) along `dim` ->
//! transpose(concat(x1, .., xn) along `p[dim]`, p): Glow's transpose sinking below
//! Concat. The channels-last layout wraps each convolution in transposes; where
//! convolution outputs are concatenated on the channel axis (SqueezeNet's Fire modules,
//! Inception, DenseNet), the transposes must pass the concat to meet the next
//! convolution's and cancel, else every branch is transposed back to NCHW and again to
//! NHWC. The operand transposes may have other users: they stay for those.

use super::{
    compose_transposes::{defining_op, permutation},
    sink_movement::per_axis_quantized,
};
use crate::{
    framework::{attributes::i64_value, Rule},
    lower_nodes::builder::tensor_info,
    quantization::ir::{operand, tensor_type},
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        OperationRef, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Sinks equal transposes of every operand below `glow.graph.concat`.
pub static SINK_TRANSPOSES_BELOW_CONCAT: Rule = Rule {
    root: "glow.graph.concat",
    generates: &["glow.graph.transpose", "glow.graph.concat"],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let count = op.operand_count();
    if count < 2 || per_axis_quantized(op) {
        return false;
    }
    let mut sources: Vec<Value> = Vec::new();
    let mut perm: Option<Vec<i64>> = None;
    for i in 0..count {
        let Some(transpose) = operand(op, i).and_then(|v| defining_op(v, "glow.graph.transpose"))
        else {
            return false;
        };
        let (Some(p), Some(source)) = (permutation(transpose), operand(transpose, 0)) else {
            return false;
        };
        if perm.as_ref().is_some_and(|q| *q != p) {
            return false;
        }
        perm = Some(p);
        sources.push(source);
    }
    let (Some(perm), Some(dim)) = (perm, i64_value(op, "dim")) else {
        return false;
    };
    let Some(&source_dim) = usize::try_from(dim).ok().and_then(|d| perm.get(d)) else {
        return false;
    };
    let (Some((mut shape, _)), Some((_, element))) = (
        tensor_info(sources[0]),
        op.result(0).ok().and_then(|r| tensor_info(r.into())),
    ) else {
        return false;
    };
    let mut joined = 0;
    for source in &sources {
        let Some((other, _)) = tensor_info(*source) else {
            return false;
        };
        joined += other.get(source_dim as usize).copied().unwrap_or(0);
    }
    shape[source_dim as usize] = joined;
    rewriter.set_insertion_point_before(op);
    let concat = rewriter.clone_op(op);
    for (i, source) in sources.iter().enumerate() {
        // SAFETY: the clone is alive and has `count` operands; the sources dominate it.
        unsafe { mlir_sys::mlirOperationSetOperand(concat.to_raw(), i as isize, source.to_raw()) };
    }
    let i64_type = IntegerType::new(context, 64).into();
    crate::framework::attributes::set_attribute(
        concat,
        "dim",
        IntegerAttribute::new(i64_type, source_dim).into(),
    );
    let Ok(joined_value) = concat.result(0) else {
        return false;
    };
    // SAFETY: the concat of the sources has their layout: the joined shape.
    unsafe {
        mlir_sys::mlirValueSetType(joined_value.to_raw(), tensor_type(&shape, element).to_raw())
    };
    let transpose = glow_graph::transpose(
        context,
        joined_value.into(),
        DenseI64ArrayAttribute::new(context, &perm).into(),
        op.location(),
    );
    let Ok(result) = rewriter.insert(transpose.into()).result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[result.into()]);
    true
}
