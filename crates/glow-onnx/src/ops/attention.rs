//! ONNX's Attention (opsets 23-25) as the ops of its function body: Q and K scaled by
//! sqrt(scale) each, one batch_matmul for Q K^T over batch x heads, softcap, an additive
//! bias (the attention mask, padded with "masked" to the key length; causal and
//! sliding-window masks aligned bottom-right after the past keys or per batch after
//! `nonpad_kv_seqlen`, and the padding of `nonpad_kv_seqlen`), softmax (in
//! `softmax_precision`), rows whose bias masks every key set to zero, and a
//! batch_matmul with V. 3-D inputs are split into heads (`q_num_heads`,
//! `kv_num_heads`); grouped-query attention repeats each key / value head; past keys
//! and values are concatenated in front (the `present_*` outputs); `qk_matmul_output`
//! follows `qk_matmul_output_mode` as ONNX's reference implementation does.

use super::{
    broadcast::broadcast_to,
    compose::{
        bin, concat, convert, matmul, reduce, reshape, scalar, select, transpose, un, Bin,
        Reduction, Un,
    },
};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;

/// Q, K or V as [batch, heads, sequence, head size].
fn heads<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    count: Option<i64>,
    what: &str,
) -> Result<Slot<'c, 'a>, String> {
    match x.shape.len() {
        4 => Ok(x.clone()),
        3 => {
            let count = count.ok_or(format!(
                "3-D {what} needs the q_num_heads and kv_num_heads attributes"
            ))?;
            let (b, s, hidden) = (x.shape[0], x.shape[1], x.shape[2]);
            if count <= 0 || hidden % count != 0 {
                return Err(format!(
                    "{what}'s hidden size {hidden} is not a multiple of {count} heads"
                ));
            }
            let split = reshape(cx, x, &[b, s, count, hidden / count])?;
            transpose(cx, &split, &[0, 2, 1, 3])
        }
        rank => Err(format!(
            "{what} has rank {rank}; Attention takes 3-D or 4-D inputs"
        )),
    }
}

/// A [q, kv] constant whose element (i, j) is `f(i, j)`.
fn positions<'c, 'a>(
    element: Element,
    q: i64,
    kv: i64,
    f: impl Fn(i64, i64) -> f64,
) -> Slot<'c, 'a> {
    let values: Vec<f64> = (0..q)
        .flat_map(|i| (0..kv).map(move |j| (i, j)))
        .map(|(i, j)| f(i, j))
        .collect();
    Slot::constant(TensorData::from_f64s(element, vec![q, kv], &values))
}

/// Where keys are allowed by the causal and sliding-window constraints and by
/// `nonpad_kv_seqlen`'s padding: [q, kv] for a frontier shared by the batch, [B, 1,
/// q, kv] for `nonpad_kv_seqlen`'s per-batch frontier. `None`: every key is allowed.
#[allow(clippy::too_many_arguments)]
fn allowed_keys<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    q: i64,
    kv: i64,
    past: Option<i64>,
    nonpad: Option<&Slot<'c, 'a>>,
    causal: bool,
    left: i64,
    right: i64,
) -> Result<Option<Slot<'c, 'a>>, String> {
    let window = left >= 0 || right >= 0;
    match (nonpad, past) {
        (Some(lengths), None) => {
            // Per batch: query i sits at nonpad[b] - q + i; key j is real if j < nonpad[b].
            let b = lengths.shape.first().copied().unwrap_or(1);
            let lengths = reshape(cx, lengths, &[b, 1, 1])?;
            let e = lengths.element;
            // padding: j < nonpad  <=>  not (nonpad <= j): (j < nonpad) directly.
            let columns = positions(e, q, kv, |_, j| j as f64);
            let mut allowed = bin(cx, Bin::Less, &columns, &lengths)?;
            if causal {
                // j <= i + nonpad - q  <=>  not (nonpad < j - i + q)
                let frontier = positions(e, q, kv, |i, j| (j - i + q) as f64);
                let beyond = bin(cx, Bin::Less, &lengths, &frontier)?;
                allowed = select(cx, &beyond, &scalar(Element::Bool, 0.0), &allowed)?;
            }
            if left >= 0 {
                // (i + nonpad - q) - j <= left  <=>  not (left + q - i + j < nonpad)
                let bound = positions(e, q, kv, |i, j| (left + q - i + j) as f64);
                let far = bin(cx, Bin::Less, &bound, &lengths)?;
                allowed = select(cx, &far, &scalar(Element::Bool, 0.0), &allowed)?;
            }
            if right >= 0 {
                // j - (i + nonpad - q) <= right  <=>  not (nonpad < j - i + q - right)
                let bound = positions(e, q, kv, |i, j| (j - i + q - right) as f64);
                let ahead = bin(cx, Bin::Less, &lengths, &bound)?;
                allowed = select(cx, &ahead, &scalar(Element::Bool, 0.0), &allowed)?;
            }
            Ok(Some(reshape(cx, &allowed, &[b, 1, q, kv])?))
        }
        _ => {
            if !causal && !window {
                return Ok(None);
            }
            let offset = past.unwrap_or(0);
            let mask = positions(Element::Bool, q, kv, |i, j| {
                let diff = i + offset - j;
                let ok = (!causal || diff >= 0)
                    && (left < 0 || diff <= left)
                    && (right < 0 || -diff <= right);
                f64::from(u8::from(ok))
            });
            Ok(Some(mask))
        }
    }
}

pub fn attention<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (q_in, k_in, v_in) = (cx.input(0)?, cx.input(1)?, cx.input(2)?);
    let e = q_in.element;
    if !e.is_float() {
        return Err(format!("{e:?} inputs are not supported (floats only)"));
    }
    if q_in.shape.len() != k_in.shape.len() || q_in.shape.len() != v_in.shape.len() {
        return Err("Q, K and V must have the same rank".into());
    }
    let three_d = q_in.shape.len() == 3;
    let q_heads_attr = cx
        .has_attr("q_num_heads")
        .then(|| cx.attr_i("q_num_heads", 0));
    let kv_heads_attr = cx
        .has_attr("kv_num_heads")
        .then(|| cx.attr_i("kv_num_heads", 0));
    let q = heads(cx, &q_in, q_heads_attr, "Q")?;
    let mut k = heads(cx, &k_in, kv_heads_attr, "K")?;
    let mut v = heads(cx, &v_in, kv_heads_attr, "V")?;
    let (batch, q_heads, q_len, head) = (q.shape[0], q.shape[1], q.shape[2], q.shape[3]);
    let optional =
        |cx: &NodeContext<'c, 'a, '_>, i: usize| -> Result<Option<Slot<'c, 'a>>, String> {
            if cx.has_input(i) {
                cx.input(i).map(Some)
            } else {
                Ok(None)
            }
        };
    let mask = optional(cx, 3)?;
    let (past_key, past_value) = (optional(cx, 4)?, optional(cx, 5)?);
    let nonpad = optional(cx, 6)?;
    if past_key.is_some() != past_value.is_some() {
        return Err("past_key and past_value must be given together".into());
    }
    if nonpad.is_some() && past_key.is_some() {
        return Err("nonpad_kv_seqlen cannot be combined with past_key / past_value".into());
    }
    let past = past_key
        .as_ref()
        .map(|p| p.shape.get(2).copied().unwrap_or(0));
    if let (Some(pk), Some(pv)) = (&past_key, &past_value) {
        k = concat(cx, &[pk.clone(), k], 2)?;
        v = concat(cx, &[pv.clone(), v], 2)?;
    }
    let (present_key, present_value) = (k.clone(), v.clone());
    let (kv_heads, kv_len, v_head) = (k.shape[1], k.shape[2], v.shape[3]);
    if k.shape[0] != batch || k.shape[3] != head || v.shape[..3] != k.shape[..3] {
        return Err(format!(
            "Q {:?}, K {:?} and V {:?} (as batch x heads x sequence x head size) do not fit",
            q.shape, k.shape, v.shape
        ));
    }
    // Grouped-query attention: each key / value head serves q_heads / kv_heads queries.
    if kv_heads != q_heads {
        if kv_heads == 0 || q_heads % kv_heads != 0 {
            return Err(format!(
                "{q_heads} query heads are not a multiple of {kv_heads} key / value heads"
            ));
        }
        let repeat = q_heads / kv_heads;
        let widen =
            |cx: &mut NodeContext<'c, 'a, '_>, x: &Slot<'c, 'a>| -> Result<Slot<'c, 'a>, String> {
                let (s, d) = (x.shape[2], x.shape[3]);
                let single = reshape(cx, x, &[batch, kv_heads, 1, s, d])?;
                let wide_shape = [batch, kv_heads, repeat, s, d];
                let wide = broadcast_to(cx, &single, &wide_shape)?;
                let wide = Slot::value(wide, wide_shape.to_vec(), x.element);
                reshape(cx, &wide, &[batch, q_heads, s, d])
            };
        k = widen(cx, &k)?;
        v = widen(cx, &v)?;
    }
    let scale = if cx.has_attr("scale") {
        f64::from(cx.attr_f("scale", 1.0))
    } else {
        1.0 / (head as f64).sqrt()
    };
    let root = scalar(e, scale.sqrt());
    let q_scaled = bin(cx, Bin::Mul, &q, &root)?;
    let k_scaled = bin(cx, Bin::Mul, &k, &root)?;
    let rows = batch * q_heads;
    let lhs = reshape(cx, &q_scaled, &[rows, q_len, head])?;
    let k_t = transpose(cx, &k_scaled, &[0, 1, 3, 2])?;
    let rhs = reshape(cx, &k_t, &[rows, head, kv_len])?;
    let scores = matmul(cx, &lhs, &rhs)?;
    let mut scores = reshape(cx, &scores, &[batch, q_heads, q_len, kv_len])?;
    let softcap = f64::from(cx.attr_f("softcap", 0.0));
    if softcap > 0.0 {
        let cap = scalar(e, softcap);
        let shrunk = bin(cx, Bin::Div, &scores, &cap)?;
        let bent = un(cx, Un::Tanh, &shrunk)?;
        scores = bin(cx, Bin::Mul, &bent, &cap)?;
    }
    // The additive bias: the mask (booleans as 0 / -inf) padded to kv_len, plus -inf
    // wherever the causal / window / padding constraints refuse a key.
    let blocked = scalar(e, f64::NEG_INFINITY);
    let zero = scalar(e, 0.0);
    let mask_bias = match mask {
        None => None,
        Some(m) => {
            let m = if m.element == Element::Bool {
                select(cx, &m, &zero, &blocked)?
            } else {
                convert(cx, &m, e)?
            };
            let last = m
                .shape
                .len()
                .checked_sub(1)
                .ok_or("attn_mask is a scalar")?;
            let width = m.shape[last];
            let m = if width < kv_len {
                let mut pad_shape = m.shape.clone();
                pad_shape[last] = kv_len - width;
                let count = pad_shape.iter().product::<i64>() as usize;
                let pad = Slot::constant(TensorData::from_f64s(
                    e,
                    pad_shape,
                    &vec![f64::NEG_INFINITY; count],
                ));
                concat(cx, &[m, pad], last)?
            } else if width > kv_len {
                return Err(format!(
                    "attn_mask's last dimension {width} exceeds the {kv_len} keys"
                ));
            } else {
                m
            };
            Some(m)
        }
    };
    let causal = cx.attr_flag("is_causal", false)?;
    let left = cx.attr_i("left_window_size", -1);
    let right = cx.attr_i("right_window_size", -1);
    let allowed = allowed_keys(
        cx,
        q_len,
        kv_len,
        past,
        nonpad.as_ref(),
        causal,
        left,
        right,
    )?;
    let bias = match (mask_bias, allowed) {
        (None, None) => None,
        (m, a) => {
            let base = m.unwrap_or_else(|| {
                Slot::constant(TensorData::from_f64s(
                    e,
                    vec![q_len, kv_len],
                    &vec![0.0; (q_len * kv_len) as usize],
                ))
            });
            Some(match a {
                Some(a) => {
                    let refused = select(cx, &a, &zero, &blocked)?;
                    bin(cx, Bin::Add, &base, &refused)?
                }
                None => base,
            })
        }
    };
    let with_bias = match &bias {
        Some(b) => bin(cx, Bin::Add, &scores, b)?,
        None => scores.clone(),
    };
    let mode = cx.attr_i("qk_matmul_output_mode", 0);
    let precision = cx.attr_i("softmax_precision", 0);
    let wide = match precision {
        0 => e,
        1 => Element::F32,
        10 => Element::F16,
        16 => Element::BF16,
        11 => Element::F64,
        other => return Err(format!("softmax_precision {other} is not a float type")),
    };
    let logits = convert(cx, &with_bias, wide)?;
    let value = cx.materialize(&logits)?;
    let axis = cx.i64_attr(3);
    let softmax = glow_graph::SoftMaxOperationBuilder::new(cx.context, cx.location)
        .input(value)
        .axis(axis)
        .build();
    let probabilities = Slot::value(cx.emit(softmax.into()), logits.shape.clone(), wide);
    // A row whose bias refuses every key has no attendable key: zeros (not NaN).
    let probabilities = match &bias {
        Some(b) => {
            let last = b.shape.len() - 1;
            let most = reduce(cx, Reduction::Max, b, &[last], true)?;
            let dead = bin(cx, Bin::Equal, &most, &blocked)?;
            select(cx, &dead, &scalar(wide, 0.0), &probabilities)?
        }
        None => probabilities,
    };
    let probabilities = convert(cx, &probabilities, e)?;
    let qk_output = match mode {
        0 | 1 => scores,
        2 => with_bias,
        3 => probabilities.clone(),
        other => return Err(format!("qk_matmul_output_mode {other} is not 0, 1, 2 or 3")),
    };
    let p = reshape(cx, &probabilities, &[rows, q_len, kv_len])?;
    let values = reshape(cx, &v, &[rows, kv_len, v_head])?;
    let y = matmul(cx, &p, &values)?;
    let y = reshape(cx, &y, &[batch, q_heads, q_len, v_head])?;
    let y = if three_d {
        let t = transpose(cx, &y, &[0, 2, 1, 3])?;
        reshape(cx, &t, &[batch, q_len, q_heads * v_head])?
    } else {
        y
    };
    Ok(vec![y, present_key, present_value, qk_output])
}
