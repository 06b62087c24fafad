//! 3-D convolutions (video and volumetric models: torchvision's R3D, R(2+1)D and S3D,
//! 3-D U-Nets) as sums over the kernel's depth taps of 2-D ones. Depth moves next to
//! the batch ([N, C, D, H, W] -> [N, D, C, H, W]), so each depth tap is one 2-D
//! convolution over (batch x depth) planes and runs on the 2-D kernels (tiles,
//! packed filters, Winograd). A convolution's tap reads the planes at depths
//! `tap * dilation + k * stride`; a transposed convolution's tap writes its planes to
//! those output depths (zeros between them), and the taps' outputs are summed.

use super::{
    broadcast::reshape_to,
    compose::{self, Bin},
    convolution::{conv_2d, conv_transpose_2d},
    window::Window,
};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;
use melior::ir::Value;

/// The most depth taps a 3-D filter may have outside the temporal form: each tap is
/// one 2-D convolution in the graph (video networks use 1 to 7).
const MAX_DEPTH_TAPS: i64 = 256;

/// A filter with more depth taps than [`MAX_DEPTH_TAPS`] is refused (a hostile depth
/// would otherwise build one 2-D convolution per tap).
fn check_taps(taps: i64) -> Result<(), String> {
    if taps <= MAX_DEPTH_TAPS {
        return Ok(());
    }
    Err(format!(
        "a filter depth of {taps} is not supported (at most {MAX_DEPTH_TAPS} unless height and width are 1)"
    ))
}

/// [N, C, D, H, W] <-> [N, D, C, H, W].
const DEPTH_NEXT_TO_BATCH: [usize; 5] = [0, 2, 1, 3, 4];
/// [N, C, D, H, W] -> [N, D, H, W, C].
const CHANNELS_LAST_3D: [usize; 5] = [0, 2, 3, 4, 1];
/// [N, D, H, W, C] -> [N, C, D, H, W].
const CHANNELS_FIRST_3D: [usize; 5] = [0, 4, 1, 2, 3];
const NHWC_TO_NCHW: [usize; 4] = [0, 3, 1, 2];
const NCHW_TO_NHWC: [usize; 4] = [0, 2, 3, 1];

/// Strides, pads ([begins..., ends...]) and dilations of a 3-D window.
pub(super) struct Window3d<'g> {
    pub(super) strides: &'g [i64],
    pub(super) pads: &'g [i64],
    pub(super) dilations: &'g [i64],
}

impl Window3d<'_> {
    /// The (H, W) part of the window for a 2-D op over planes of `kernel` (KH, KW).
    fn planes(&self, kernel: [i64; 2]) -> Window {
        Window {
            kernel,
            strides: [self.strides[1], self.strides[2]],
            pads: [self.pads[1], self.pads[2], self.pads[4], self.pads[5]],
            dilations: [self.dilations[1], self.dilations[2]],
        }
    }
}

/// `slot` padded along `axis` with `before` / `after` zeros.
fn pad_axis<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: &Slot<'c, 'a>,
    axis: usize,
    before: i64,
    after: i64,
) -> Result<Slot<'c, 'a>, String> {
    if before == 0 && after == 0 {
        return Ok(slot.clone());
    }
    let rank = slot.shape.len();
    let mut pads = vec![0i64; 2 * rank];
    pads[axis] = before;
    pads[rank + axis] = after;
    let value = cx.materialize(slot)?;
    let fill = cx.scalar_attr(slot.element, 0.0);
    let out =
        cx.emit(glow_graph::pad(cx.context, value, cx.array_attr(&pads), fill, cx.location).into());
    let mut shape = slot.shape.clone();
    shape[axis] += before + after;
    Ok(Slot::value(out, shape, slot.element))
}

/// The filter's depth tap `tap` as a 2-D filter: [A, B, KD, KH, KW] -> [A, B, KH, KW].
fn filter_tap<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    w: &Slot<'c, 'a>,
    tap: i64,
) -> Result<Value<'c, 'a>, String> {
    let s = &w.shape;
    let one = compose::slice(cx, w, &[0, 0, tap, 0, 0], &[s[0], s[1], 1, s[3], s[4]])?;
    let plane = compose::reshape(cx, &one, &[s[0], s[1], s[3], s[4]])?;
    cx.materialize(&plane)
}

/// `count` depths (axis 1) of `planes` from `first`, `stride` apart.
fn depths<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    planes: &Slot<'c, 'a>,
    first: i64,
    stride: i64,
    count: i64,
) -> Result<Slot<'c, 'a>, String> {
    if stride == 1 {
        let mut sizes = planes.shape.clone();
        sizes[1] = count;
        return compose::slice(cx, planes, &[0, first, 0, 0, 0], &sizes);
    }
    let positions: Vec<i64> = (0..count).map(|k| first + k * stride).collect();
    let indices = Slot::constant(TensorData::from_i64s(Element::I64, vec![count], &positions));
    compose::gather(cx, planes, &indices, 1)
}

/// A sum of slots of one shape, in order.
fn sum<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    terms: Vec<Slot<'c, 'a>>,
) -> Result<Slot<'c, 'a>, String> {
    let mut terms = terms.into_iter();
    let mut total = terms.next().ok_or("a sum of nothing")?;
    for term in terms {
        total = compose::bin(cx, Bin::Add, &total, &term)?;
    }
    Ok(total)
}

/// [N, D', F, H', W'] planes back to an [N, F, D', H', W'] result.
fn volume<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    planes: &Slot<'c, 'a>,
    shape: [i64; 5],
) -> Result<Slot<'c, 'a>, String> {
    let [n, depth, f, h, w] = shape;
    let planes = compose::reshape(cx, planes, &[n, depth, f, h, w])?;
    compose::transpose(cx, &planes, &DEPTH_NEXT_TO_BATCH)
}

/// ONNX Conv over [N, C, D, H, W] with filter [F, C / group, KD, KH, KW].
pub(super) fn conv_3d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    w: &Slot<'c, 'a>,
    bias: Option<Value<'c, 'a>>,
    window: &Window3d,
    group: i64,
) -> Converted<'c, 'a> {
    let [n, c, _, h, wd] = [x.shape[0], x.shape[1], x.shape[2], x.shape[3], x.shape[4]];
    let (f, taps) = (w.shape[0], w.shape[2]);
    if group < 1 || w.shape[1].checked_mul(group) != Some(c) || f % group != 0 {
        return Err(format!(
            "filter {:?} with group {group} does not fit {c} input channels",
            w.shape
        ));
    }
    // Channels last ([N, D, H, W, C]): a tap's depths are then whole [H, W, C] planes,
    // and the transposes to and from each 2-D convolution's NCHW cancel against
    // glow-channels-last's NHWC ones, as do those between consecutive 3-D layers.
    let volume_last = compose::transpose(cx, x, &CHANNELS_LAST_3D)?;
    if is_temporal(&w.shape, window) {
        return temporal_conv(cx, &volume_last, w, bias, window, group);
    }
    check_taps(taps)?;
    let volume_last = pad_axis(cx, &volume_last, 1, window.pads[0], window.pads[3])?;
    let span = window.dilations[0] * (taps - 1) + 1;
    let out_depth = (volume_last.shape[1] - span) / window.strides[0] + 1;
    let plane_window = window.planes([w.shape[3], w.shape[4]]);
    let mut terms = Vec::new();
    for tap in 0..taps {
        let taken = depths(
            cx,
            &volume_last,
            tap * window.dilations[0],
            window.strides[0],
            out_depth,
        )?;
        let batch = compose::reshape(cx, &taken, &[n * out_depth, h, wd, c])?;
        let batch = compose::transpose(cx, &batch, &NHWC_TO_NCHW)?;
        let batch = cx.materialize(&batch)?;
        let filter = filter_tap(cx, w, tap)?;
        // Every output gets one term per tap: the bias goes with the first.
        let bias = if tap == 0 { bias } else { None };
        let out = conv_2d(cx, batch, filter, &plane_window, group, bias);
        let shape = cx.shape_of(out);
        let out = Slot::value(out, shape, x.element);
        terms.push(compose::transpose(cx, &out, &NCHW_TO_NHWC)?);
    }
    let planes = sum(cx, terms)?;
    let (oh, ow) = (planes.shape[1], planes.shape[2]);
    let out = compose::reshape(cx, &planes, &[n, out_depth, oh, ow, f])?;
    Ok(vec![compose::transpose(cx, &out, &CHANNELS_FIRST_3D)?])
}

/// Whether a 3-D convolution only mixes depths: a (KD, 1, 1) filter, unit strides and
/// no padding in height and width (R(2+1)D's and S3D's temporal convolutions).
fn is_temporal(filter: &[i64], window: &Window3d) -> bool {
    filter[3..] == [1, 1]
        && window.strides[1..] == [1, 1]
        && [1, 2, 4, 5].iter().all(|&i| window.pads[i] == 0)
}

/// A temporal convolution as one 2-D convolution over (depth, height x width) with a
/// (KD, 1) filter: no taps to sum. `volume_last` is the input as [N, D, H, W, C].
fn temporal_conv<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    volume_last: &Slot<'c, 'a>,
    w: &Slot<'c, 'a>,
    bias: Option<Value<'c, 'a>>,
    window: &Window3d,
    group: i64,
) -> Converted<'c, 'a> {
    let [n, d, h, wd, c] = [0, 1, 2, 3, 4].map(|i| volume_last.shape[i]);
    let rows = compose::reshape(cx, volume_last, &[n, d, h * wd, c])?;
    let rows = compose::transpose(cx, &rows, &NHWC_TO_NCHW)?;
    let rows = cx.materialize(&rows)?;
    let s = &w.shape;
    let filter = compose::reshape(cx, w, &[s[0], s[1], s[2], 1])?;
    let filter = cx.materialize(&filter)?;
    let geometry = Window {
        kernel: [s[2], 1],
        strides: [window.strides[0], 1],
        pads: [window.pads[0], 0, window.pads[3], 0],
        dilations: [window.dilations[0], 1],
    };
    let out = conv_2d(cx, rows, filter, &geometry, group, bias);
    let shape = cx.shape_of(out);
    let out_depth = shape[2];
    let out = Slot::value(out, shape, volume_last.element);
    let out = compose::transpose(cx, &out, &NCHW_TO_NHWC)?;
    let out = compose::reshape(cx, &out, &[n, out_depth, h, wd, s[0]])?;
    Ok(vec![compose::transpose(cx, &out, &CHANNELS_FIRST_3D)?])
}

/// ONNX ConvTranspose over [N, C, D, H, W] with filter [C, F / group, KD, KH, KW];
/// `output_padding` and the pads are already resolved (auto_pad, output_shape).
pub(super) fn conv_transpose_3d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    w: &Slot<'c, 'a>,
    bias: Option<Slot<'c, 'a>>,
    window: &Window3d,
    output_padding: &[i64],
    group: i64,
) -> Converted<'c, 'a> {
    let [n, c, d, h, wd] = [x.shape[0], x.shape[1], x.shape[2], x.shape[3], x.shape[4]];
    let taps = w.shape[2];
    check_taps(taps)?;
    if w.shape[0] != c || !(1..=c).contains(&group) || c % group != 0 {
        return Err(format!(
            "filter {:?} with group {group} does not fit {c} input channels",
            w.shape
        ));
    }
    let f = w.shape[1] * group;
    if bias.as_ref().is_some_and(|b| b.shape != [f]) {
        return Err(format!("the bias must have shape [{f}]"));
    }
    let (stride, dilation) = (window.strides[0], window.dilations[0]);
    let planes = compose::transpose(cx, x, &DEPTH_NEXT_TO_BATCH)?;
    let planes = reshape_to(cx, &planes, &[n * d, c, h, wd])?;
    let plane_window = window.planes([w.shape[3], w.shape[4]]);
    let plane_padding = [output_padding[1], output_padding[2]];
    // Output depths before the pads are cropped; input depth i of tap t lands at
    // i * stride + t * dilation.
    let full = stride * (d - 1) + output_padding[0] + dilation * (taps - 1) + 1;
    let spread = stride * (d - 1) + 1;
    let mut terms = Vec::new();
    let mut plane_shape = Vec::new();
    for tap in 0..taps {
        let filter = filter_tap(cx, w, tap)?;
        let out = conv_transpose_2d(
            cx,
            planes,
            filter,
            &plane_window,
            &plane_padding,
            group,
            None,
        );
        plane_shape = cx.shape_of(out);
        let size = plane_shape[1] * plane_shape[2] * plane_shape[3];
        let out = Slot::value(out, plane_shape.clone(), x.element);
        let rows = compose::reshape(cx, &out, &[n, d, size])?;
        // Zeros between consecutive input depths: each row followed by stride - 1
        // empty rows, the trailing ones cut off.
        let rows = pad_axis(cx, &rows, 2, 0, (stride - 1) * size)?;
        let rows = compose::reshape(cx, &rows, &[n, d * stride, size])?;
        let rows = compose::slice(cx, &rows, &[0, 0, 0], &[n, spread, size])?;
        let first = tap * dilation;
        terms.push(pad_axis(cx, &rows, 1, first, full - first - spread)?);
    }
    let rows = sum(cx, terms)?;
    let out_depth = full - window.pads[0] - window.pads[3];
    let size = rows.shape[2];
    let rows = compose::slice(cx, &rows, &[0, window.pads[0], 0], &[n, out_depth, size])?;
    let [oh, ow] = [plane_shape[2], plane_shape[3]];
    let out = volume(cx, &rows, [n, out_depth, f, oh, ow])?;
    let Some(bias) = bias else {
        return Ok(vec![out]);
    };
    let bias = compose::reshape(cx, &bias, &[f, 1, 1, 1])?;
    Ok(vec![compose::bin(cx, Bin::Add, &out, &bias)?])
}
