//! onnxruntime's quantized transformer fusions (what `quantize_dynamic` makes of a
//! model its transformer optimizer fused):
//! - QAttention is its Q/K/V projection as integer compute, `MatMulInteger(input,
//!   weight, input zero point, weight zero point)` scaled by the input scale and the
//!   weight scale (one per tensor or per column; [`super::integer_matmuls`]), then
//!   the float Attention on the projected values: an Attention without weights,
//!   which only this rewrite writes (onnxruntime requires them), takes its input
//!   already projected. The
//!   MatMulInteger runs on the int8 kernels with the run-time zero point that
//!   DynamicQuantizeLinear computed.
//! - QEmbedLayerNormalization is the float EmbedLayerNormalization on its embedding
//!   tables and layer-norm parameters dequantized (constants, folded at compile time).

use super::{
    input, integer_matmuls::IntegerProduct, new_node, Parameters, Rewriter, CONTRIB_DOMAIN,
};
use crate::proto::NodeProto;

/// The contrib op types of this module.
pub const OPS: &[&str] = &["QAttention", "QEmbedLayerNormalization"];

/// Rewrites QAttention / QEmbedLayerNormalization `node` (see the module documentation).
pub(super) fn rewrite(node: &NodeProto, rewriter: &mut Rewriter) -> Result<(), String> {
    match node.op_type() {
        "QAttention" => q_attention(node, rewriter),
        _ => q_embed_layer_normalization(node, rewriter),
    }
}

/// Errors naming the first of `required` inputs that `node` lacks.
fn require(node: &NodeProto, required: &[usize]) -> Result<(), String> {
    match required.iter().find(|i| input(node, **i).is_empty()) {
        Some(missing) => Err(format!("input #{missing} is missing")),
        None => Ok(()),
    }
}

/// `node` as the contrib op `op_type` on `inputs`, with its outputs and attributes.
fn contrib_op(
    node: &NodeProto,
    op_type: &str,
    label: String,
    mut inputs: Vec<String>,
) -> NodeProto {
    while inputs.last().is_some_and(String::is_empty) {
        inputs.pop();
    }
    let mut op = new_node(op_type, label, inputs, node.output.clone());
    op.domain = Some(CONTRIB_DOMAIN.into());
    op.attribute = node.attribute.clone();
    op
}

/// QAttention inputs: 0 input, 1 weight, 2 bias, 3 input scale, 4 weight scale,
/// 5 mask index, 6 input zero point, 7 weight zero point, 8 past.
fn q_attention(node: &NodeProto, rewriter: &mut Rewriter) -> Result<(), String> {
    require(node, &[0, 1, 2, 3, 4])?;
    if !input(node, 8).is_empty() {
        return Err("the past input is not supported".into());
    }
    let projected = rewriter.integer_product(
        &IntegerProduct {
            a: input(node, 0),
            b: input(node, 1),
            a_scale: input(node, 3),
            b_scale: input(node, 4),
            a_zero_point: input(node, 6),
            b_zero_point: input(node, 7),
            bias: String::new(),
        },
        None,
    );
    let label = rewriter.label.clone();
    let inputs = vec![projected, String::new(), input(node, 2), input(node, 5)];
    rewriter
        .nodes
        .push(contrib_op(node, "Attention", label, inputs));
    Ok(())
}

/// QEmbedLayerNormalization inputs: 0 input ids, 1 segment ids, 2-6 the word, position
/// and segment tables, gamma and beta (quantized), 7 mask, 8-12 their scales, 13-17
/// their zero points.
fn q_embed_layer_normalization(node: &NodeProto, rewriter: &mut Rewriter) -> Result<(), String> {
    require(node, &[0, 2, 3, 5, 6, 8, 9, 11, 12])?;
    let mut inputs = vec![input(node, 0), input(node, 1)];
    for operand in 2..=6 {
        let value = input(node, operand);
        if value.is_empty() {
            inputs.push(value);
            continue;
        }
        let parameters = Parameters {
            scale: input(node, operand + 6),
            zero_point: input(node, operand + 11),
        };
        inputs.push(rewriter.dequantize(&value, &parameters, None));
    }
    inputs.push(input(node, 7));
    let label = rewriter.label.clone();
    rewriter
        .nodes
        .push(contrib_op(node, "EmbedLayerNormalization", label, inputs));
    Ok(())
}
