//! Which kernel a glow.quant.conv2d / fully_connected gets and its compile-time data:
//! the instruction sets a module's kernels use ([`Choice`]), and per op the kernel's
//! text, its packed filter, corrected bias and multipliers ([`Plan`]).

use super::{
    amx_kernel::AmxKernel,
    amx_tiles::TileIsa,
    conv_kernel::{ConvKernel, Isa},
    depthwise_kernel,
    host_cpu::{host_has_amx, host_has_vnni},
    packing,
};
use crate::{
    lower_nodes::builder::tensor_info,
    quantization::ir::{quantized, quantized_constant},
    to_linalg::quantized_contraction::multiplier,
};
use glow_dialects::quant_types::UniformQuantization;
use melior::ir::{attribute::IntegerAttribute, operation::OperationLike, OperationRef};

/// The instruction sets a module's kernels use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// AMX tiles for the layers that suit them.
    tiles: Option<TileIsa>,
    /// The vector kernels' dot products (every other layer).
    vector: Isa,
}

impl Choice {
    /// The choice `isa=...` names (`host` asks this CPU).
    pub fn from_option(isa: &str) -> Self {
        let host_vector = if host_has_vnni() {
            Isa::Avx512Vnni
        } else {
            Isa::Generic
        };
        match isa {
            "amx" => Self {
                tiles: Some(TileIsa::Amx),
                vector: Isa::Avx512Vnni,
            },
            "amx-emulated" => Self {
                tiles: Some(TileIsa::Emulated),
                vector: host_vector,
            },
            "avx512-vnni" => Self {
                tiles: None,
                vector: Isa::Avx512Vnni,
            },
            "generic" => Self {
                tiles: None,
                vector: Isa::Generic,
            },
            _ => Self {
                tiles: host_has_amx().then_some(TileIsa::Amx),
                vector: host_vector,
            },
        }
    }
}

/// Everything a replaced op needs: its kernel and compile-time operands.
pub struct Plan {
    /// The kernel function's name.
    pub name: String,
    /// The kernel function's text.
    pub text: String,
    /// The kernel's input (N, H, W, C).
    pub input: [i64; 4],
    /// The kernel's output (N, OH, OW, padded channels).
    pub output: [i64; 4],
    /// Shape of the packed filter.
    pub filter_shape: Vec<i64>,
    /// Bytes of the packed filter.
    pub packed: Vec<u8>,
    /// The corrected int32 bias per (padded) output channel, then, for offset weights,
    /// the window factors ([`packing::bias_operand`]; a grouped plan's per group).
    pub bias: Vec<i32>,
    /// The f32 requantization multiplier per (padded) output channel.
    pub multipliers: Vec<f32>,
    /// Real output channels (the kernel may compute more).
    pub filters: i64,
    /// For fully_connected: M and N of the 2-D result.
    pub matrix: Option<(i64, i64)>,
    /// Whether the kernel uses AMX tiles (and so the permission helper).
    pub amx: bool,
    /// Whether the result is the exact int32 accumulator (ConvInteger / MatMulInteger).
    pub exact_output: bool,
    /// The function the call site calls first to pad the kernel's input, with the
    /// padded shape (the AMX kernels, which stay functions of their own: their padded
    /// input is then an activation of the caller, planned, not allocated per call).
    pub pad: Option<(String, [i64; 4])>,
}

fn i64_array(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    crate::framework::attributes::i64_array(op, name)
}

/// Integer bias in accumulator units: (qb - zb) when the bias scale is the product
/// of the input and weight scales (onnxruntime's quantizer), else rounded.
pub(super) fn accumulator_bias(
    bias: Option<(Vec<i64>, UniformQuantization)>,
    products: &[f64],
) -> Vec<i64> {
    let Some((values, q)) = bias else {
        return vec![0; products.len()];
    };
    values
        .iter()
        .enumerate()
        .map(|(c, v)| {
            let centred = v - q.zero_point(c);
            let (scale, product) = (q.scale(c), products[c]);
            if (scale - product).abs() <= 1e-6 * product.abs() {
                centred
            } else {
                (centred as f64 * scale / product).round_ties_even() as i64
            }
        })
        .collect()
}

/// The f32 requantization multiplier of each output channel (1 for an exact int32
/// result), padded with zeros to `padded` channels.
pub(super) fn channel_multipliers(
    products: &[f64],
    yq: &UniformQuantization,
    padded: usize,
) -> Vec<f32> {
    let exact_output = yq.width == 32;
    let mut multipliers: Vec<f32> = products
        .iter()
        .map(|p| {
            if exact_output {
                1.0
            } else {
                multiplier(*p, yq.scales[0]) as f32
            }
        })
        .collect();
    multipliers.resize(padded.max(products.len()), 0.0);
    multipliers
}

/// The input zero point as the unsigned byte the kernels read (a signed input is read
/// with its sign bit flipped, i.e. plus 128).
pub(super) fn unsigned_input_zero(xq: &UniformQuantization) -> i64 {
    if xq.signed {
        xq.zero_points[0] + 128
    } else {
        xq.zero_points[0]
    }
}

/// The plan for a glow.quant.conv2d / fully_connected, or None when the op is not one
/// the kernel handles.
pub fn plan(op: OperationRef, choice: Choice, name: String) -> Option<Plan> {
    let isa = choice.vector;
    let op_name = op.name().as_string_ref().as_str().ok()?.to_string();
    let conv = op_name == "glow.quant.conv2d";
    let input = op.operand(0).ok()?;
    let (x_shape, xq) = quantized(input)?;
    let (y_shape, yq) = quantized(op.result(0).ok()?.into())?;
    let (w_shape, w_values, wq) = quantized_constant(op.operand(1).ok()?)?;
    // An int32 result is the exact accumulator (scale 1, zero point 0, no clamp).
    let exact_output = yq.width == 32;
    let exact_ok = yq.signed && yq.scales == [1.0] && yq.zero_points == [0] && yq.axis.is_none();
    if !(yq.width == 8 || exact_output && exact_ok)
        || xq.width != 8
        || wq.width != 8
        || xq.axis.is_some()
    {
        return None;
    }
    let bias = match crate::quantization::ir::operand(op, 2) {
        Some(b) => Some(quantized_constant(b).map(|(_, v, q)| (v, q))?),
        None => None,
    };
    // Filter as F x C x KH x KW, and the kernel geometry.
    let (filter_values, filters, channels, kh, kw, matrix) = if conv {
        if op.attribute("channels_last").is_err() {
            return None;
        }
        let group = op
            .attribute("group")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(1, |g| g.value());
        if group != 1 {
            let channels = x_shape[3];
            let depthwise = group == channels && w_shape[0] == channels && w_shape[1] == 1;
            if depthwise {
                return depthwise_plan(
                    op, isa, name, &x_shape, &xq, &yq, &w_shape, &w_values, &wq, bias, group,
                );
            }
            // Groups of a multiple of 4 channels on the dense kernel, a group at a time.
            let a = |n| i64_array(op, n);
            let geometry = super::grouped::Grouped {
                x_shape: &x_shape,
                y_shape: &y_shape,
                w_shape: &w_shape,
                w_values: &w_values,
                group,
                strides: a("strides")?,
                pads: a("pads")?,
                dilations: a("dilations")?,
            };
            return super::grouped::grouped_plan(op, isa, name, &geometry, &xq, &yq, &wq, bias);
        }
        (
            w_values, w_shape[0], w_shape[1], w_shape[2], w_shape[3], None,
        )
    } else {
        // K x N -> N x K x 1 x 1.
        let (k, n) = (w_shape[0], w_shape[1]);
        let mut transposed = vec![0i64; (k * n) as usize];
        for row in 0..k as usize {
            for col in 0..n as usize {
                transposed[col * k as usize + row] = w_values[row * n as usize + col];
            }
        }
        (transposed, n, k, 1, 1, Some((x_shape[0], n)))
    };
    // Weights centred on their zero points, or offset into int8 with window sums.
    let per_filter = (channels * kh * kw) as usize;
    let weights = packing::kernel_weights(&filter_values, &wq.zero_points, per_filter, wq.signed);
    let filter = packing::Filter {
        values: &weights.values,
        filters: filters as usize,
        channels: channels as usize,
        kernel_h: kh as usize,
        kernel_w: kw as usize,
    };
    let packed = filter.packed();
    let sums = &weights.centred_sums;
    let factors = weights.window_factors.as_deref();
    let products: Vec<f64> = (0..filters as usize)
        .map(|c| (xq.scales[0] as f32 * wq.scale(c) as f32) as f64)
        .collect();
    let input_zero = xq.zero_points[0];
    let unsigned_zero = unsigned_input_zero(&xq);
    let padded = filter.padded_filters();
    let accumulator = accumulator_bias(bias, &products);
    let multipliers = channel_multipliers(&products, &yq, padded);
    let (low, high) = crate::to_linalg::quantized_contraction::clamp_bounds(op, &yq);
    let (input, strides, pads, dilations, output) = if conv {
        let a = |n| i64_array(op, n);
        (
            [x_shape[0], x_shape[1], x_shape[2], x_shape[3]],
            a("strides")?,
            a("pads")?,
            a("dilations")?,
            [y_shape[1], y_shape[2]],
        )
    } else {
        (
            [1, 1, x_shape[0], x_shape[1]],
            vec![1, 1],
            vec![0, 0, 0, 0],
            vec![1, 1],
            [1, x_shape[0]],
        )
    };
    let quads = kh * kw * filter.padded_channels() as i64 / 4;
    let packed_shape = vec![padded as i64 / 16, quads, 64];
    // The AMX kernels requantize to bytes from centred weights: exact results and
    // offset weights take the vector kernel.
    if let Some(tiles) = choice.tiles.filter(|_| !exact_output && factors.is_none()) {
        // AMX multiplies the stored bytes as they are (tdpbssd for int8 input), so
        // the correction uses the stored zero point.
        let kernel = AmxKernel {
            name: name.clone(),
            input,
            padded_channels: filter.padded_channels() as i64,
            kernel: [kh, kw],
            pads: [pads[0], pads[1], pads[2], pads[3]],
            strides: [strides[0], strides[1]],
            dilations: [dilations[0], dilations[1]],
            output,
            padded_filters: padded as i64,
            signed_input: xq.signed,
            input_zero,
            output_zero: yq.zero_points[0],
            low,
            high,
            isa: tiles,
        };
        if let Some(text) = kernel.text() {
            return Some(Plan {
                text,
                name,
                input,
                output: [input[0], output[0], output[1], padded as i64],
                filter_shape: packed_shape,
                packed: packed.clone(),
                bias: packing::corrected_bias(&accumulator, sums, input_zero, padded),
                multipliers,
                filters,
                matrix,
                amx: tiles == TileIsa::Amx,
                exact_output: false,
                pad: kernel
                    .pad_function()
                    .map(|function| (function, kernel.padded_input())),
            });
        }
    }
    let kernel = ConvKernel {
        name: name.clone(),
        input,
        padded_channels: filter.padded_channels() as i64,
        kernel: [kh, kw],
        pads: [pads[0], pads[1], pads[2], pads[3]],
        strides: [strides[0], strides[1]],
        dilations: [dilations[0], dilations[1]],
        output,
        padded_filters: padded as i64,
        signed_input: xq.signed,
        input_zero,
        output_zero: yq.zero_points[0],
        low,
        high,
        isa,
        exact_output,
        window_sums: if factors.is_some() {
            super::window_sums::WindowSums::InKernel
        } else {
            super::window_sums::WindowSums::None
        },
    };
    Some(Plan {
        text: kernel.text(),
        name,
        input: kernel.input,
        output: [
            kernel.input[0],
            kernel.output[0],
            kernel.output[1],
            kernel.padded_filters,
        ],
        filter_shape: packed_shape,
        packed,
        bias: packing::bias_operand(
            packing::corrected_bias(&accumulator, sums, unsigned_zero, padded),
            factors,
        ),
        multipliers,
        filters,
        matrix,
        amx: false,
        exact_output,
        pad: None,
    })
}

/// The plan for a depthwise glow.quant.conv2d (C x 1 x KH x KW filter, group C, NHWC;
/// the kernel computes C rounded up to 16 channels), or None.
#[allow(clippy::too_many_arguments)]
fn depthwise_plan(
    op: OperationRef,
    isa: Isa,
    name: String,
    x_shape: &[i64],
    xq: &UniformQuantization,
    yq: &UniformQuantization,
    w_shape: &[i64],
    w_values: &[i64],
    wq: &UniformQuantization,
    bias: Option<(Vec<i64>, UniformQuantization)>,
    group: i64,
) -> Option<Plan> {
    let channels = x_shape[3];
    if group != channels || w_shape[0] != channels || w_shape[1] != 1 {
        return None;
    }
    let padded = (channels + 15) / 16 * 16;
    let (kh, kw) = (w_shape[2], w_shape[3]);
    let y_shape = tensor_info(op.result(0).ok()?.into())?.0;
    // Weights centred on their zero points, in one or two int8 parts.
    let parts = packing::split_weights(w_values, &wq.zero_points, (kh * kw) as usize)?;
    let products: Vec<f64> = (0..channels as usize)
        .map(|c| (xq.scales[0] as f32 * wq.scale(c) as f32) as f64)
        .collect();
    let sums: Vec<i64> = (0..channels as usize)
        .map(|c| {
            let taps = c * (kh * kw) as usize..(c + 1) * (kh * kw) as usize;
            parts
                .iter()
                .map(|p| p[taps.clone()].iter().sum::<i64>())
                .sum()
        })
        .collect();
    let input_zero = xq.zero_points[0];
    let unsigned_zero = unsigned_input_zero(xq);
    let bias = packing::corrected_bias(
        &accumulator_bias(bias, &products),
        &sums,
        unsigned_zero,
        padded as usize,
    );
    let exact_output = yq.width == 32;
    let multipliers = channel_multipliers(&products, yq, padded as usize);
    let (low, high) = crate::to_linalg::quantized_contraction::clamp_bounds(op, yq);
    let a = |n| i64_array(op, n);
    let (strides, pads, dilations) = (a("strides")?, a("pads")?, a("dilations")?);
    let kernel = depthwise_kernel::DepthwiseKernel {
        name: name.clone(),
        input: [x_shape[0], x_shape[1], x_shape[2], channels],
        channels: padded,
        kernel: [kh, kw],
        pads: [pads[0], pads[1], pads[2], pads[3]],
        strides: [strides[0], strides[1]],
        dilations: [dilations[0], dilations[1]],
        output: [y_shape[1], y_shape[2]],
        signed_input: xq.signed,
        input_zero,
        output_zero: yq.zero_points[0],
        low,
        high,
        isa,
        weight_parts: parts.len() as i64,
        exact_output,
    };
    Some(Plan {
        text: kernel.text(),
        name,
        input: kernel.input,
        output: [x_shape[0], y_shape[1], y_shape[2], padded],
        filter_shape: vec![padded / 16, (kh + 3) / 4 * parts.len() as i64, kw, 64],
        packed: depthwise_kernel::pack_depthwise_parts(
            &parts,
            channels as usize,
            kh as usize,
            kw as usize,
        ),
        bias,
        multipliers,
        filters: channels,
        matrix: None,
        amx: false,
        exact_output,
        pad: None,
    })
}
