//! Conv and ConvTranspose: 1-D and 2-D as glow.graph.conv2d / conv_transpose2d (a 1-D
//! window runs along the width), 3-D through [`super::volumetric`]; grouped, dilated,
//! auto_pad, output_shape.

use super::{
    volumetric::{conv_3d, conv_transpose_3d, Window3d},
    window::{
        as_2d, check_spatial_rank, check_window, from_2d, ints_of_count, window, window_nd,
        within_limit, Window,
    },
};
use crate::builder::{Converted, NodeContext};
use glow_dialects::ods::glow_graph;
use melior::ir::Value;

pub fn conv<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let w = cx.input(1)?;
    if w.shape.len() != x.shape.len() {
        return Err(format!(
            "weight rank {} differs from input rank {}",
            w.shape.len(),
            x.shape.len()
        ));
    }
    check_spatial_rank(x.shape.len())?;
    let spatial = &x.shape[2..];
    let kernel = cx
        .attr_ints("kernel_shape")
        .unwrap_or_else(|| w.shape[2..].to_vec());
    let group = cx.attr_i("group", 1);
    let bias = cx.has_input(2).then(|| cx.value(2)).transpose()?;
    if x.shape.len() == 5 {
        if kernel != w.shape[2..] {
            return Err(format!(
                "'kernel_shape' {kernel:?} does not match the filter's spatial shape {:?}",
                &w.shape[2..]
            ));
        }
        let (strides, pads, dilations) = window_nd(cx, spatial, &kernel, false)?;
        let window = Window3d {
            strides: &strides,
            pads: &pads,
            dilations: &dilations,
        };
        return conv_3d(cx, &x, &w, bias, &window, group);
    }
    let geometry = window(cx, spatial, &kernel, false)?;
    let input = as_2d(cx, &x)?;
    let filter = as_2d(cx, &w)?;
    let out = conv_2d(cx, input, filter, &geometry, group, bias);
    Ok(vec![from_2d(cx, out, x.shape.len(), x.element)?])
}

/// A glow.graph.conv2d of `input` [N, C, H, W] and `filter` [F, C / group, KH, KW].
pub(super) fn conv_2d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    input: Value<'c, 'a>,
    filter: Value<'c, 'a>,
    geometry: &Window,
    group: i64,
    bias: Option<Value<'c, 'a>>,
) -> Value<'c, 'a> {
    let mut builder = glow_graph::Conv2DOperationBuilder::new(cx.context, cx.location)
        .input(input)
        .filter(filter)
        .strides(cx.array_attr(&geometry.strides))
        .pads(cx.array_attr(&geometry.pads))
        .dilations(cx.array_attr(&geometry.dilations))
        .group(cx.i64_attr(group));
    if let Some(bias) = bias {
        builder = builder.bias(bias);
    }
    cx.emit(builder.build().into())
}

/// ConvTranspose (1-D and 2-D): explicit pads and output_padding, or output_shape /
/// auto_pad resolved to them (ONNX's formulas).
pub fn conv_transpose<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let w = cx.input(1)?;
    let n = x.shape.len().saturating_sub(2);
    if !(1..=3).contains(&n) || w.shape.len() != x.shape.len() {
        return Err(format!(
            "{n}-D transposed convolution is not supported (only 1-D, 2-D and 3-D)"
        ));
    }
    let kernel = w.shape[2..].to_vec();
    if let Some(declared) = cx.attr_ints("kernel_shape") {
        if declared != kernel {
            return Err(format!(
                "'kernel_shape' {declared:?} does not match the filter's spatial shape {kernel:?}"
            ));
        }
    }
    let strides = ints_of_count(cx, "strides", 1, n)?;
    let dilations = ints_of_count(cx, "dilations", 1, n)?;
    let mut output_padding = ints_of_count(cx, "output_padding", 0, n)?;
    let mut pads = ints_of_count(cx, "pads", 0, 2 * n)?;
    // Checked here rather than left to the op's type inference (a typed builder whose
    // inference fails panics; found by fuzzing), and bounded so that no extent below
    // can overflow.
    check_window(&kernel, &strides, &dilations)?;
    if !within_limit(&pads, 0) || !within_limit(&output_padding, 0) {
        return Err(format!(
            "pads {pads:?} and output_padding {output_padding:?} must lie in 0..=2^20"
        ));
    }
    if x.shape[2..].iter().any(|&d| !(1..=1 << 31).contains(&d)) {
        return Err(format!(
            "spatial input dimensions {:?} must lie in 1..=2^31",
            &x.shape[2..]
        ));
    }
    // The output extent before padding is removed.
    let full: Vec<i64> = (0..n)
        .map(|d| {
            strides[d] * (x.shape[2 + d] - 1)
                + output_padding[d]
                + dilations[d] * (kernel[d] - 1)
                + 1
        })
        .collect();
    let auto_pad = cx.attr_s("auto_pad", "NOTSET");
    if let Some(output_shape) = cx.attr_ints("output_shape") {
        let spatial = &output_shape[output_shape.len().saturating_sub(n)..];
        if spatial.len() != n || spatial.iter().any(|e| !(1..=1 << 40).contains(e)) {
            return Err(format!(
                "'output_shape' {output_shape:?} must end in {n} extents in 1..=2^40"
            ));
        }
        for d in 0..n {
            let total = full[d] - spatial[d];
            if total < 0 {
                output_padding[d] -= total;
                pads[d] = 0;
                pads[d + n] = 0;
            } else if auto_pad == "SAME_UPPER" {
                pads[d] = total / 2;
                pads[d + n] = total - total / 2;
            } else {
                pads[d] = total - total / 2;
                pads[d + n] = total / 2;
            }
        }
    } else if auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER" {
        for d in 0..n {
            let total = (full[d] - x.shape[2 + d] * strides[d]).max(0);
            let (small, large) = (total / 2, total - total / 2);
            (pads[d], pads[d + n]) = if auto_pad == "SAME_UPPER" {
                (small, large)
            } else {
                (large, small)
            };
        }
    } else if auto_pad != "NOTSET" && auto_pad != "VALID" {
        return Err(format!("unknown auto_pad '{auto_pad}'"));
    }
    if (0..n).any(|d| full[d] - pads[d] - pads[d + n] < 1) {
        return Err(format!(
            "pads {pads:?} leave no output (extents before padding {full:?})"
        ));
    }
    let group = cx.attr_i("group", 1);
    if group < 1 {
        return Err(format!("'group' must be positive, got {group}"));
    }
    if n == 3 {
        let bias = cx.has_input(2).then(|| cx.input(2)).transpose()?;
        let window = Window3d {
            strides: &strides,
            pads: &pads,
            dilations: &dilations,
        };
        return conv_transpose_3d(cx, &x, &w, bias, &window, &output_padding, group);
    }
    let two = |v: &[i64], fill: i64| if n == 2 { [v[0], v[1]] } else { [fill, v[0]] };
    let geometry = Window {
        kernel: two(&kernel, 1),
        strides: two(&strides, 1),
        pads: if n == 2 {
            [pads[0], pads[1], pads[2], pads[3]]
        } else {
            [0, pads[0], 0, pads[1]]
        },
        dilations: two(&dilations, 1),
    };
    let input = as_2d(cx, &x)?;
    let filter = as_2d(cx, &w)?;
    let bias = cx.has_input(2).then(|| cx.value(2)).transpose()?;
    let padding = two(&output_padding, 0);
    let out = conv_transpose_2d(cx, input, filter, &geometry, &padding, group, bias);
    Ok(vec![from_2d(cx, out, x.shape.len(), x.element)?])
}

/// A glow.graph.conv_transpose2d of `input` [N, C, H, W] and `filter`
/// [C, F / group, KH, KW].
pub(super) fn conv_transpose_2d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    input: Value<'c, 'a>,
    filter: Value<'c, 'a>,
    geometry: &Window,
    output_padding: &[i64; 2],
    group: i64,
    bias: Option<Value<'c, 'a>>,
) -> Value<'c, 'a> {
    let mut builder = glow_graph::ConvTranspose2DOperationBuilder::new(cx.context, cx.location)
        .input(input)
        .filter(filter)
        .strides(cx.array_attr(&geometry.strides))
        .pads(cx.array_attr(&geometry.pads))
        .dilations(cx.array_attr(&geometry.dilations))
        .output_padding(cx.array_attr(output_padding))
        .group(cx.i64_attr(group));
    if let Some(bias) = bias {
        builder = builder.bias(bias);
    }
    cx.emit(builder.build().into())
}
