//! conv_transpose2d with a constant filter, one group, no dilation and a kernel at
//! least as large as its strides (GAN generators' and decoders' kernel 4 / stride 2 /
//! pad 1, stride-1 deconvolutions) -> one stride-1 conv2d per output phase, interleaved.
//!
//! Along one dimension (stride s, kernel K, begin pad p), output o = i*s + k - p. With
//! q = o + p = t*s + phi, the outputs of phase phi take the taps k = phi + m*s of the
//! inputs t - m: a stride-1 correlation with the sub-filter g[j] = w[phi + (M-1-j)*s]
//! (M = ceil((K - phi) / s) taps) over the input padded by M - 1 - t_min before (cropped
//! when that is negative), for t in [t_min, t_min + T), t_min = floor(p / s). The
//! phases' [N, T_h, T_w, F] results are interleaved (a pixel shuffle in NHWC: reshape,
//! concat, reshape), cropped to the output and transposed to NCHW, where
//! glow-channels-last's transposes around each conv2d cancel against them. Every product is one the transposed convolution makes: none with the
//! zeros that glow-graph-to-linalg's general rule spreads between the input pixels
//! (3 of 4 of its products at stride 2), and each conv2d takes the tiled NHWC kernels.

use super::builder::GraphBuilder;
use crate::{
    framework::attributes::{i64_array, i64_value},
    quantization::ir::{elements_attribute, float_constant},
};
use glow_dialects::ods::glow_graph;
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, IntegerAttribute},
    r#type::IntegerType,
    Type, Value,
};

/// The most output phases (strides' product) taken apart: each is a conv2d in the graph;
/// larger strides keep glow-graph-to-linalg's general rule.
const MAX_PHASES: i64 = 64;

/// One dimension's phase plan: stride, kernel, begin pad, input and output extents.
struct Axis {
    stride: i64,
    kernel: i64,
    pad: i64,
    input: i64,
    output: i64,
}

/// One phase along one dimension: the input range it reads, its pads, its taps.
pub(super) struct Phase {
    /// Input slice [start, end).
    start: i64,
    end: i64,
    pads: (i64, i64),
    /// Kernel index of each sub-filter tap.
    taps: Vec<i64>,
}

impl Axis {
    /// First t and the count of t every phase computes.
    fn t_range(&self) -> (i64, i64) {
        let first = self.pad / self.stride;
        let last = (self.pad + self.output - 1) / self.stride;
        (first, last - first + 1)
    }

    /// The plan of phase `phi`, or `None` when the cropped input would be empty.
    fn phase(&self, phi: i64) -> Option<Phase> {
        let (first, count) = self.t_range();
        let taps_count = (self.kernel - phi + self.stride - 1) / self.stride;
        let before = taps_count - 1 - first;
        let after = count + taps_count - 1 - self.input - before;
        let (start, end) = ((-before).max(0), self.input - (-after).max(0));
        (end > start).then(|| Phase {
            start,
            end,
            pads: (before.max(0), after.max(0)),
            taps: (0..taps_count)
                .map(|j| phi + (taps_count - 1 - j) * self.stride)
                .collect(),
        })
    }
}

/// The operands and geometry of a transposed convolution the phases can take.
pub(super) struct Deconvolution<'c, 'a> {
    pub(super) input: Value<'c, 'a>,
    pub(super) element: Type<'c>,
    /// [N, C, H, W], [C, F, KH, KW] and [N, F, OH, OW].
    pub(super) x: Vec<i64>,
    pub(super) w: Vec<i64>,
    pub(super) y: Vec<i64>,
    /// The filter's values (constant), row-major [C, F, KH, KW].
    pub(super) weights: Vec<f32>,
    pub(super) strides: Vec<i64>,
    pub(super) pads: Vec<i64>,
}

/// The [`Deconvolution`] of `op` when its filter is constant, its group 1, its
/// dilations 1 and its kernel at least its strides.
pub(super) fn deconvolution<'c, 'a>(
    op: melior::ir::OperationRef<'c, 'a>,
    input: Value<'c, 'a>,
    filter: Value<'c, 'a>,
    (x, w, y): (&[i64], &[i64], &[i64]),
    element: Type<'c>,
) -> Option<Deconvolution<'c, 'a>> {
    let strides = i64_array(op, "strides").unwrap_or(vec![1, 1]);
    let pads = i64_array(op, "pads").unwrap_or(vec![0; 4]);
    let dilations = i64_array(op, "dilations").unwrap_or(vec![1, 1]);
    if i64_value(op, "group").unwrap_or(1) != 1
        || dilations != [1, 1]
        || strides.len() != 2
        || pads.len() != 4
        || (0..2).any(|d| w[2 + d] < strides[d] || !(1..=MAX_PHASES).contains(&strides[d]))
        || strides[0] * strides[1] > MAX_PHASES
        || pads.iter().any(|p| *p < 0)
    {
        return None;
    }
    let weights = float_constant(filter, w.iter().product::<i64>() as usize)?;
    Some(Deconvolution {
        input,
        element,
        x: x.to_vec(),
        w: w.to_vec(),
        y: y.to_vec(),
        weights,
        strides,
        pads,
    })
}

/// The phase conv2d's sub-filter [F, C, Mh, Mw] from the [C, F, KH, KW] weights.
fn sub_filter(d: &Deconvolution, rows: &Phase, columns: &Phase) -> Vec<u8> {
    let (c, f, kh, kw) = (d.w[0], d.w[1], d.w[2], d.w[3]);
    let mut bytes = Vec::new();
    for fi in 0..f {
        for ci in 0..c {
            for &a in &rows.taps {
                for &b in &columns.taps {
                    let index = ((ci * f + fi) * kh + a) * kw + b;
                    bytes.extend_from_slice(&d.weights[index as usize].to_le_bytes());
                }
            }
        }
    }
    bytes
}

/// The two dimensions' phase plans, or `None` when a phase's cropped input would be
/// empty (checked before any op is built).
pub(super) fn plans(d: &Deconvolution) -> Option<[Vec<Phase>; 2]> {
    let mut plans = [Vec::new(), Vec::new()];
    for (k, plan) in plans.iter_mut().enumerate() {
        let axis = axis(d, k);
        for phi in 0..axis.stride {
            plan.push(axis.phase(phi)?);
        }
    }
    Some(plans)
}

fn axis(d: &Deconvolution, k: usize) -> Axis {
    Axis {
        stride: d.strides[k],
        kernel: d.w[2 + k],
        pad: d.pads[k],
        input: d.x[2 + k],
        output: d.y[2 + k],
    }
}

/// Builds the phases' conv2d ops (`phases` from [`plans`]) and their interleaving;
/// returns the NCHW result (without the bias).
pub(super) fn lower<'c, 'r>(
    b: &GraphBuilder<'c, 'r, '_>,
    d: &Deconvolution<'c, '_>,
    phases: &[Vec<Phase>; 2],
) -> Option<Value<'c, 'r>> {
    let axes = [axis(d, 0), axis(d, 1)];
    let (n, c, f) = (d.x[0], d.x[1], d.w[1]);
    let ((first_h, th), (first_w, tw)) = (axes[0].t_range(), axes[1].t_range());
    let (sh, sw) = (axes[0].stride, axes[1].stride);
    let array = |values: &[i64]| DenseI64ArrayAttribute::new(b.context, values).into();
    let mut rows_of_phases = Vec::new();
    for rows in &phases[0] {
        let mut pieces = Vec::new();
        for columns in &phases[1] {
            let mut input: Value = d.input;
            if (rows.start, rows.end, columns.start, columns.end) != (0, d.x[2], 0, d.x[3]) {
                let shape = [n, c, rows.end - rows.start, columns.end - columns.start];
                let op = glow_graph::slice(
                    b.context,
                    b.tensor(&shape, d.element),
                    input,
                    array(&[0, 0, rows.start, columns.start]),
                    b.location,
                );
                input = b.rewriter.insert(op.into()).result(0).ok()?.into();
            }
            let filter_shape = [f, c, rows.taps.len() as i64, columns.taps.len() as i64];
            let filter_type = b.tensor(&filter_shape, d.element);
            let bytes = sub_filter(d, rows, columns);
            let value = elements_attribute(filter_type, &bytes, "deconvolution_phase");
            let filter = glow_graph::constant(b.context, filter_type, value, b.location);
            let filter = b.rewriter.insert(filter.into()).result(0).ok()?.into();
            let conv = glow_graph::Conv2DOperationBuilder::new(b.context, b.location)
                .input(input)
                .filter(filter)
                .strides(array(&[1, 1]))
                .pads(array(&[
                    rows.pads.0,
                    columns.pads.0,
                    rows.pads.1,
                    columns.pads.1,
                ]))
                .dilations(array(&[1, 1]))
                .group(IntegerAttribute::new(
                    IntegerType::new(b.context, 64).into(),
                    1,
                ))
                .build();
            let conv: Value = b.rewriter.insert(conv.into()).result(0).ok()?.into();
            let nhwc = b.transpose(conv, &[0, 2, 3, 1]);
            pieces.push(b.reshape(nhwc, &[n, th, 1, tw, 1, f], d.element));
        }
        rows_of_phases.push(concat(b, &pieces, 4)?);
    }
    let interleaved = concat(b, &rows_of_phases, 2)?;
    let full = b.reshape(interleaved, &[n, th * sh, tw * sw, f], d.element);
    let (oh, ow) = (d.y[2], d.y[3]);
    let crop = [0, d.pads[0] - first_h * sh, d.pads[1] - first_w * sw, 0];
    let cropped = if [th * sh, tw * sw] == [oh, ow] {
        full
    } else {
        let op = glow_graph::slice(
            b.context,
            b.tensor(&[n, oh, ow, f], d.element),
            full,
            array(&crop),
            b.location,
        );
        b.rewriter.insert(op.into()).result(0).ok()?.into()
    };
    Some(b.transpose(cropped, &[0, 3, 1, 2]))
}

/// `pieces` joined along `axis` (the piece itself when alone).
fn concat<'c, 'r>(
    b: &GraphBuilder<'c, 'r, '_>,
    pieces: &[Value<'c, 'r>],
    axis: i64,
) -> Option<Value<'c, 'r>> {
    if pieces.len() == 1 {
        return pieces.first().copied();
    }
    let axis = IntegerAttribute::new(IntegerType::new(b.context, 64).into(), axis);
    let op = glow_graph::concat(b.context, pieces, axis, b.location);
    Some(b.rewriter.insert(op.into()).result(0).ok()?.into())
}
