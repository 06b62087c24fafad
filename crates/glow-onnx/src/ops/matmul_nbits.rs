//! onnxruntime's MatMulNBits (`com.microsoft`; what its `MatMulNBitsQuantizer` writes
//! for 4-bit weight-only LLMs): `Y = A x W (+ bias)` with W [K, N] stored column by
//! column in blocks of `block_size` rows, `bits` (2, 4 or 8) per element, the first
//! element of a byte in its low bits; `W[k, n] = (q - zero point) x scale` with one
//! scale and one zero point per column and block (zero points packed like the weights,
//! or floats; 2^(bits - 1) when absent), `g_idx` choosing each row's block when given.
//! glow dequantizes the constant weights at import time and runs a float matmul: the
//! model imports and computes onnxruntime's result, not faster than its float form.

use super::compose::{bin, Bin};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};

/// The dequantized `[K, N]` weights of a MatMulNBits node.
fn weights(cx: &NodeContext, k: usize, n: usize) -> Result<Vec<f64>, String> {
    let bits = cx.attr_i("bits", 4);
    if !matches!(bits, 2 | 4 | 8) {
        return Err(format!("bits = {bits}; 2, 4 and 8 are supported"));
    }
    let bits = bits as usize;
    let block = cx.attr_i("block_size", 0);
    if block < 1 || (block * bits as i64) % 8 != 0 {
        return Err(format!(
            "block_size = {block}; it must fill whole bytes at {bits} bits"
        ));
    }
    let block = block as usize;
    let blocks = k.div_ceil(block);
    let per_byte = 8 / bits;
    let blob = block * bits / 8;
    let packed = cx.constant_input(1, "the packed weights")?.to_i64s();
    let expected = n.checked_mul(blocks).and_then(|b| b.checked_mul(blob));
    if blob == 0 || expected != Some(packed.len()) {
        return Err(format!(
            "{} weight bytes for N = {n}, K = {k} in blocks of {block} at {bits} bits",
            packed.len()
        ));
    }
    let scales = cx.constant_input(2, "the scales")?.to_f64s();
    if scales.len() != n * blocks {
        return Err(format!("{} scales for {n} x {blocks} blocks", scales.len()));
    }
    let mask = (1i64 << bits) - 1;
    let zero_points: Vec<f64> = if cx.has_input(3) {
        let zp = cx.constant_input(3, "the zero points")?;
        if zp.element.is_float() {
            zp.to_f64s()
        } else {
            // Packed like the weights, each column's blocks padded to whole bytes.
            let bytes = zp.to_i64s();
            let row = (blocks * bits).div_ceil(8);
            if bytes.len() != n * row {
                return Err(format!(
                    "{} zero-point bytes for {n} x {blocks} blocks",
                    bytes.len()
                ));
            }
            (0..n * blocks)
                .map(|i| {
                    let (column, b) = (i / blocks, i % blocks);
                    let byte = bytes[column * row + b / per_byte];
                    ((byte >> ((b % per_byte) * bits)) & mask) as f64
                })
                .collect()
        }
    } else {
        vec![(1u64 << (bits - 1)) as f64; n * blocks]
    };
    if zero_points.len() != n * blocks {
        return Err(format!(
            "{} zero points for {n} x {blocks} blocks",
            zero_points.len()
        ));
    }
    let block_of: Vec<usize> = if cx.has_input(4) {
        let g_idx = cx.constant_input(4, "g_idx")?.to_i64s();
        if g_idx.len() != k || g_idx.iter().any(|b| *b < 0 || *b as usize >= blocks) {
            return Err(format!(
                "g_idx of {} entries for K = {k} in {blocks} blocks",
                g_idx.len()
            ));
        }
        g_idx.iter().map(|b| *b as usize).collect()
    } else {
        (0..k).map(|row| row / block).collect()
    };
    let mut w = vec![0.0; k * n];
    for column in 0..n {
        for (row, &b) in block_of.iter().enumerate() {
            let index = row % block;
            let byte = packed[(column * blocks + row / block) * blob + index / per_byte];
            let q = ((byte >> ((index % per_byte) * bits)) & mask) as f64;
            let at = column * blocks + b;
            w[row * n + column] = (q - zero_points[at]) * scales[at];
        }
    }
    Ok(w)
}

pub fn matmul_nbits<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let a = cx.input(0)?;
    if a.element != Element::F32 {
        return Err(format!(
            "input A of type {:?}; float32 is supported",
            a.element
        ));
    }
    let (k, n) = (cx.attr_i("K", 0), cx.attr_i("N", 0));
    if k < 1 || n < 1 || a.shape.last() != Some(&k) {
        return Err(format!(
            "K = {k}, N = {n} for an input of shape {:?}",
            a.shape
        ));
    }
    let w = weights(cx, k as usize, n as usize)?;
    let w = Slot::constant(TensorData::from_f64s(Element::F32, vec![k, n], &w));
    let mut y = super::nn::numpy_matmul(cx, a, w)?;
    if cx.has_input(5) {
        let bias = cx.input(5)?;
        y = bin(cx, Bin::Add, &y, &bias)?;
    }
    Ok(vec![y])
}
