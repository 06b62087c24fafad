//! DFT (opsets 17 and 20) and STFT (opset 17) as one matrix product with a constant matrix: the input,
//! its transform axis moved next to the real / imaginary dimension and the other
//! dimensions flattened, is [M, K x c] (c = 1 real or 2 complex parts, interleaved);
//! the matrix [K x c, J x c'] holds, for each input bin k and part and each output
//! bin j and part, the cosine or sine of 2 pi j k / L with its sign and scale, so the
//! product is already the interleaved [M, J x c'] result. Forward, inverse (1 / L),
//! one-sided forward (RFFT: J = L / 2 + 1) and one-sided inverse (IRFFT: the missing
//! half mirrored as conjugates, a real result) all take this form; `dft_length` zero-pads
//! or truncates the signal. This is O(L^2) work per signal, not an FFT: matrices above
//! [`MATRIX_BYTES`] are refused.

use super::compose::{bin, convert, gather, matmul, reshape, slice, transpose, Bin};
use crate::{
    builder::{normalize_axis, Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};
use std::f64::consts::PI;

/// The largest DFT matrix built (bytes of f64).
const MATRIX_BYTES: i64 = 128 << 20;

/// The most frame positions an STFT gathers (a constant of that many i64).
const MAX_POSITIONS: i64 = 1 << 24;

/// A scalar integer input, or `default` when the input is absent.
fn scalar_input(cx: &NodeContext, i: usize, what: &str, default: i64) -> Result<i64, String> {
    if !cx.has_input(i) {
        return Ok(default);
    }
    match cx.constant_input(i, what)?.to_i64s()[..] {
        [value] => Ok(value),
        _ => Err(format!("{what} must hold one value")),
    }
}

/// The transform's matrix, rows (k, input part), columns (j, output part).
fn dft_matrix(
    length: i64,
    bins_in: i64,
    parts_in: i64,
    bins_out: i64,
    inverse: bool,
    real_output: bool,
) -> Vec<f64> {
    let parts_out = if real_output { 1 } else { 2 };
    let scale = if inverse { 1.0 / length as f64 } else { 1.0 };
    // e^{-i theta} forward, e^{+i theta} inverse.
    let sign = if inverse { 1.0 } else { -1.0 };
    let mut matrix = Vec::with_capacity((bins_in * parts_in * bins_out * parts_out) as usize);
    for k in 0..bins_in {
        // IRFFT: each bin but DC and Nyquist stands for its mirrored conjugate too.
        let weight = if real_output && k != 0 && 2 * k != length {
            2.0
        } else {
            1.0
        };
        for part in 0..parts_in {
            for j in 0..bins_out {
                let theta = 2.0 * PI * ((j * k) % length) as f64 / length as f64;
                let (cos, sin) = (theta.cos(), sign * theta.sin());
                // (re + i im)(cos + i sin) = re cos - im sin + i (re sin + im cos)
                let [to_re, to_im] = if part == 0 { [cos, sin] } else { [-sin, cos] };
                matrix.push(weight * scale * to_re);
                if !real_output {
                    matrix.push(weight * scale * to_im);
                }
            }
        }
    }
    matrix
}

/// DFT: see the module comment.
pub fn dft<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    if rank < 2 {
        return Err("the input needs a signal dimension and a last dimension of 1 or 2".into());
    }
    let inverse = cx.attr_flag("inverse", false)?;
    let onesided = cx.attr_flag("onesided", false)?;
    let axis = if cx.opset() >= 20 {
        scalar_input(cx, 2, "axis", -2)?
    } else {
        cx.attr_i("axis", 1)
    };
    let axis = normalize_axis(axis, rank)?;
    if axis == rank - 1 {
        return Err("the last dimension holds the real and imaginary parts, not a signal".into());
    }
    let bins = x.shape[axis];
    let default_length = if inverse && onesided {
        2 * (bins - 1)
    } else {
        bins
    };
    let length = scalar_input(cx, 1, "dft_length", default_length)?;
    Ok(vec![transform(cx, &x, axis, length, inverse, onesided)?])
}

/// STFT (opset 17): the frames `t * frame_step + [0, frame_length)` of the signal
/// gathered along its length ([batch, frames, frame_length, c]), times the window,
/// then the DFT of each frame ([`transform`], one-sided by default).
pub fn stft<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let signal = cx.input(0)?;
    let [batch, samples, parts] = signal.shape[..] else {
        return Err("the signal is [batch, length, 1 or 2]".into());
    };
    let step = scalar_input(cx, 1, "frame_step", 0)?;
    if step < 1 {
        return Err(format!("frame_step {step} is not positive"));
    }
    let window = if cx.has_input(2) {
        let window = cx.input(2)?;
        if window.shape.len() != 1 {
            return Err("the window is one-dimensional".into());
        }
        Some(window)
    } else {
        None
    };
    let default_length = window.as_ref().map_or(samples, |w| w.shape[0]);
    let frame = scalar_input(cx, 3, "frame_length", default_length)?;
    if window.as_ref().is_some_and(|w| w.shape[0] != frame) {
        return Err(format!(
            "the window's length differs from frame_length {frame}"
        ));
    }
    if !(1..=samples).contains(&frame) {
        return Err(format!(
            "frame_length {frame} does not fit a signal of {samples} samples"
        ));
    }
    let onesided = cx.attr_flag("onesided", true)?;
    if onesided && parts != 1 {
        return Err("a one-sided STFT takes a real signal (last dimension 1)".into());
    }
    let frames = (samples - frame) / step + 1;
    if frames.saturating_mul(frame) > MAX_POSITIONS {
        return Err(format!(
            "{frames} frames of {frame} samples: at most {MAX_POSITIONS} positions are gathered"
        ));
    }
    let positions: Vec<i64> = (0..frames)
        .flat_map(|t| (0..frame).map(move |f| t * step + f))
        .collect();
    let positions = Slot::constant(TensorData::from_i64s(
        Element::I64,
        vec![frames, frame],
        &positions,
    ));
    let mut framed = gather(cx, &signal, &positions, 1)?;
    if let Some(window) = window {
        let window = convert(cx, &window, signal.element)?;
        let window = reshape(cx, &window, &[1, 1, frame, 1])?;
        framed = bin(cx, Bin::Mul, &framed, &window)?;
    }
    debug_assert_eq!(framed.shape, vec![batch, frames, frame, parts]);
    Ok(vec![transform(cx, &framed, 2, frame, false, onesided)?])
}

/// The DFT of `x` (float, last dimension 1 real or 2 complex) along `axis`, of
/// `length` points: see the module comment.
fn transform<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    axis: usize,
    length: i64,
    inverse: bool,
    onesided: bool,
) -> Result<Slot<'c, 'a>, String> {
    let rank = x.shape.len();
    let parts = x.shape[rank - 1];
    if parts != 1 && parts != 2 {
        return Err(format!(
            "the last dimension holds {parts} values: 1 (real) or 2 (complex) are possible"
        ));
    }
    if !x.element.is_float() {
        return Err(format!("a DFT of {:?} elements", x.element));
    }
    let bins = x.shape[axis];
    if length < 1 {
        return Err(format!(
            "a DFT of {length} points (dft_length, or its default: the axis's {bins} bins, 2 x ({bins} - 1) for a one-sided inverse)"
        ));
    }
    let irfft = inverse && onesided;
    if onesided && !inverse && parts != 1 {
        return Err("a one-sided forward DFT takes a real input (last dimension 1)".into());
    }
    if irfft && parts != 2 {
        return Err("a one-sided inverse DFT takes a complex input (last dimension 2)".into());
    }
    // Input bins the transform reads (the rest are the zero padding or cut off).
    let bins_in = bins.min(if irfft { length / 2 + 1 } else { length });
    let bins_out = if onesided && !inverse {
        length / 2 + 1
    } else {
        length
    };
    let parts_out = if irfft { 1 } else { 2 };
    let fits = [bins_in, parts, bins_out, parts_out, 8]
        .iter()
        .try_fold(1i64, |total, n| total.checked_mul(*n))
        .is_some_and(|bytes| bytes <= MATRIX_BYTES);
    if !fits {
        return Err(format!(
            "a DFT of length {length} over {bins_in} input bins is a matrix product here (no FFT), whose matrix would exceed {MATRIX_BYTES} bytes"
        ));
    }
    // In f64, as the reference does: the cosines and sines of many bins cancel, and in
    // f32 an inverse transform's near-zero parts came out 4e-6 off.
    let compute = Element::F64;
    let wide = convert(cx, x, compute)?;
    // [others..., bins, parts], the bins cut to those read, flattened to [M, K x c].
    let mut order: Vec<usize> = (0..rank - 1).filter(|d| *d != axis).collect();
    order.extend([axis, rank - 1]);
    let moved = transpose(cx, &wide, &order)?;
    let mut sizes = moved.shape.clone();
    sizes[rank - 2] = bins_in;
    let moved = slice(cx, &moved, &vec![0; rank], &sizes)?;
    let others: Vec<i64> = moved.shape[..rank - 2].to_vec();
    let rows: i64 = others.iter().product();
    let flat = reshape(cx, &moved, &[rows, bins_in * parts])?;
    let matrix = Slot::constant(TensorData::from_f64s(
        compute,
        vec![bins_in * parts, bins_out * parts_out],
        &dft_matrix(length, bins_in, parts, bins_out, inverse, irfft),
    ));
    let product = matmul(cx, &flat, &matrix)?;
    // [others..., J, parts'], then the bins back at `axis`.
    let mut unflat = others;
    unflat.extend([bins_out, parts_out]);
    let result = reshape(cx, &product, &unflat)?;
    let mut back = vec![0; rank];
    for (position, source) in order.iter().enumerate() {
        back[*source] = position;
    }
    let result = transpose(cx, &result, &back)?;
    convert(cx, &result, x.element)
}
