//! batch_norm(conv2d(x, W, b)) with constant W, b and statistics -> conv2d(x, W', b'),
//! W'[f] = W[f] * k[f], b'[f] = (b[f] - mean[f]) * k[f] + bias[f],
//! k = scale / sqrt(var + epsilon) (Glow's BatchNorm-into-Convolution folding).
//! Weights may be inline constants, splats or dense_resource blobs (f32).

use super::compose_transposes::{defining_op, has_one_use};
use crate::framework::{dead_weights::erase_dead_weights, Rule};
use glow_dialects::{elements, ods::glow_graph};
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::{RankedTensorType, ShapedTypeLike},
        OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The rule folding a batch_norm into the convolution that feeds it.
pub static FOLD_BATCH_NORM_INTO_CONV: Rule = Rule {
    root: "glow.graph.batch_norm",
    generates: &["glow.graph.conv2d", "glow.graph.constant"],
    rewrite,
};

/// Shape of a statically shaped tensor value.
fn shape_of(value: Value) -> Option<Vec<u64>> {
    let r#type = RankedTensorType::try_from(value.r#type()).ok()?;
    (0..r#type.rank())
        .map(|d| match r#type.dim_size(d) {
            Ok(melior::ir::r#type::DimSize::Static(n)) => Some(n),
            _ => None,
        })
        .collect()
}

fn is_f32(value: Value) -> bool {
    RankedTensorType::try_from(value.r#type())
        // SAFETY: a type query on a valid type.
        .map(|t| unsafe { mlir_sys::mlirTypeIsAF32(t.element().to_raw()) })
        .unwrap_or(false)
}

/// The f32 data of a constant or splat value (also read by [`super::padding_taps`]).
pub(crate) fn constant_f32(value: Value) -> Option<Vec<f32>> {
    if !is_f32(value) {
        return None;
    }
    let count = shape_of(value)?.iter().product::<u64>() as usize;
    if let Some(constant) = defining_op(value, "glow.graph.constant") {
        return elements::f32_values(constant.attribute("value").ok()?, count);
    }
    if let Some(splat) = defining_op(value, "glow.graph.splat") {
        let scalar = FloatAttribute::try_from(splat.attribute("value").ok()?).ok()?;
        return Some(vec![scalar.value() as f32; count]);
    }
    None
}

fn bytes_of(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let operands: Vec<Value> = op.operands().collect();
    let [input, scale, bias, mean, var] = operands[..] else {
        return false;
    };
    let channel = op
        .attribute("channel")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value());
    let epsilon = op
        .attribute("epsilon")
        .ok()
        .and_then(|a| FloatAttribute::try_from(a).ok())
        .map(|a| a.value() as f32);
    let (Some(1), Some(epsilon)) = (channel, epsilon) else {
        return false;
    };
    let Some(conv) = defining_op(input, "glow.graph.conv2d") else {
        return false;
    };
    // The batch_norm's channel axis 1 is the conv's filter axis only in NCHW.
    if !has_one_use(input) || !is_f32(input) || conv.attribute("channels_last").is_ok() {
        return false;
    }
    let (Ok(conv_input), Ok(filter)) = (conv.operand(0), conv.operand(1)) else {
        return false;
    };
    let Some(filter_shape) = shape_of(filter) else {
        return false;
    };
    let filters = filter_shape[0] as usize;
    let Some(weights) = constant_f32(filter) else {
        return false;
    };
    let conv_bias = match crate::quantization::ir::operand(conv, 2) {
        Some(b) => match constant_f32(b) {
            Some(values) => values,
            None => return false,
        },
        None => vec![0.0; filters],
    };
    let (Some(scale), Some(shift), Some(mean), Some(var)) = (
        constant_f32(scale),
        constant_f32(bias),
        constant_f32(mean),
        constant_f32(var),
    ) else {
        return false;
    };
    if [
        scale.len(),
        shift.len(),
        mean.len(),
        var.len(),
        conv_bias.len(),
    ]
    .iter()
    .any(|n| *n != filters)
    {
        return false;
    }

    let per_filter = weights.len() / filters;
    let k: Vec<f32> = (0..filters)
        .map(|f| scale[f] / (var[f] + epsilon).sqrt())
        .collect();
    let folded_weights: Vec<f32> = weights
        .iter()
        .enumerate()
        .map(|(i, w)| w * k[i / per_filter])
        .collect();
    let folded_bias: Vec<f32> = (0..filters)
        .map(|f| (conv_bias[f] - mean[f]) * k[f] + shift[f])
        .collect();

    let location = conv.location();
    rewriter.set_insertion_point_before(conv);
    let filter_type = filter.r#type();
    let bias_type: Type =
        RankedTensorType::new(&[filters as u64], Type::float32(context), None).into();
    let weights_attr =
        elements::resource_elements(filter_type, "folded_filter", &bytes_of(&folded_weights));
    let bias_bytes = bytes_of(&folded_bias);
    let bias_attr = if bias_bytes.len() <= 256 {
        elements::dense_elements(bias_type, &bias_bytes)
    } else {
        elements::resource_elements(bias_type, "folded_bias", &bias_bytes)
    };
    let new_filter =
        rewriter.insert(glow_graph::constant(context, filter_type, weights_attr, location).into());
    let new_bias =
        rewriter.insert(glow_graph::constant(context, bias_type, bias_attr, location).into());
    let (Ok(new_filter), Ok(new_bias)) = (new_filter.result(0), new_bias.result(0)) else {
        return false;
    };
    let mut builder = glow_graph::Conv2DOperationBuilder::new(context, location)
        .input(conv_input)
        .filter(new_filter.into())
        .bias(new_bias.into());
    for (name, attribute) in ["strides", "pads", "dilations", "group"]
        .iter()
        .filter_map(|name| conv.attribute(name).ok().map(|a| (*name, a)))
    {
        builder = match name {
            "strides" => builder.strides(attribute),
            "pads" => builder.pads(attribute),
            "dilations" => builder.dilations(attribute),
            _ => match IntegerAttribute::try_from(attribute) {
                Ok(group) => builder.group(group),
                Err(_) => return false,
            },
        };
    }
    let folded = rewriter.insert(builder.build().into());
    let Ok(result) = folded.result(0) else {
        return false;
    };
    let mut weights: Vec<Value> = operands[1..].to_vec();
    weights.extend(conv.operands().skip(1));
    rewriter.replace_op_with_values(op, &[result.into()]);
    // The unfolded conv and its weights are dead: free them now, not after the pass.
    rewriter.erase_op(conv);
    erase_dead_weights(rewriter, &weights);
    true
}
