//! The spatial window of convolutions and pools: kernel_shape / strides / pads /
//! dilations / auto_pad / ceil_mode read and checked for any number of spatial
//! dimensions, and the 1-D -> 2-D views the 2-D glow.graph ops take.

use super::broadcast::reshape_to;
use crate::{
    builder::{NodeContext, Slot},
    element::Element,
};
use melior::ir::Value;

/// Spatial geometry of a 1-D or 2-D window op, normalized to 2-D.
pub(super) struct Window {
    pub(super) kernel: [i64; 2],
    pub(super) strides: [i64; 2],
    /// [top, left, bottom, right]
    pub(super) pads: [i64; 4],
    pub(super) dilations: [i64; 2],
}

/// Reads kernel_shape / strides / pads / dilations / auto_pad (and ceil_mode for
/// pooling) for a spatial input of `spatial` extents (1 or 2 of them).
pub(super) fn window(
    cx: &NodeContext,
    spatial: &[i64],
    kernel: &[i64],
    ceil_mode: bool,
) -> Result<Window, String> {
    let (strides, pads, dilations) = window_nd(cx, spatial, kernel, ceil_mode)?;
    Ok(window_2d(kernel, &strides, &pads, &dilations))
}

/// A 1-D or 2-D window normalized to 2-D (a 1-D window runs along the width).
pub(super) fn window_2d(
    kernel: &[i64],
    strides: &[i64],
    pads: &[i64],
    dilations: &[i64],
) -> Window {
    let n = kernel.len();
    let two = |v: &[i64], fill: i64| if n == 2 { [v[0], v[1]] } else { [fill, v[0]] };
    Window {
        kernel: two(kernel, 1),
        strides: two(strides, 1),
        pads: if n == 2 {
            [pads[0], pads[1], pads[2], pads[3]]
        } else {
            [0, pads[0], 0, pads[1]]
        },
        dilations: two(dilations, 1),
    }
}

/// Strides, pads ([begins..., ends...]) and dilations of a window over any number of
/// spatial dimensions.
pub(super) type Geometry = (Vec<i64>, Vec<i64>, Vec<i64>);

/// Integer-list attribute `name` with exactly `count` values, or `default` repeated.
pub(super) fn ints_of_count(
    cx: &NodeContext,
    name: &str,
    default: i64,
    count: usize,
) -> Result<Vec<i64>, String> {
    match cx.attr_ints(name) {
        Some(v) if v.len() == count => Ok(v),
        Some(v) => Err(format!("'{name}' {v:?} must have {count} values")),
        None => Ok(vec![default; count]),
    }
}

/// Whether every value lies in `low..=2^20`: the window bounds that keep every extent
/// computed from them far from overflow.
pub(super) fn within_limit(values: &[i64], low: i64) -> bool {
    values.iter().all(|v| (low..=1 << 20).contains(v))
}

/// Kernel, strides and dilations must lie in 1..=2^20; checked before an op is built,
/// since a typed builder whose type inference fails panics.
pub(super) fn check_window(
    kernel: &[i64],
    strides: &[i64],
    dilations: &[i64],
) -> Result<(), String> {
    if within_limit(kernel, 1) && within_limit(strides, 1) && within_limit(dilations, 1) {
        return Ok(());
    }
    Err(format!(
        "kernel {kernel:?}, strides {strides:?} and dilations {dilations:?} must lie in 1..=2^20"
    ))
}

/// The [`Geometry`] of a window over `spatial` extents, with auto_pad applied and
/// ceil_mode turned into extra end padding.
pub(super) fn window_nd(
    cx: &NodeContext,
    spatial: &[i64],
    kernel: &[i64],
    ceil_mode: bool,
) -> Result<Geometry, String> {
    let n = spatial.len();
    if n != kernel.len() {
        return Err(format!(
            "kernel {kernel:?} does not match {n} spatial dimensions"
        ));
    }
    let strides = ints_of_count(cx, "strides", 1, n)?;
    let dilations = ints_of_count(cx, "dilations", 1, n)?;
    let mut pads = ints_of_count(cx, "pads", 0, 2 * n)?;
    let auto_pad = cx.attr_s("auto_pad", "NOTSET");
    check_window(kernel, &strides, &dilations)?;
    if !within_limit(&pads, 0) {
        return Err(format!("pads {pads:?} must lie in 0..=2^20"));
    }
    for d in 0..n {
        let span = dilations[d] * (kernel[d] - 1) + 1;
        match auto_pad.as_str() {
            "NOTSET" => {}
            "VALID" => {
                pads[d] = 0;
                pads[d + n] = 0;
            }
            "SAME_UPPER" | "SAME_LOWER" => {
                let out = (spatial[d] + strides[d] - 1) / strides[d];
                let total = ((out - 1) * strides[d] + span - spatial[d]).max(0);
                let (small, large) = (total / 2, total - total / 2);
                if auto_pad == "SAME_UPPER" {
                    pads[d] = small;
                    pads[d + n] = large;
                } else {
                    pads[d] = large;
                    pads[d + n] = small;
                }
            }
            other => return Err(format!("unknown auto_pad '{other}'")),
        }
        if ceil_mode {
            // Extra end padding makes floor() give ONNX's ceil() output size; the
            // last window must still start inside the input or the begin padding.
            let padded = spatial[d] + pads[d] + pads[d + n];
            let floor_out = (padded - span) / strides[d] + 1;
            let mut ceil_out = (padded - span + strides[d] - 1) / strides[d] + 1;
            if (ceil_out - 1) * strides[d] >= spatial[d] + pads[d] {
                ceil_out -= 1;
            }
            pads[d + n] += (ceil_out - floor_out) * strides[d];
        }
    }
    // Checked here rather than left to the op's type inference: a typed builder whose
    // inference fails panics (found by fuzzing an empty spatial dimension).
    for d in 0..n {
        let span = dilations[d] * (kernel[d] - 1) + 1;
        if spatial[d] + pads[d] + pads[d + n] < span {
            return Err(format!(
                "window {kernel:?} with dilations {dilations:?} does not fit the padded input {spatial:?}"
            ));
        }
    }
    Ok((strides, pads, dilations))
}

/// Convolutions and pools take 1 to 3 spatial dimensions (ranks 3 to 5).
pub(super) fn check_spatial_rank(rank: usize) -> Result<(), String> {
    match rank {
        3..=5 => Ok(()),
        0..=2 => Err(format!(
            "the input has rank {rank}; a window needs (N, C, spatial...) with 1 to 3 spatial dimensions"
        )),
        _ => Err(format!(
            "{}-D spatial input is not supported (only 1-D, 2-D and 3-D)",
            rank - 2
        )),
    }
}

/// A rank-3 (N, C, L) slot is viewed as (N, C, 1, L); returns the 2-D value.
pub(super) fn as_2d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: &Slot<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    match slot.shape.len() {
        4 => cx.materialize(slot),
        3 => {
            let shape = [slot.shape[0], slot.shape[1], 1, slot.shape[2]];
            reshape_to(cx, slot, &shape)
        }
        rank => Err(format!(
            "{}-D spatial input is not supported (only 1-D and 2-D)",
            rank as i64 - 2
        )),
    }
}

/// Undoes [`as_2d`] on a result.
pub(super) fn from_2d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    value: Value<'c, 'a>,
    rank: usize,
    element: Element,
) -> Result<Slot<'c, 'a>, String> {
    let shape = cx.shape_of(value);
    let slot = Slot::value(value, shape.clone(), element);
    if rank == 4 {
        return Ok(slot);
    }
    let flat = vec![shape[0], shape[1], shape[3]];
    let out = reshape_to(cx, &slot, &flat)?;
    Ok(Slot::value(out, flat, element))
}
