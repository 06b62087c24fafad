//! HannWindow, HammingWindow, BlackmanWindow: constants computed at import time from
//! the (constant) window size, in the `output_datatype` asked for.

use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};
use std::f64::consts::PI;

/// Cosine-sum window `a0 - a1 cos(2 pi n / D) + a2 cos(4 pi n / D)`, `D` the size when
/// periodic, else the size - 1.
fn cosine_window<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, a: [f64; 3]) -> Converted<'c, 'a> {
    let size = cx.constant_input(0, "size")?.to_i64s();
    let [size] = size[..] else {
        return Err("size must hold one value".into());
    };
    if !(0..=1 << 24).contains(&size) {
        return Err(format!("size {size} is outside [0, 2^24]"));
    }
    let code = cx.attr_i("output_datatype", 1) as i32;
    let element = Element::from_onnx(code).ok_or_else(|| {
        format!(
            "output_datatype {} is not supported",
            Element::onnx_name(code)
        )
    })?;
    let periodic = cx.attr_flag("periodic", true)?;
    let denominator = if periodic { size } else { size - 1 } as f64;
    let values: Vec<f64> = (0..size)
        .map(|n| {
            let x = 2.0 * PI * n as f64 / denominator;
            a[0] - a[1] * x.cos() + a[2] * (2.0 * x).cos()
        })
        .collect();
    Ok(vec![Slot::constant(TensorData::from_f64s(
        element,
        vec![size],
        &values,
    ))])
}

pub fn hann_window<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    cosine_window(cx, [0.5, 0.5, 0.0])
}

pub fn hamming_window<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    cosine_window(cx, [25.0 / 46.0, 21.0 / 46.0, 0.0])
}

pub fn blackman_window<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    cosine_window(cx, [0.42, 0.5, 0.08])
}
