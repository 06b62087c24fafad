//! f16 / bf16 convolutions and matrix products, and f16 sums, accumulate in f32: the
//! operands are converted to f32 (glow.graph.convert), the op is rebuilt on f32 (and
//! converted by the convolution / contraction / reduction rules) and its result
//! converted back, as onnxruntime's CPU kernels accumulate half-precision products
//! and numpy its float16 sums. Summing hundreds of terms in f16 loses digits the
//! models' own references keep. bf16 sums stay in bf16, one rounded addition at a
//! time, as ml_dtypes (the ONNX suite's bf16 reference) computes them.

use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        operation::{OperationBuilder, OperationLike},
        r#type::RankedTensorType,
        OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Whether `element` is f16 or bf16.
pub fn is_half(element: Type) -> bool {
    element.is_f16() || element.is_bf16()
}

/// `value`'s tensor type with element `element`.
fn retyped<'c>(value: Value<'c, '_>, element: Type<'c>) -> Option<Type<'c>> {
    let (shape, _) = tensor_info(value)?;
    let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
    Some(RankedTensorType::new(&dims, element, None).into())
}

fn widen<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let Some((_, element)) = tensor_info(result.into()) else {
        return false;
    };
    if !is_half(element) {
        return false;
    }
    let f32_type = Type::float32(context);
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let mut operands = Vec::new();
    for operand in op.operands() {
        let Some(wide) = retyped(operand, f32_type) else {
            return false;
        };
        let convert = rewriter.insert(glow_graph::convert(context, wide, operand, location).into());
        operands.push(convert.result(0).expect("one result").into());
    }
    let Some(wide_result) = retyped(result.into(), f32_type) else {
        return false;
    };
    let name = op.name();
    let Ok(name) = name.as_string_ref().as_str() else {
        return false;
    };
    let attributes: Vec<_> = op.attributes().collect();
    let Ok(wide_op) = OperationBuilder::new(name, location)
        .add_operands(&operands)
        .add_attributes(&attributes)
        .add_results(&[wide_result])
        .build()
    else {
        return false;
    };
    let wide_op = rewriter.insert(wide_op);
    let narrow = rewriter.insert(
        glow_graph::convert(
            context,
            result.r#type(),
            wide_op.result(0).expect("one result").into(),
            location,
        )
        .into(),
    );
    let narrow: Value = narrow.result(0).expect("one result").into();
    rewriter.replace_op_with_values(op, &[narrow]);
    true
}

/// f16 / bf16 `glow.graph.conv2d` in f32.
pub static CONV2D: Rule = Rule {
    root: "glow.graph.conv2d",
    generates: &["glow.graph.conv2d", "glow.graph.convert"],
    rewrite: widen,
};
/// f16 / bf16 `glow.graph.matmul` in f32.
pub static MATMUL: Rule = Rule {
    root: "glow.graph.matmul",
    generates: &["glow.graph.matmul", "glow.graph.convert"],
    rewrite: widen,
};
/// f16 / bf16 `glow.graph.batch_matmul` in f32.
pub static BATCH_MATMUL: Rule = Rule {
    root: "glow.graph.batch_matmul",
    generates: &["glow.graph.batch_matmul", "glow.graph.convert"],
    rewrite: widen,
};
/// f16 / bf16 `glow.graph.conv_transpose2d` in f32.
pub static CONV_TRANSPOSE2D: Rule = Rule {
    root: "glow.graph.conv_transpose2d",
    generates: &["glow.graph.conv_transpose2d", "glow.graph.convert"],
    rewrite: widen,
};
/// f16 `glow.graph.reduce_sum` in f32 (softmax and normalization denominators
/// included, after glow-lower-nodes).
pub static REDUCE_SUM: Rule = Rule {
    root: "glow.graph.reduce_sum",
    generates: &["glow.graph.reduce_sum", "glow.graph.convert"],
    rewrite: |context, op, rewriter| {
        // numpy sums float16 with f32 accumulators, but ml_dtypes' bfloat16 one
        // rounded addition at a time; the suite's references follow them.
        let is_f16 = op
            .result(0)
            .ok()
            .and_then(|r| tensor_info(r.into()))
            .is_some_and(|(_, e)| e.is_f16());
        is_f16 && widen(context, op, rewriter)
    },
};
