//! RotaryEmbedding (opset 23) as ONNX's reference computes it: the first
//! `rotary_embedding_dim` features of each head split into pairs (the two halves, or
//! even / odd features when `interleaved`), each pair rotated by the cached cos / sin
//! of its position (`cos_cache[position_ids]`, a gather, or caches given per batch and
//! position), the other features passed through. 4-D inputs are [batch, heads,
//! sequence, head size]; 3-D ones [batch, sequence, hidden] with `num_heads`.

use super::compose::{bin, concat, gather, reshape, slice, transpose, Bin};
use crate::builder::{Converted, NodeContext, Slot};

pub fn rotary_embedding<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (input, cos, sin) = (cx.input(0)?, cx.input(1)?, cx.input(2)?);
    if !input.element.is_float() {
        return Err(format!(
            "{:?} inputs are not supported (floats only)",
            input.element
        ));
    }
    // As [batch, sequence, heads, head size].
    let x = match input.shape.len() {
        4 => transpose(cx, &input, &[0, 2, 1, 3])?,
        3 => {
            let heads = cx.attr_i("num_heads", 0);
            let hidden = input.shape[2];
            if heads <= 0 || hidden % heads != 0 {
                return Err(format!(
                    "3-D input of hidden size {hidden} needs num_heads dividing it (num_heads {heads})"
                ));
            }
            reshape(
                cx,
                &input,
                &[input.shape[0], input.shape[1], heads, hidden / heads],
            )?
        }
        rank => {
            return Err(format!(
                "input has rank {rank}; RotaryEmbedding takes 3-D or 4-D"
            ))
        }
    };
    let (b, s, h, d) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3]);
    let rotated = match cx.attr_i("rotary_embedding_dim", 0) {
        0 => d,
        r if r > 0 && r <= d && r % 2 == 0 => r,
        r => {
            return Err(format!(
                "rotary_embedding_dim {r} is not an even size up to the head size {d}"
            ))
        }
    };
    let half = rotated / 2;
    // The caches per (batch, position): gathered at position_ids, or given so.
    let (cos, sin) = if cx.has_input(3) {
        let positions = cx.input(3)?;
        if positions.shape != [b, s] {
            return Err(format!(
                "position_ids has shape {:?}, expected [{b}, {s}]",
                positions.shape
            ));
        }
        (
            gather(cx, &cos, &positions, 0)?,
            gather(cx, &sin, &positions, 0)?,
        )
    } else {
        (cos, sin)
    };
    for (name, cache) in [("cos_cache", &cos), ("sin_cache", &sin)] {
        if cache.shape != [b, s, half] {
            return Err(format!(
                "{name} gives shape {:?} per position, expected [{b}, {s}, {half}]",
                cache.shape
            ));
        }
    }
    let cos = reshape(cx, &cos, &[b, s, 1, half])?;
    let sin = reshape(cx, &sin, &[b, s, 1, half])?;
    let x_rotate = slice(cx, &x, &[0, 0, 0, 0], &[b, s, h, rotated])?;
    let interleaved = cx.attr_flag("interleaved", false)?;
    let (x1, x2) = if interleaved {
        let pairs = reshape(cx, &x_rotate, &[b, s, h, half, 2])?;
        let even = slice(cx, &pairs, &[0, 0, 0, 0, 0], &[b, s, h, half, 1])?;
        let odd = slice(cx, &pairs, &[0, 0, 0, 0, 1], &[b, s, h, half, 1])?;
        (
            reshape(cx, &even, &[b, s, h, half])?,
            reshape(cx, &odd, &[b, s, h, half])?,
        )
    } else {
        (
            slice(cx, &x_rotate, &[0, 0, 0, 0], &[b, s, h, half])?,
            slice(cx, &x_rotate, &[0, 0, 0, half], &[b, s, h, half])?,
        )
    };
    let cos_x1 = bin(cx, Bin::Mul, &cos, &x1)?;
    let sin_x2 = bin(cx, Bin::Mul, &sin, &x2)?;
    let real = bin(cx, Bin::Sub, &cos_x1, &sin_x2)?;
    let sin_x1 = bin(cx, Bin::Mul, &sin, &x1)?;
    let cos_x2 = bin(cx, Bin::Mul, &cos, &x2)?;
    let imaginary = bin(cx, Bin::Add, &sin_x1, &cos_x2)?;
    let turned = if interleaved {
        let real = reshape(cx, &real, &[b, s, h, half, 1])?;
        let imaginary = reshape(cx, &imaginary, &[b, s, h, half, 1])?;
        let pairs = concat(cx, &[real, imaginary], 4)?;
        reshape(cx, &pairs, &[b, s, h, rotated])?
    } else {
        concat(cx, &[real, imaginary], 3)?
    };
    let out = if rotated < d {
        let rest = slice(cx, &x, &[0, 0, 0, rotated], &[b, s, h, d - rotated])?;
        concat(cx, &[turned, rest], 3)?
    } else {
        turned
    };
    let out: Slot = if input.shape.len() == 3 {
        reshape(cx, &out, &input.shape)?
    } else {
        transpose(cx, &out, &[0, 2, 1, 3])?
    };
    Ok(vec![out])
}
