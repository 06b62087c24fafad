//! onnxruntime's transformer fusions (the `com.microsoft` ops its transformer optimizer,
//! `onnxruntime.transformers.optimizer`, writes into BERT-family models) as the glow.graph
//! ops of their definitions:
//! - EmbedLayerNormalization: word, position (0..S unless position_ids) and segment
//!   embeddings gathered and summed, layer-normalized; the mask index output is the
//!   number of attended tokens per batch (the mask's entries equal to 1 per row), or zeros without a mask
//! - Attention: one matmul for Q, K and V (plus the bias; without weights, the input
//!   is that product: glow's rewrite of QAttention), split into `num_heads`
//!   heads, `Q K^T * scale` (1 / sqrt(head size) by default) per batch x head, the mask
//!   (a 1-D mask index of end positions, or end and start positions; a raw 2-D or 3-D
//!   mask, positive entries attended) added as `mask_filter_value` where keys are masked,
//!   `unidirectional`'s later keys excluded (the lowest float added), softmax, the product with V, heads merged back
//! - SkipLayerNormalization: layer norm of input + skip (+ bias); its last output is
//!   the sum
//! - BiasGelu / FastGelu / Gelu: Gelu (exact, or the tanh approximation) of input
//!   (+ bias); QuickGelu: `x * sigmoid(alpha x)`
//! - SimplifiedLayerNormalization (RMS normalization, which onnxruntime registers in
//!   the default domain) and SkipSimplifiedLayerNormalization (of input + skip
//!   (+ bias); its last output is the sum), as T5 / Llama-style models fuse them
//!
//! Past key / value state, attention bias inputs and rotary embeddings are refused
//! with a line naming them.

use super::compose::{
    bin, convert, matmul, reduce, reshape, scalar, select, slice, transpose, un, Bin, Reduction, Un,
};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;
use melior::ir::Attribute;

/// `x` layer-normalized over its last axis with `gamma` and `beta` (zeros when absent),
/// epsilon 1e-12 unless the node says otherwise (onnxruntime's default for these ops).
fn layer_norm<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    gamma: &Slot<'c, 'a>,
    beta: Option<&Slot<'c, 'a>>,
) -> Result<Slot<'c, 'a>, String> {
    let Some(axis) = x.shape.len().checked_sub(1) else {
        return Err("a scalar input; the normalized axis is the last one".into());
    };
    let epsilon = cx.attr_f("epsilon", 1e-12) as f64;
    super::nn::layer_norm(cx, x, gamma, beta, axis, epsilon)
}

/// Refuses requested outputs `from..` that the converter does not compute.
fn refuse_outputs(cx: &NodeContext, from: usize, what: &str) -> Result<(), String> {
    match cx.node.output.iter().skip(from).any(|o| !o.is_empty()) {
        true => Err(format!("the {what} outputs are not supported")),
        false => Ok(()),
    }
}

/// The input of `index` when present.
fn optional<'c, 'a>(
    cx: &NodeContext<'c, 'a, '_>,
    index: usize,
) -> Result<Option<Slot<'c, 'a>>, String> {
    cx.has_input(index).then(|| cx.input(index)).transpose()
}

pub fn skip_layer_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (x, skip, gamma) = (cx.input(0)?, cx.input(1)?, cx.input(2)?);
    let (beta, bias) = (optional(cx, 3)?, optional(cx, 4)?);
    let requested = |i: usize| cx.node.output.get(i).is_some_and(|o| !o.is_empty());
    if requested(1) || requested(2) {
        return Err("the mean and inverse standard deviation outputs are not supported".into());
    }
    let mut sum = bin(cx, Bin::Add, &x, &skip)?;
    if let Some(bias) = &bias {
        sum = bin(cx, Bin::Add, &sum, bias)?;
    }
    let out = layer_norm(cx, &sum, &gamma, beta.as_ref())?;
    // Outputs 1 and 2 are not requested (checked above); 3 is the sum.
    Ok(vec![out, sum.clone(), sum.clone(), sum])
}

/// SimplifiedLayerNormalization (which onnxruntime registers in the default domain):
/// RMSNormalization under another name.
pub fn simplified_layer_normalization<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
) -> Converted<'c, 'a> {
    refuse_outputs(cx, 1, "inverse standard deviation")?;
    let (x, scale) = (cx.input(0)?, cx.input(1)?);
    Ok(vec![super::norms::rms_norm(cx, &x, &scale, 1e-5)?])
}

/// SkipSimplifiedLayerNormalization: RMS normalization of input + skip (+ bias, input
/// 3) over the last axis, times gamma; its last output is the sum.
pub fn skip_simplified_layer_normalization<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
) -> Converted<'c, 'a> {
    let (x, skip, gamma) = (cx.input(0)?, cx.input(1)?, cx.input(2)?);
    let requested = |i: usize| cx.node.output.get(i).is_some_and(|o| !o.is_empty());
    if requested(1) || requested(2) {
        return Err("the mean and inverse standard deviation outputs are not supported".into());
    }
    let mut sum = bin(cx, Bin::Add, &x, &skip)?;
    if let Some(bias) = optional(cx, 3)? {
        sum = bin(cx, Bin::Add, &sum, &bias)?;
    }
    // onnxruntime's default epsilon here is 1e-12 (1e-5 for the unskipped one).
    let out = super::norms::rms_norm(cx, &sum, &gamma, 1e-12)?;
    // Outputs 1 and 2 are not requested (checked above); 3 is the sum.
    Ok(vec![out, sum.clone(), sum.clone(), sum])
}

/// QuickGelu: `x * sigmoid(alpha * x)`, alpha 1.702 by default (1: SiLU).
pub fn quick_gelu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let alpha = cx.attr_f("alpha", 1.702) as f64;
    let scaled = bin(cx, Bin::Mul, &x, &scalar(x.element, alpha))?;
    let gate = un(cx, Un::Sigmoid, &scaled)?;
    Ok(vec![bin(cx, Bin::Mul, &x, &gate)?])
}

/// Gelu of input 0 (+ input 1, a bias), exact or with the tanh approximation.
fn biased_gelu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, approximate: bool) -> Converted<'c, 'a> {
    let mut x = cx.input(0)?;
    if let Some(bias) = optional(cx, 1)? {
        x = bin(cx, Bin::Add, &x, &bias)?;
    }
    let value = cx.materialize(&x)?;
    let mut op = glow_graph::gelu(cx.context, value, cx.location);
    if approximate {
        op.set_approximate(Attribute::unit(cx.context));
    }
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, x.shape, x.element)])
}

pub fn bias_gelu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    biased_gelu(cx, false)
}

pub fn fast_gelu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    biased_gelu(cx, true)
}

pub fn gelu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    biased_gelu(cx, false)
}

pub fn embed_layer_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let ids = cx.input(0)?;
    let [batch, sequence] = ids.shape[..] else {
        return Err(format!(
            "input_ids of shape {:?}; it must be 2-D",
            ids.shape
        ));
    };
    let (word, position) = (cx.input(2)?, cx.input(3)?);
    let hidden = match (&word.shape[..], &position.shape[..]) {
        ([_, hidden], [_, position_hidden]) if hidden == position_hidden => *hidden,
        (word, position) => {
            return Err(format!(
                "word embeddings of shape {word:?} and position embeddings of shape \
                 {position:?}; both must be 2-D with the same hidden size"
            ))
        }
    };
    let mut sum = super::compose::gather(cx, &word, &ids, 0)?;
    let positions = match optional(cx, 8)? {
        Some(position_ids) => super::compose::gather(cx, &position, &position_ids, 0)?,
        None => {
            if position.shape[0] < sequence {
                return Err(format!(
                    "{sequence} tokens but {} position embeddings",
                    position.shape[0]
                ));
            }
            slice(cx, &position, &[0, 0], &[sequence, hidden])?
        }
    };
    sum = bin(cx, Bin::Add, &sum, &positions)?;
    if let (Some(segments), Some(table)) = (optional(cx, 1)?, optional(cx, 4)?) {
        let embedded = super::compose::gather(cx, &table, &segments, 0)?;
        sum = bin(cx, Bin::Add, &sum, &embedded)?;
    }
    let (gamma, beta) = (cx.input(5)?, optional(cx, 6)?);
    let out = layer_norm(cx, &sum, &gamma, beta.as_ref())?;
    // The number of attended tokens per batch (a 1-D mask index of end positions).
    let mask_index = match optional(cx, 7)? {
        Some(mask) => {
            // onnxruntime counts the entries equal to 1.
            let mask = convert(cx, &mask, Element::I32)?;
            let ones = bin(cx, Bin::Equal, &mask, &scalar(Element::I32, 1.0))?;
            let ones = convert(cx, &ones, Element::I32)?;
            reduce(cx, Reduction::Sum, &ones, &[1], false)?
        }
        None => Slot::constant(TensorData::from_i64s(
            Element::I32,
            vec![batch],
            &vec![0; batch as usize],
        )),
    };
    Ok(vec![out, mask_index, sum])
}

/// A constant `[rows, columns]` of `element` whose (i, j) entry is `f(i, j)`.
fn grid<'c, 'a>(
    element: Element,
    rows: i64,
    columns: i64,
    f: impl Fn(i64, i64) -> f64,
) -> Slot<'c, 'a> {
    let values: Vec<f64> = (0..rows)
        .flat_map(|i| (0..columns).map(move |j| (i, j)))
        .map(|(i, j)| f(i, j))
        .collect();
    Slot::constant(TensorData::from_f64s(element, vec![rows, columns], &values))
}

/// The additive mask of Attention's `mask_index` for scores of `[batch, heads, q, keys]`:
/// 0 where a key is attended, `filter` where it is masked, broadcastable to the scores.
fn additive_mask<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    mask: &Slot<'c, 'a>,
    batch: i64,
    queries: i64,
    keys: i64,
    filter: f64,
) -> Result<Slot<'c, 'a>, String> {
    let (zero, masked) = (scalar(Element::F32, 0.0), scalar(Element::F32, filter));
    let key_positions = grid(Element::I32, 1, keys, |_, j| j as f64);
    let mask = convert(cx, mask, Element::I32)?;
    let additive = match mask.shape.as_slice() {
        // End positions: keys at or after mask[b] are masked.
        [b] if *b == batch => {
            let ends = reshape(cx, &mask, &[batch, 1])?;
            let attended = bin(cx, Bin::Less, &key_positions, &ends)?;
            let additive = select(cx, &attended, &zero, &masked)?;
            reshape(cx, &additive, &[batch, 1, 1, keys])?
        }
        // End positions, then start positions.
        [b] if *b == 2 * batch => {
            let ends = slice(cx, &mask, &[0], &[batch])?;
            let ends = reshape(cx, &ends, &[batch, 1])?;
            let starts = slice(cx, &mask, &[batch], &[batch])?;
            let starts = reshape(cx, &starts, &[batch, 1])?;
            let attended = bin(cx, Bin::Less, &key_positions, &ends)?;
            let additive = select(cx, &attended, &zero, &masked)?;
            let before = bin(cx, Bin::Less, &key_positions, &starts)?;
            let additive = select(cx, &before, &masked, &additive)?;
            reshape(cx, &additive, &[batch, 1, 1, keys])?
        }
        // A raw mask per key, or per query and key: positive entries are attended.
        [b, k] if *b == batch && *k == keys => {
            let on = bin(cx, Bin::Less, &scalar(Element::I32, 0.0), &mask)?;
            let additive = select(cx, &on, &zero, &masked)?;
            reshape(cx, &additive, &[batch, 1, 1, keys])?
        }
        [b, q, k] if *b == batch && *q == queries && *k == keys => {
            let on = bin(cx, Bin::Less, &scalar(Element::I32, 0.0), &mask)?;
            let additive = select(cx, &on, &zero, &masked)?;
            reshape(cx, &additive, &[batch, 1, queries, keys])?
        }
        shape => {
            return Err(format!(
                "a mask_index of shape {shape:?} is not supported (batch {batch}, {keys} keys)"
            ))
        }
    };
    Ok(additive)
}

pub fn attention<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    for (index, what) in [
        (4, "past"),
        (5, "attention_bias"),
        (6, "past_sequence_length"),
    ] {
        if cx.has_input(index) {
            return Err(format!("the {what} input is not supported"));
        }
    }
    if cx.attr_i("do_rotary", 0) != 0 {
        return Err("do_rotary is not supported".into());
    }
    refuse_outputs(cx, 1, "present")?;
    let x = cx.input(0)?;
    if x.element != Element::F32 {
        return Err(format!(
            "input of type {:?}; float32 is supported",
            x.element
        ));
    }
    let [batch, sequence, input_hidden] = x.shape[..] else {
        return Err(format!("input of shape {:?}; it must be 3-D", x.shape));
    };
    // Q, K and V in one matmul; without weights (glow's rewrite of QAttention, which
    // computes the projection in integers) the input is that product.
    let rows = reshape(cx, &x, &[batch * sequence, input_hidden])?;
    let mut projected = match optional(cx, 1)? {
        Some(weights) if weights.shape.len() == 2 && weights.shape[0] == input_hidden => {
            matmul(cx, &rows, &weights)?
        }
        Some(weights) => {
            return Err(format!(
                "weights of shape {:?} for an input hidden size of {input_hidden}",
                weights.shape
            ))
        }
        None => rows,
    };
    let total = projected.shape[1];
    let sizes = match cx.attr_ints("qkv_hidden_sizes") {
        Some(sizes)
            if sizes.len() == 3
                && sizes.iter().all(|s| *s > 0)
                && sizes.iter().sum::<i64>() == total =>
        {
            sizes
        }
        Some(sizes) => return Err(format!("qkv_hidden_sizes {sizes:?} for {total} columns")),
        None if total % 3 == 0 => vec![total / 3; 3],
        None => {
            return Err(format!(
                "{total} weight columns do not split into Q, K and V"
            ))
        }
    };
    let heads = cx.attr_i("num_heads", 0);
    let (hq, hv) = (sizes[0], sizes[2]);
    if heads <= 0 || sizes[0] != sizes[1] || hq % heads != 0 || hv % heads != 0 {
        return Err(format!(
            "{heads} heads for Q, K and V hidden sizes {sizes:?}"
        ));
    }
    let (head, head_v) = (hq / heads, hv / heads);
    if let Some(bias) = optional(cx, 2)? {
        projected = bin(cx, Bin::Add, &projected, &bias)?;
    }
    let split = |cx: &mut NodeContext<'c, 'a, '_>, from: i64, width: i64, size: i64| {
        let part = slice(cx, &projected, &[0, from], &[batch * sequence, width])?;
        let part = reshape(cx, &part, &[batch, sequence, heads, size])?;
        transpose(cx, &part, &[0, 2, 1, 3])
    };
    let q = split(cx, 0, hq, head)?;
    let k = split(cx, hq, hq, head)?;
    let v = split(cx, 2 * hq, hv, head_v)?;
    let q = reshape(cx, &q, &[batch * heads, sequence, head])?;
    let k = transpose(cx, &k, &[0, 1, 3, 2])?;
    let k = reshape(cx, &k, &[batch * heads, head, sequence])?;
    let v = reshape(cx, &v, &[batch * heads, sequence, head_v])?;
    let scale = match cx.attr_f("scale", 0.0) {
        s if s != 0.0 => s as f64,
        _ => 1.0 / (head as f64).sqrt(),
    };
    let scores = matmul(cx, &q, &k)?;
    let scores = bin(cx, Bin::Mul, &scores, &scalar(Element::F32, scale))?;
    let mut scores = reshape(cx, &scores, &[batch, heads, sequence, sequence])?;
    let filter = cx.attr_f("mask_filter_value", -10000.0) as f64;
    if let Some(mask) = optional(cx, 3)? {
        let additive = additive_mask(cx, &mask, batch, sequence, sequence, filter)?;
        scores = bin(cx, Bin::Add, &scores, &additive)?;
    }
    if cx.attr_flag("unidirectional", false)? {
        // onnxruntime excludes later keys outright (the lowest float, not the filter
        // value): a query whose earlier keys are all masked still attends among them.
        let lowest = f32::MIN as f64;
        let causal = grid(Element::F32, sequence, sequence, |i, j| {
            if j > i {
                lowest
            } else {
                0.0
            }
        });
        scores = bin(cx, Bin::Add, &scores, &causal)?;
    }
    let scores = cx.materialize(&scores)?;
    let softmax = glow_graph::SoftMaxOperationBuilder::new(cx.context, cx.location)
        .input(scores)
        .axis(cx.i64_attr(3))
        .build();
    let probabilities = Slot::value(
        cx.emit(softmax.into()),
        vec![batch, heads, sequence, sequence],
        Element::F32,
    );
    let probabilities = reshape(cx, &probabilities, &[batch * heads, sequence, sequence])?;
    let context = matmul(cx, &probabilities, &v)?;
    let context = reshape(cx, &context, &[batch, heads, sequence, head_v])?;
    let context = transpose(cx, &context, &[0, 2, 1, 3])?;
    Ok(vec![reshape(cx, &context, &[batch, sequence, hv])?])
}
