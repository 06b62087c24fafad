//! Grouped int8 convolutions (neither dense nor depthwise: RegNet's and ResNeXt's
//! group widths of 4 to 64 channels) on the dense VNNI kernel: one kernel for a
//! group's geometry (`C / group` input channels, `F / group` filters padded to 16),
//! called once per group by a wrapper function whose loop slices the group's input
//! channels, packed filter rows, bias and multipliers out of constants that hold every
//! group's, and inserts the group's filters into the result. The loop keeps one copy
//! of the kernel per layer after inlining; the reference lowering ran these layers as
//! scalar loops (quantize_dynamic RegNetY-400MF 38 ms, onnxruntime 10.7).

use super::{
    conv_kernel::{ConvKernel, Isa},
    kernel_text::{tensor, Text},
    packing,
    plan::{accumulator_bias, channel_multipliers, unsigned_input_zero, Plan},
    window_sums::{self, WindowSums},
};
use crate::to_linalg::quantized_contraction::clamp_bounds;
use glow_dialects::quant_types::UniformQuantization;
use melior::ir::{operation::OperationLike, OperationRef};
use std::fmt::Write;

/// A grouped convolution's shapes and attributes, as `plan` reads them.
pub struct Grouped<'a> {
    /// Input N, H, W, C.
    pub x_shape: &'a [i64],
    /// Result N, OH, OW, F.
    pub y_shape: &'a [i64],
    /// Filter F x C/group x KH x KW.
    pub w_shape: &'a [i64],
    /// The filter's stored values.
    pub w_values: &'a [i64],
    /// Groups.
    pub group: i64,
    /// [h, w].
    pub strides: Vec<i64>,
    /// [top, left, bottom, right].
    pub pads: Vec<i64>,
    /// [h, w].
    pub dilations: Vec<i64>,
}

/// Whether an NCHW grouped glow.quant.conv2d (`glow-channels-last{grouped-int8}` asks)
/// is one [`grouped_plan`] takes once in NHWC: 8-bit per-tensor input, an 8-bit or
/// exact int32 result, a constant 8-bit filter, neither one group nor depthwise,
/// groups of a multiple of 4 channels (the kernel's quads, so that it pads nothing
/// itself).
pub fn takes(op: OperationRef) -> bool {
    use crate::quantization::ir::{quantized, quantized_constant};
    let check = || -> Option<bool> {
        let (x_shape, xq) = quantized(op.operand(0).ok()?)?;
        let (_, yq) = quantized(op.result(0).ok()?.into())?;
        let (w_shape, _, wq) = quantized_constant(op.operand(1).ok()?)?;
        let group = crate::framework::attributes::i64_value(op, "group").unwrap_or(1);
        let exact = yq.width == 32
            && yq.signed
            && yq.scales == [1.0]
            && yq.zero_points == [0]
            && yq.axis.is_none();
        let (channels, filters) = (*x_shape.get(1)?, *w_shape.first()?);
        let depthwise = group == channels && w_shape.get(1) == Some(&1);
        Some(
            x_shape.len() == 4
                && w_shape.len() == 4
                && xq.width == 8
                && xq.axis.is_none()
                && wq.width == 8
                && (yq.width == 8 || exact)
                && group > 1
                && !depthwise
                && channels % group == 0
                && filters % group == 0
                && (channels / group) % 4 == 0
                && w_shape[1] * group == channels,
        )
    };
    check().unwrap_or(false)
}

/// The plan for a channels-last grouped glow.quant.conv2d, or None when the channels
/// do not split into the groups.
#[allow(clippy::too_many_arguments)]
pub fn grouped_plan(
    op: OperationRef,
    isa: Isa,
    name: String,
    g: &Grouped,
    xq: &UniformQuantization,
    yq: &UniformQuantization,
    wq: &UniformQuantization,
    bias: Option<(Vec<i64>, UniformQuantization)>,
) -> Option<Plan> {
    let (channels, filters, group) = (g.x_shape[3], g.w_shape[0], g.group);
    if group < 2
        || channels % group != 0
        || filters % group != 0
        || g.w_shape[1] * group != channels
        || (channels / group) % 4 != 0
    {
        return None;
    }
    let exact_output = yq.width == 32;
    let (cg, fg, kh, kw) = (
        channels / group,
        filters / group,
        g.w_shape[2],
        g.w_shape[3],
    );
    let per_filter = (cg * kh * kw) as usize;
    // Centred (or offset) for every group alike, so that one kernel serves them all.
    let weights = packing::kernel_weights(g.w_values, &wq.zero_points, per_filter, wq.signed);
    let factors = weights.window_factors.as_deref();
    let products: Vec<f64> = (0..filters as usize)
        .map(|c| (xq.scales[0] as f32 * wq.scale(c) as f32) as f64)
        .collect();
    let accumulator = accumulator_bias(bias, &products);
    let unsigned_zero = unsigned_input_zero(xq);
    let (mut packed, mut biases, mut multipliers) = (Vec::new(), Vec::new(), Vec::new());
    let mut geometry = None;
    for index in 0..group as usize {
        let own = index * fg as usize..(index + 1) * fg as usize;
        let filter = packing::Filter {
            values: &weights.values[own.start * per_filter..own.end * per_filter],
            filters: fg as usize,
            channels: cg as usize,
            kernel_h: kh as usize,
            kernel_w: kw as usize,
        };
        let padded = filter.padded_filters();
        geometry = Some((padded, filter.padded_channels(), filter.reduction_quads()));
        packed.extend(filter.packed());
        // Each group's bias, then its window factors (one slice per call).
        biases.extend(packing::bias_operand(
            packing::corrected_bias(
                &accumulator[own.clone()],
                &weights.centred_sums[own.clone()],
                unsigned_zero,
                padded,
            ),
            factors.map(|k| &k[own.clone()]),
        ));
        multipliers.extend(channel_multipliers(&products[own], yq, padded));
    }
    let (padded, padded_channels, quads) = geometry?;
    let (low, high) = clamp_bounds(op, yq);
    // The wrapper pads the whole input once (an allocation inside its loop could not
    // be planned); the kernel reads padded group slices.
    let kernel = ConvKernel {
        name: format!("{name}_group"),
        input: [
            g.x_shape[0],
            g.x_shape[1] + g.pads[0] + g.pads[2],
            g.x_shape[2] + g.pads[1] + g.pads[3],
            cg,
        ],
        padded_channels: padded_channels as i64,
        kernel: [kh, kw],
        pads: [0, 0, 0, 0],
        strides: [g.strides[0], g.strides[1]],
        dilations: [g.dilations[0], g.dilations[1]],
        output: [g.y_shape[1], g.y_shape[2]],
        padded_filters: padded as i64,
        signed_input: xq.signed,
        input_zero: xq.zero_points[0],
        output_zero: yq.zero_points[0],
        low,
        high,
        isa,
        exact_output,
        window_sums: if factors.is_some() {
            WindowSums::Operand
        } else {
            WindowSums::None
        },
    };
    let rows = [padded as i64 / 16, quads as i64];
    let text = kernel.text() + &wrapper(&name, &kernel, g, filters, rows);
    Some(Plan {
        text,
        name,
        input: [g.x_shape[0], g.x_shape[1], g.x_shape[2], channels],
        output: [g.y_shape[0], g.y_shape[1], g.y_shape[2], filters],
        filter_shape: vec![group * rows[0], rows[1], 64],
        packed,
        bias: biases,
        multipliers,
        filters,
        matrix: None,
        amx: false,
        exact_output,
        pad: None,
    })
}

/// The function `name`: the input padded once, then every group's slice through the
/// group kernel in a loop whose scratch result is carried (no allocation inside it).
/// The loop is an `affine.for`: the inliner moves the kernel's `affine.apply`s only
/// into affine scopes and loops (into an `scf.for` it left the call in place).
/// `rows`: a group's packed filter rows (16-filter blocks, quads). For offset weights
/// every group's window sums are computed before the loop, and each call gets its
/// group's.
fn wrapper(name: &str, kernel: &ConvKernel, g: &Grouped, filters: i64, rows: [i64; 2]) -> String {
    let group = g.group;
    let [n, hp, wp, cg] = kernel.input;
    let (oh, ow, padded) = (kernel.output[0], kernel.output[1], kernel.padded_filters);
    let fg = filters / group;
    let element = if kernel.exact_output { "i32" } else { "i8" };
    let x = tensor(g.x_shape, "i8");
    let xp = tensor(&[n, hp, wp, cg * group], "i8");
    let xg = tensor(&kernel.input, "i8");
    let all_rows = tensor(&[group * rows[0], rows[1], 64], "i8");
    let own_rows = tensor(&[rows[0], rows[1], 64], "i8");
    let (all, own) = (group * padded, padded);
    // A group's int32 operand: its bias, then its window factors for offset weights.
    let offset_weights = kernel.window_sums == WindowSums::Operand;
    let own_bias = if offset_weights { 2 * own } else { own };
    let all_bias = group * own_bias;
    let y = tensor(&[n, oh, ow, filters], element);
    let yg = tensor(&[n, oh, ow, padded], element);
    let ys = tensor(&[n, oh, ow, fg], element);
    let kernel_name = &kernel.name;
    let zero = kernel.input_zero as u8 as i8;
    let p = &g.pads;
    let padded_input = if p.iter().any(|v| *v != 0) {
        format!(
            "  %zero = arith.constant {zero} : i8
  %xp = tensor.pad %x low[0, {}, {}, 0] high[0, {}, {}, 0] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : i8
  }} : {x} to {xp}
",
            p[0], p[1], p[2], p[3]
        )
    } else {
        "  %xp = tensor.cast %x : ".to_string() + &format!("{x} to {xp}\n")
    };
    // Every group's window sums, then a group's slice per call.
    let (mut sums, mut sums_slice, mut sums_operand, mut sums_type) =
        (String::new(), String::new(), String::new(), String::new());
    if offset_weights {
        let mut text = Text::default();
        let all = window_sums::window_sums(&mut text, kernel, group, "%xp", &xp);
        let (all_type, own_type) = (
            window_sums::group_sums_type(kernel, group),
            window_sums::sums_type(kernel),
        );
        sums = text.out;
        sums_slice = format!(
            "    %sg = tensor.extract_slice {all}[%g, 0, 0, 0] [1, {n}, {oh}, {ow}] [1, 1, 1, 1] : {all_type} to {own_type}\n"
        );
        sums_operand = "%sg, ".to_string();
        sums_type = format!("{own_type}, ");
    }
    let mut t = String::new();
    let _ = write!(
        t,
        "func.func private @{name}(%x: {x}, %w: {all_rows}, %bias: tensor<{all_bias}xi32>, %mult: tensor<{all}xf32>, %init: {y}) -> {y} {{
{padded_input}{sums}  %scratch0 = tensor.empty() : {yg}
  %r:2 = affine.for %g = 0 to {group} iter_args(%acc = %init, %scratch = %scratch0) -> ({y}, {yg}) {{
    %channel = affine.apply affine_map<(d0) -> (d0 * {cg})>(%g)
    %xg = tensor.extract_slice %xp[0, 0, 0, %channel] [{n}, {hp}, {wp}, {cg}] [1, 1, 1, 1] : {xp} to {xg}
    %row = affine.apply affine_map<(d0) -> (d0 * {r0})>(%g)
    %wg = tensor.extract_slice %w[%row, 0, 0] [{r0}, {r1}, 64] [1, 1, 1] : {all_rows} to {own_rows}
    %lane = affine.apply affine_map<(d0) -> (d0 * {own})>(%g)
    %bias_lane = affine.apply affine_map<(d0) -> (d0 * {own_bias})>(%g)
    %bg = tensor.extract_slice %bias[%bias_lane] [{own_bias}] [1] : tensor<{all_bias}xi32> to tensor<{own_bias}xi32>
    %mg = tensor.extract_slice %mult[%lane] [{own}] [1] : tensor<{all}xf32> to tensor<{own}xf32>
{sums_slice}    %yg = func.call @{kernel_name}(%xg, %wg, %bg, %mg, {sums_operand}%scratch) : ({xg}, {own_rows}, tensor<{own_bias}xi32>, tensor<{own}xf32>, {sums_type}{yg}) -> {yg}
    %ys = tensor.extract_slice %yg[0, 0, 0, 0] [{n}, {oh}, {ow}, {fg}] [1, 1, 1, 1] : {yg} to {ys}
    %filter = affine.apply affine_map<(d0) -> (d0 * {fg})>(%g)
    %next = tensor.insert_slice %ys into %acc[0, 0, 0, %filter] [{n}, {oh}, {ow}, {fg}] [1, 1, 1, 1] : {ys} into {y}
    affine.yield %next, %yg : {y}, {yg}
  }}
  return %r#0 : {y}
}}
",
        r0 = rows[0],
        r1 = rows[1],
    );
    t
}
