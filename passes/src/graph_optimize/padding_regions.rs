//! conv2d most of whose tap products read padding -> one conv2d per output region
//! whose set of live taps is the same, each on its slice of the input with only those
//! taps and no padding, joined by concats. Atrous convolutions on maps barely larger
//! than their dilation are the case: DeepLabV3's ASPP branch with dilation 12 on a
//! 14 x 14 map reads the map with 1.65 of its 9 taps per output on average (the outer
//! taps only reach it from the two rows and columns at each border), so its regions do
//! 18 % of the products. (Taps that never read the map are trimmed by
//! [`super::padding_taps`]; this takes what is left when the live taps change across
//! the output.)
//!
//! Along an axis, output row o reads input row o s + k d - p with tap k, so its live
//! taps are the range k in [ceil((p - o s) / d), floor((H - 1 + p - o s) / d)] within
//! [0, K); consecutive rows with the same range form a region. A region of rows
//! [o0, o1) with taps [k0, k1] is a convolution with those taps, the same stride and
//! dilation and no padding, on input rows [o0 s + k0 d - p, (o1 - 1) s + k1 d - p]. It
//! applies when the live products are at most half of all products (so the extra
//! concats pay off) and an axis has more than one region.

use super::padding_taps::{conv_like, geometry, shape, sliced_filter, Axis, Geometry};
use crate::framework::{dead_weights::erase_dead_weights, Rule};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::{IntegerType, RankedTensorType, ShapedTypeLike},
        OperationRef, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The rule splitting a mostly-padding conv2d into regions of equal live taps.
pub static SPLIT_PADDING_REGIONS: Rule = Rule {
    root: "glow.graph.conv2d",
    generates: &[
        "glow.graph.conv2d",
        "glow.graph.constant",
        "glow.graph.slice",
        "glow.graph.concat",
    ],
    rewrite,
};

/// Output rows [first, end) whose live taps are [tap, last_tap].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// First output row.
    pub first: i64,
    /// One past the last output row.
    pub end: i64,
    /// First live tap.
    pub tap: i64,
    /// Last live tap.
    pub last_tap: i64,
}

impl Region {
    /// How many taps the region keeps.
    pub fn taps(&self) -> i64 {
        self.last_tap - self.tap + 1
    }
    /// The first input row the region reads.
    pub fn input_start(&self, axis: &Axis) -> i64 {
        self.first * axis.stride + self.tap * axis.dilation - axis.pad_before
    }
    /// How many input rows the region reads.
    pub fn input_rows(&self, axis: &Axis) -> i64 {
        (self.end - 1 - self.first) * axis.stride + (self.last_tap - self.tap) * axis.dilation + 1
    }
}

/// The regions of an axis, or `None` when an output row reads no input at all (it is
/// only the bias) or the geometry is not a valid one.
pub fn regions(axis: Axis) -> Option<Vec<Region>> {
    if !axis.is_valid() {
        return None;
    }
    let mut result: Vec<Region> = Vec::new();
    for o in 0..axis.output {
        let (tap, last_tap) = axis.live_taps(o)?;
        match result.last_mut() {
            Some(r) if (r.tap, r.last_tap) == (tap, last_tap) => r.end = o + 1,
            _ => result.push(Region {
                first: o,
                end: o + 1,
                tap,
                last_tap,
            }),
        }
    }
    Some(result)
}

/// Live tap products of an axis' regions, and all of its tap products.
pub fn products(axis: &Axis, regions: &[Region]) -> (i64, i64) {
    let live = regions.iter().map(|r| (r.end - r.first) * r.taps()).sum();
    (live, axis.output * axis.taps)
}

/// `pieces` joined along `dim` (the piece itself when alone).
fn concat<'c, 'a>(
    context: &'c Context,
    rewriter: &'a RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    pieces: &[Value<'c, 'a>],
    dim: usize,
) -> Option<Value<'c, 'a>> {
    if let [one] = pieces {
        return Some(*one);
    }
    let dim = IntegerAttribute::new(IntegerType::new(context, 64).into(), dim as i64);
    let concat = glow_graph::concat(context, pieces, dim, op.location());
    Some(rewriter.insert(concat.into()).result(0).ok()?.into())
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(filter), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let Some(Geometry {
        axes,
        x,
        y,
        spatial,
        ..
    }) = geometry(op)
    else {
        return false;
    };
    let (Some(rows), Some(columns)) = (regions(axes[0]), regions(axes[1])) else {
        return false;
    };
    let ((live_h, all_h), (live_w, all_w)) =
        (products(&axes[0], &rows), products(&axes[1], &columns));
    if 2 * live_h * live_w > all_h * all_w || (rows.len() == 1 && columns.len() == 1) {
        return false;
    }
    let Ok(element) = RankedTensorType::try_from(result.r#type()).map(|t| t.element()) else {
        return false;
    };
    let tensor = |shape: &[i64]| -> Type<'c> {
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        RankedTensorType::new(&dims, element, None).into()
    };
    rewriter.set_insertion_point_before(op);
    let mut bands = Vec::new();
    for row in &rows {
        let mut pieces = Vec::new();
        for column in &columns {
            let mut start = vec![0; 4];
            let mut slice_shape = x.clone();
            let mut piece_shape = y.clone();
            for (a, (region, axis)) in [(row, &axes[0]), (column, &axes[1])]
                .into_iter()
                .enumerate()
            {
                start[spatial + a] = region.input_start(axis);
                slice_shape[spatial + a] = region.input_rows(axis);
                piece_shape[spatial + a] = region.end - region.first;
            }
            let slice = if slice_shape == x {
                input
            } else {
                let start = DenseI64ArrayAttribute::new(context, &start);
                let op = glow_graph::slice(
                    context,
                    tensor(&slice_shape),
                    input,
                    start.into(),
                    op.location(),
                );
                let Some(value) = rewriter.insert(op.into()).result(0).ok() else {
                    return false;
                };
                value.into()
            };
            let Some(taps) = sliced_filter(
                context,
                rewriter,
                op,
                filter,
                [row.tap, column.tap],
                [row.taps(), column.taps()],
            ) else {
                return false;
            };
            let dilation = |region: &Region, axis: &Axis| {
                if region.taps() > 1 {
                    axis.dilation
                } else {
                    1
                }
            };
            let dilations = [dilation(row, &axes[0]), dilation(column, &axes[1])];
            let Some(piece) = conv_like(
                context,
                rewriter,
                op,
                slice,
                taps,
                ([0; 4], dilations),
                tensor(&piece_shape),
            ) else {
                return false;
            };
            pieces.push(piece);
        }
        let Some(band) = concat(context, rewriter, op, &pieces, spatial + 1) else {
            return false;
        };
        bands.push(band);
    }
    let Some(joined) = concat(context, rewriter, op, &bands, spatial) else {
        return false;
    };
    if shape(joined) != Some(y) {
        return false;
    }
    rewriter.replace_op_with_values(op, &[joined]);
    erase_dead_weights(rewriter, &[filter]);
    true
}
