//! conv2d whose first or last filter taps along an axis only ever read padding ->
//! conv2d with those taps cut from the filter and the padding shrunk to match (the
//! same sums without the products with zeros). Atrous convolutions whose dilation
//! reaches past the feature map are the case: DeepLabV3's ASPP branches on a 14 x 14
//! map with dilations 24 and 36 and paddings 24 and 36 read the map only through their
//! centre tap, so they become 1 x 1 convolutions with a ninth of the work (torchvision
//! DeepLabV3-MobileNetV3, one thread: 8.2 ms per branch before).
//!
//! Along an axis of input length H, stride s, dilation d, leading padding p and output
//! length O, tap k reads input row o s + k d - p for output row o; it is live when
//! some o puts that row inside [0, H). With k0 / k1 the first / last live taps, the
//! conv keeps taps k0..=k1, leading padding p - k0 d (when not negative) and the
//! trailing padding that keeps O rows; a single remaining tap drops the dilation.

use super::fold_batch_norm;
use crate::framework::{attributes::i64_array, dead_weights::erase_dead_weights, Rule};
use glow_dialects::{elements, ods::glow_graph};
use melior::{
    ir::{
        attribute::DenseI64ArrayAttribute,
        operation::{OperationBuilder, OperationLike},
        r#type::{RankedTensorType, ShapedTypeLike},
        Identifier, OperationRef, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The rule trimming a conv2d's taps that only read padding.
pub static TRIM_PADDING_TAPS: Rule = Rule {
    root: "glow.graph.conv2d",
    generates: &[
        "glow.graph.conv2d",
        "glow.graph.constant",
        "glow.graph.slice",
    ],
    rewrite,
};

/// One spatial axis of a convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axis {
    /// Input length.
    pub input: i64,
    /// Filter taps.
    pub taps: i64,
    /// Stride.
    pub stride: i64,
    /// Dilation.
    pub dilation: i64,
    /// Padding before the input.
    pub pad_before: i64,
    /// Output length.
    pub output: i64,
}

impl Axis {
    /// Whether the lengths, taps, stride and dilation are positive and the padding is
    /// not negative.
    pub fn is_valid(&self) -> bool {
        [
            self.input,
            self.taps,
            self.stride,
            self.dilation,
            self.output,
        ]
        .iter()
        .all(|v| *v > 0)
            && self.pad_before >= 0
    }

    /// The taps output row `o` reads the map with: row `o s + k d - p` lies in
    /// [0, input) for k in [ceil((p - o s) / d), floor((input - 1 + p - o s) / d)],
    /// within [0, taps); `None` when that range is empty (the row reads only padding).
    pub fn live_taps(&self, o: i64) -> Option<(i64, i64)> {
        let start = self.pad_before - o * self.stride;
        let first = (start + self.dilation - 1).div_euclid(self.dilation).max(0);
        let last = (self.input - 1 + start)
            .div_euclid(self.dilation)
            .min(self.taps - 1);
        (first <= last).then_some((first, last))
    }
}

/// The trimmed axis: the first kept tap, the axis with the kept taps, leading padding
/// and dilation, and its trailing padding. `None` when every tap is live, none is, or
/// the trimmed form would need a negative padding.
pub fn trim(axis: Axis) -> Option<(i64, Axis, i64)> {
    let Axis {
        input,
        taps,
        stride,
        dilation,
        pad_before,
        output,
    } = axis;
    if !axis.is_valid() {
        return None;
    }
    // Each output row's live taps form one range, so the first and last live taps are
    // the least and greatest ends of the rows' ranges.
    let ranges: Vec<(i64, i64)> = (0..output).filter_map(|o| axis.live_taps(o)).collect();
    let first = ranges.iter().map(|r| r.0).min()?;
    let last = ranges.iter().map(|r| r.1).max()?;
    if first == 0 && last == taps - 1 {
        return None;
    }
    let kept = last - first + 1;
    let dilation = if kept == 1 { 1 } else { dilation };
    let pad_before = pad_before - first * axis.dilation;
    // The least trailing padding with `output` rows; floor division lets it fall short
    // by up to stride - 1.
    let least = (output - 1) * stride + dilation * (kept - 1) + 1 - input - pad_before;
    let pad_after = if least >= 0 {
        least
    } else if least + stride > 0 {
        0
    } else {
        return None;
    };
    let trimmed = Axis {
        input,
        taps: kept,
        stride,
        dilation,
        pad_before,
        output,
    };
    let rows = (input + pad_before + pad_after - dilation * (kept - 1) - 1) / stride + 1;
    (pad_before >= 0 && rows == output).then_some((first, trimmed, pad_after))
}

/// The shape of a statically shaped tensor.
pub(super) fn shape(value: Value) -> Option<Vec<i64>> {
    let r#type = RankedTensorType::try_from(value.r#type()).ok()?;
    (0..r#type.rank())
        .map(|d| match r#type.dim_size(d) {
            Ok(melior::ir::r#type::DimSize::Static(n)) => Some(n as i64),
            _ => None,
        })
        .collect()
}

/// `filter[:, :, h0 .. h0 + kh, w0 .. w0 + kw]`: a new constant of an f32 constant
/// filter, else a glow.graph.slice.
pub(super) fn sliced_filter<'c, 'a>(
    context: &'c Context,
    rewriter: &'a RewriterBase<'c, 'a>,
    conv: OperationRef<'c, 'a>,
    filter: Value<'c, 'a>,
    start: [i64; 2],
    taps: [i64; 2],
) -> Option<Value<'c, 'a>> {
    let full = shape(filter)?;
    let [f, c, kh, kw] = full[..] else {
        return None;
    };
    let element = RankedTensorType::try_from(filter.r#type()).ok()?.element();
    let dims: Vec<u64> = [f, c, taps[0], taps[1]].iter().map(|d| *d as u64).collect();
    let r#type: Type = RankedTensorType::new(&dims, element, None).into();
    let location = conv.location();
    let op = match fold_batch_norm::constant_f32(filter) {
        Some(values) => {
            let mut bytes = Vec::with_capacity((f * c * taps[0] * taps[1] * 4) as usize);
            for outer in 0..f * c {
                for h in start[0]..start[0] + taps[0] {
                    for w in start[1]..start[1] + taps[1] {
                        let value = values[((outer * kh + h) * kw + w) as usize];
                        bytes.extend(value.to_le_bytes());
                    }
                }
            }
            let value = if bytes.len() <= 256 {
                elements::dense_elements(r#type, &bytes)
            } else {
                elements::resource_elements(r#type, "trimmed_filter", &bytes)
            };
            glow_graph::constant(context, r#type, value, location).into()
        }
        None => {
            let start = DenseI64ArrayAttribute::new(context, &[0, 0, start[0], start[1]]);
            glow_graph::slice(context, r#type, filter, start.into(), location).into()
        }
    };
    Some(rewriter.insert(op).result(0).ok()?.into())
}

/// A conv2d's static shapes and spatial geometry.
pub(super) struct Geometry {
    /// Input shape.
    pub x: Vec<i64>,
    /// Result shape.
    pub y: Vec<i64>,
    /// The first spatial dimension of the input and result (H: 2 in NCHW, 1 in NHWC).
    pub spatial: usize,
    /// Height and width.
    pub axes: [Axis; 2],
    /// [top, left, bottom, right].
    pub pads: [i64; 4],
}

/// The geometry of a conv2d with static shapes.
pub(super) fn geometry(op: OperationRef) -> Option<Geometry> {
    let x = shape(op.operand(0).ok()?)?;
    let w = shape(op.operand(1).ok()?)?;
    let y = shape(op.result(0).ok()?.into())?;
    if x.len() != 4 || w.len() != 4 || y.len() != 4 {
        return None;
    }
    let strides = i64_array(op, "strides").unwrap_or(vec![1, 1]);
    let pads = i64_array(op, "pads").unwrap_or(vec![0; 4]);
    let dilations = i64_array(op, "dilations").unwrap_or(vec![1, 1]);
    let ([sh, sw], [top, left, bottom, right], [dh, dw]) =
        (&strides[..], &pads[..], &dilations[..])
    else {
        return None;
    };
    let spatial = if op.attribute("channels_last").is_ok() {
        1
    } else {
        2
    };
    let axis = |a: usize, stride: i64, dilation: i64, pad_before: i64| Axis {
        input: x[spatial + a],
        taps: w[2 + a],
        stride,
        dilation,
        pad_before,
        output: y[spatial + a],
    };
    Some(Geometry {
        axes: [axis(0, *sh, *dh, *top), axis(1, *sw, *dw, *left)],
        pads: [*top, *left, *bottom, *right],
        x,
        y,
        spatial,
    })
}

/// A conv2d like `op` (same bias, strides, group and layout) on `input` with `filter`
/// and `spacing` (pads [top, left, bottom, right] and dilations [h, w]), giving a
/// result of `result` type.
pub(super) fn conv_like<'c, 'a>(
    context: &'c Context,
    rewriter: &'a RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    input: Value<'c, 'a>,
    filter: Value<'c, 'a>,
    spacing: ([i64; 4], [i64; 2]),
    result: Type<'c>,
) -> Option<Value<'c, 'a>> {
    let (pads, dilations) = spacing;
    let mut operands: Vec<Value> = op.operands().collect();
    operands[0] = input;
    operands[1] = filter;
    let array = |values: &[i64]| DenseI64ArrayAttribute::new(context, values).into();
    let attributes: Vec<(Identifier, melior::ir::Attribute)> = op
        .attributes()
        .filter(|(name, _)| !matches!(name.as_string_ref().as_str(), Ok("pads" | "dilations")))
        .chain([
            (Identifier::new(context, "pads"), array(&pads)),
            (Identifier::new(context, "dilations"), array(&dilations)),
        ])
        .collect();
    let conv = OperationBuilder::new("glow.graph.conv2d", op.location())
        .add_operands(&operands)
        .add_attributes(&attributes)
        .add_results(&[result])
        .build()
        .ok()?;
    Some(rewriter.insert(conv).result(0).ok()?.into())
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(filter), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let Some(Geometry { axes, pads, .. }) = geometry(op) else {
        return false;
    };
    let trimmed: Vec<Option<(i64, Axis, i64)>> = axes.iter().map(|a| trim(*a)).collect();
    if trimmed.iter().all(Option::is_none) {
        return false;
    }
    // Axes left as they are keep their taps and paddings.
    let kept: Vec<(i64, Axis, i64)> = trimmed
        .iter()
        .zip(&axes)
        .enumerate()
        .map(|(a, (t, axis))| t.unwrap_or((0, *axis, pads[a + 2])))
        .collect();
    let new_pads = [
        kept[0].1.pad_before,
        kept[1].1.pad_before,
        kept[0].2,
        kept[1].2,
    ];
    rewriter.set_insertion_point_before(op);
    let Some(new_filter) = sliced_filter(
        context,
        rewriter,
        op,
        filter,
        [kept[0].0, kept[1].0],
        [kept[0].1.taps, kept[1].1.taps],
    ) else {
        return false;
    };
    let dilations = [kept[0].1.dilation, kept[1].1.dilation];
    let Some(trimmed_result) = conv_like(
        context,
        rewriter,
        op,
        input,
        new_filter,
        (new_pads, dilations),
        result.r#type(),
    ) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[trimmed_result]);
    erase_dead_weights(rewriter, &[filter]);
    true
}
