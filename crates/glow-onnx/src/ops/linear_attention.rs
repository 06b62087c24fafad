//! LinearAttention (opset 27; linear attention, GLA / RetNet gating, DeltaNet and Gated
//! DeltaNet's delta rule) unrolled over the static sequence, in f32 as the reference
//! computes it. Per token t, with the state S [B, H_kv, d_k, d_v] (past_state, else
//! zeros): gated rules scale S by exp(decay_t); delta rules replace v_t by
//! beta_t (v_t - S^T k_t) (a batch_matmul of k_t with S); then S += k_t (x) v_t (a
//! broadcast product), and o_t = scale q_t^T S (a batch_matmul, each key / value head
//! repeated for its q_num_heads / kv_num_heads query heads). Outputs are concatenated
//! over t; present_state is the last S.

use super::compose::{bin, concat, convert, matmul, reshape, slice, transpose, un, Bin, Un};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};

/// The longest sequence unrolled (as the recurrent layers).
const MAX_STEPS: i64 = 4096;

/// `x` [B, T, H x D] as [B, H, T, D], in f32.
fn heads<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    count: i64,
    what: &str,
) -> Result<Slot<'c, 'a>, String> {
    let [b, t, packed] = x.shape[..] else {
        return Err(format!("{what} is [batch, sequence, heads x size]"));
    };
    if count <= 0 || packed % count != 0 {
        return Err(format!(
            "{what}'s last dimension {packed} does not split into {count} heads"
        ));
    }
    let x = convert(cx, x, Element::F32)?;
    let x = reshape(cx, &x, &[b, t, count, packed / count])?;
    transpose(cx, &x, &[0, 2, 1, 3])
}

/// Token `t` of `x` [B, H, T, D] as [B, H, D].
fn token<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    t: i64,
) -> Result<Slot<'c, 'a>, String> {
    let [b, h, _, d] = x.shape[..] else {
        unreachable!("heads() makes rank-4 tensors")
    };
    let one = slice(cx, x, &[0, 0, t, 0], &[b, h, 1, d])?;
    reshape(cx, &one, &[b, h, d])
}

/// LinearAttention: see the module comment.
pub fn linear_attention<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let rule = cx.attr_s("update_rule", "gated_delta");
    let (gating, delta) = match rule.as_str() {
        "linear" => (false, false),
        "gated" => (true, false),
        "delta" => (false, true),
        "gated_delta" => (true, true),
        other => {
            return Err(format!(
                "update_rule '{other}' is not one of linear, gated, delta, gated_delta"
            ))
        }
    };
    let (q_heads, kv_heads) = (cx.attr_i("q_num_heads", 0), cx.attr_i("kv_num_heads", 0));
    if q_heads <= 0 || kv_heads <= 0 || q_heads % kv_heads != 0 {
        return Err(format!(
            "q_num_heads ({q_heads}) must be a positive multiple of kv_num_heads ({kv_heads})"
        ));
    }
    if gating != cx.has_input(4) || delta != cx.has_input(5) {
        return Err(format!(
            "update_rule '{rule}' takes {} decay and {} beta",
            if gating { "a" } else { "no" },
            if delta { "a" } else { "no" }
        ));
    }
    let query = cx.input(0)?;
    let out_element = query.element;
    let q = heads(cx, &query, q_heads, "query")?;
    let k = heads(cx, &cx.input(1)?, kv_heads, "key")?;
    let v = heads(cx, &cx.input(2)?, kv_heads, "value")?;
    let (b, steps, d_k, d_v) = (q.shape[0], q.shape[2], q.shape[3], v.shape[3]);
    if k.shape != [b, kv_heads, steps, d_k] || v.shape[..3] != [b, kv_heads, steps] {
        return Err("query, key and value differ in batch, sequence or key size".into());
    }
    if steps > MAX_STEPS {
        return Err(format!(
            "a sequence of {steps} tokens: at most {MAX_STEPS} are unrolled"
        ));
    }
    let state_shape = vec![b, kv_heads, d_k, d_v];
    let (mut state, state_element) = if cx.has_input(3) {
        let past = cx.input(3)?;
        if past.shape != state_shape {
            return Err(format!(
                "past_state is {:?}, not {state_shape:?}",
                past.shape
            ));
        }
        (convert(cx, &past, Element::F32)?, past.element)
    } else {
        let zeros = vec![0.0; state_shape.iter().product::<i64>() as usize];
        let zeros = TensorData::from_f64s(Element::F32, state_shape.clone(), &zeros);
        (Slot::constant(zeros), out_element)
    };
    // decay [B, H_kv, T, 1 or d_k], beta [B, H_kv or 1, T, 1].
    let leading = |x: &Slot, what: &str| -> Result<(), String> {
        if x.shape.len() == 3 && x.shape[..2] == [b, steps] {
            Ok(())
        } else {
            Err(format!("{what} is {:?}, not [{b}, {steps}, ...]", x.shape))
        }
    };
    let decay = if gating {
        let decay = cx.input(4)?;
        leading(&decay, "decay")?;
        let per_head = decay.shape.last() == Some(&kv_heads);
        let split = heads(cx, &decay, kv_heads, "decay")?;
        if !per_head && split.shape[3] != d_k {
            return Err(format!(
                "decay's last dimension must be kv_num_heads ({kv_heads}) or kv_num_heads x d_k ({})",
                kv_heads * d_k
            ));
        }
        Some(split)
    } else {
        None
    };
    let beta = if delta {
        let beta = cx.input(5)?;
        leading(&beta, "beta")?;
        let count = *beta.shape.last().unwrap_or(&0);
        if count != kv_heads && count != 1 {
            return Err(format!(
                "beta's last dimension must be kv_num_heads ({kv_heads}) or 1"
            ));
        }
        Some(heads(cx, &beta, count, "beta")?)
    } else {
        None
    };
    // 0 (the default) means 1 / sqrt(d_k).
    let scale = match f64::from(cx.attr_f("scale", 0.0)) {
        0.0 => 1.0 / (d_k as f64).sqrt(),
        s => s,
    };
    let scale = Slot::constant(TensorData::from_f64s(Element::F32, vec![], &[scale]));
    let group = q_heads / kv_heads;
    let rows = b * kv_heads;
    let mut outputs = Vec::new();
    for t in 0..steps {
        if let Some(decay) = &decay {
            let g = token(cx, decay, t)?;
            let g = un(cx, Un::Exp, &g)?;
            let g = reshape(cx, &g, &[b, kv_heads, g.shape[2], 1])?;
            state = bin(cx, Bin::Mul, &state, &g)?;
        }
        let k_t = token(cx, &k, t)?;
        let mut v_t = token(cx, &v, t)?;
        if let Some(beta) = &beta {
            // S^T k_t: [B H_kv, 1, d_k] x [B H_kv, d_k, d_v].
            let key_row = reshape(cx, &k_t, &[rows, 1, d_k])?;
            let flat_state = reshape(cx, &state, &[rows, d_k, d_v])?;
            let retrieved = matmul(cx, &key_row, &flat_state)?;
            let retrieved = reshape(cx, &retrieved, &[b, kv_heads, d_v])?;
            let error = bin(cx, Bin::Sub, &v_t, &retrieved)?;
            let rate = token(cx, beta, t)?;
            v_t = bin(cx, Bin::Mul, &rate, &error)?;
        }
        let k_column = reshape(cx, &k_t, &[b, kv_heads, d_k, 1])?;
        let v_row = reshape(cx, &v_t, &[b, kv_heads, 1, d_v])?;
        let update = bin(cx, Bin::Mul, &k_column, &v_row)?;
        state = bin(cx, Bin::Add, &state, &update)?;
        // Each key / value head serves `group` query heads (h_q = h_kv group + g).
        let read = if group == 1 {
            state.clone()
        } else {
            let spread = reshape(cx, &state, &[b, kv_heads, 1, d_k, d_v])?;
            let wide = [b, kv_heads, group, d_k, d_v];
            let spread = super::broadcast::broadcast_to(cx, &spread, &wide)?;
            let spread = Slot::value(spread, wide.to_vec(), Element::F32);
            reshape(cx, &spread, &[b, q_heads, d_k, d_v])?
        };
        let q_t = token(cx, &q, t)?;
        let query_row = reshape(cx, &q_t, &[b * q_heads, 1, d_k])?;
        let read = reshape(cx, &read, &[b * q_heads, d_k, d_v])?;
        let o_t = matmul(cx, &query_row, &read)?;
        let o_t = bin(cx, Bin::Mul, &o_t, &scale)?;
        outputs.push(reshape(cx, &o_t, &[b, q_heads, 1, d_v])?);
    }
    let output = concat(cx, &outputs, 2)?;
    let output = transpose(cx, &output, &[0, 2, 1, 3])?;
    let output = reshape(cx, &output, &[b, steps, q_heads * d_v])?;
    Ok(vec![
        convert(cx, &output, out_element)?,
        convert(cx, &state, state_element)?,
    ])
}
