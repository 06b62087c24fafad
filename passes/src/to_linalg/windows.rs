//! conv2d and pooling to linalg's convolution / pooling named ops, in the op's layout:
//! - conv2d, `channels_last` (group 1 or depthwise): tensor.pad with zeros, the filter
//!   relaid out to HWCF (HWC for depthwise; at compile time for constant weights),
//!   linalg.conv_2d_nhwc_hwcf / depthwise_conv_2d_nhwc_hwc accumulating into the
//!   broadcast bias
//! - conv2d, NCHW: tensor.pad with zeros, linalg.conv_2d_nchw_fchw (group 1) or
//!   linalg.conv_2d_ngchw_gfchw on reshaped operands (grouped and depthwise), into a
//!   zero-filled init; the bias is broadcast and added
//! - max_pool: tensor.pad with -inf (or the integer minimum), linalg.pooling_nchw_max
//!   (pooling_nhwc_max when `channels_last`)
//! - avg_pool: tensor.pad with zeros, linalg.pooling_nchw_sum (or nhwc), divided by the window
//!   size, or (without count_include_pad) by the count of real elements, computed by
//!   pooling a tensor of ones padded with zeros

use super::builder::{is_float, LinalgBuilder};
use crate::{
    framework::{dead_weights::erase_dead_weights, Rule},
    lower_nodes::builder::tensor_info,
};
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        Attribute, OperationRef, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

use crate::framework::attributes::i64_array as array;

pub(super) fn scalar<'c>(context: &'c Context, element: Type<'c>, value: f64) -> Attribute<'c> {
    if is_float(element) {
        FloatAttribute::new(context, element, value).into()
    } else {
        let width = IntegerType::try_from(element)
            .map(|t| t.width())
            .unwrap_or(64);
        let v = if value == f64::NEG_INFINITY {
            i64::MIN >> (64 - width)
        } else {
            value as i64
        };
        IntegerAttribute::new(element, v).into()
    }
}

/// `input` padded by [top, left, bottom, right] on its spatial dimensions (2 and 3,
/// or 1 and 2 when `channels_last`) with `fill`.
fn pad_spatial<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    input: Value<'c, '_>,
    pads: &[i64],
    channels_last: bool,
    fill: Attribute<'c>,
    element: Type<'c>,
) -> Value<'c, 'r> {
    if pads.iter().all(|p| *p == 0) {
        // SAFETY: the value belongs to the IR being rewritten, which outlives the rewrite.
        return unsafe { Value::from_raw(input.to_raw()) };
    }
    let (low, high) = if channels_last {
        ([0, pads[0], pads[1], 0], [0, pads[2], pads[3], 0])
    } else {
        ([0, 0, pads[0], pads[1]], [0, 0, pads[2], pads[3]])
    };
    b.pad(input, &low, &high, fill, element)
}

/// The output width to compute for a row `width` wide whose register tiles are up to
/// `widest` columns and should be at least `narrowest`: `width` itself when it has a
/// divisor in that range (or is at most `widest`), else the next width that has one.
/// Dense convolutions (7 to 14 columns): 109 -> 110, 17 -> 18, 71 -> 72, 149 -> 150;
/// the next multiple of 7 wasted more (Inception-v3's 17 x 17 layers computed 21
/// columns, a quarter of their work thrown away). Depthwise ones (5 to 8): 19 -> 20,
/// 38 -> 40 (MobileNetV2 at 300 x 300: 576 channels at 19 x 19 ran one column at a
/// time).
fn wider_row(width: i64, narrowest: i64, widest: i64) -> i64 {
    (width..)
        .find(|w| *w <= widest || (narrowest..=widest).any(|d| w % d == 0))
        .expect("every multiple of `widest` qualifies")
}

/// The constant OIHW `filter` (and constant `bias`) of `f = w_shape[0]` filters, when
/// `f` is above 16 and no multiple of it, with zero filters (and biases) added up to
/// the next multiple of 16, and that width; `None` otherwise or when a weight is not a
/// constant.
fn widened_filters<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    filter: Value<'c, '_>,
    bias: Option<Value<'c, '_>>,
    w_shape: &[i64],
) -> Option<(Value<'c, 'r>, Option<Value<'c, 'r>>, i64)> {
    use crate::quantization::ir::{elements_attribute, float_constant};
    let f = w_shape[0];
    if f <= 16 || f % 16 == 0 {
        return None;
    }
    let wide_f = (f + 15) / 16 * 16;
    let per_filter: i64 = w_shape[1..].iter().product();
    let mut values = float_constant(filter, (f * per_filter) as usize)?;
    let bias_values = match bias {
        Some(bias) => Some(float_constant(bias, f as usize)?),
        None => None,
    };
    let (_, element) = tensor_info(filter)?;
    let constant = |mut values: Vec<f32>, shape: &[i64]| {
        values.resize(shape.iter().product::<i64>() as usize, 0.0);
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let r#type = b.tensor(shape, element);
        b.constant(elements_attribute(r#type, &bytes, "widened"), r#type)
    };
    values.truncate((f * per_filter) as usize);
    let filter = constant(values, &[wide_f, w_shape[1], w_shape[2], w_shape[3]]);
    let bias = bias_values.map(|values| constant(values, &[wide_f]));
    Some((filter, bias, wide_f))
}

/// The conversion of `glow.graph.conv2d`.
pub static CONV2D: Rule = Rule {
    root: "glow.graph.conv2d",
    generates: &[
        "linalg.conv_2d_nchw_fchw",
        "linalg.conv_2d_ngchw_gfchw",
        "linalg.conv_2d_nhwc_hwcf",
        "linalg.depthwise_conv_2d_nhwc_hwc",
    ],
    rewrite: conv2d,
};
/// The conversion of `glow.graph.max_pool`.
pub static MAX_POOL: Rule = Rule {
    root: "glow.graph.max_pool",
    generates: &["linalg.pooling_nchw_max", "linalg.pooling_nhwc_max"],
    rewrite: max_pool,
};
/// The conversion of `glow.graph.avg_pool`.
pub static AVG_POOL: Rule = Rule {
    root: "glow.graph.avg_pool",
    generates: &["linalg.pooling_nchw_sum", "linalg.pooling_nhwc_sum"],
    rewrite: avg_pool,
};

/// The operands, shapes and geometry of a conv2d / conv_transpose2d, read once for
/// both conversions. None for half precision (accumulated in f32 by
/// half_precision.rs) or non-static operands.
pub(super) struct Convolution<'c, 'a> {
    pub input: Value<'c, 'a>,
    pub filter: Value<'c, 'a>,
    pub x_shape: Vec<i64>,
    pub w_shape: Vec<i64>,
    pub y_shape: Vec<i64>,
    pub element: Type<'c>,
    pub strides: Vec<i64>,
    pub pads: Vec<i64>,
    pub dilations: Vec<i64>,
    pub group: i64,
}

pub(super) fn convolution<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Convolution<'c, 'a>> {
    let (input, filter, result) = (op.operand(0).ok()?, op.operand(1).ok()?, op.result(0).ok()?);
    let (x_shape, element) = tensor_info(input)?;
    let (w_shape, _) = tensor_info(filter)?;
    let (y_shape, _) = tensor_info(result.into())?;
    if super::half_precision::is_half(element) {
        return None;
    }
    Some(Convolution {
        input,
        filter,
        x_shape,
        w_shape,
        y_shape,
        element,
        strides: array(op, "strides")?,
        pads: array(op, "pads")?,
        dilations: array(op, "dilations")?,
        group: op
            .attribute("group")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(1, |g| g.value()),
    })
}

fn conv2d<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(result), Some(conv)) = (op.result(0), convolution(op)) else {
        return false;
    };
    let Convolution {
        input,
        filter,
        x_shape,
        w_shape,
        y_shape,
        element,
        strides,
        pads,
        dilations,
        group,
    } = conv;
    let channels_last = op.attribute("channels_last").is_ok();
    let c = x_shape[if channels_last { 3 } else { 1 }];
    let f = w_shape[0];
    let depthwise = group > 1 && group == c && f == c && w_shape[1] == 1;
    if channels_last && group != 1 && !depthwise {
        // No channels-last grouped convolution in linalg: reported as unconverted.
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let zero = scalar(context, element, 0.0);
    let attributes = [
        ("strides", b.i64_elements(&strides)),
        ("dilations", b.i64_elements(&dilations)),
    ];
    // A channels-last output row whose width has no divisor the register tiles can
    // use (109 = prime: 1-wide tiles; 19 for a depthwise one) is computed a few
    // columns wider, from zero columns on the right of the input, and the real
    // columns are sliced out.
    let mut pads = pads;
    let wide = match (channels_last, depthwise) {
        (true, false) => wider_row(y_shape[2], 7, 14),
        (true, true) => wider_row(y_shape[2], 5, 8),
        (false, _) => y_shape[2],
    };
    let extra_columns = (wide - y_shape[2]) * strides[1];
    pads[3] += extra_columns;
    let padded = pad_spatial(&b, input, &pads, channels_last, zero, element);
    let original_weights = [Some(filter), crate::quantization::ir::operand(op, 2)];
    // Output channels that no 16-lane register tile divides (1000 classes: 8-lane
    // tiles, half the vector width) are computed up to the next multiple of 16 from
    // zero filters added to the constant weights at compile time, and sliced off.
    let (filter, bias, wide_f) = match channels_last && !depthwise {
        true => widened_filters(&b, filter, original_weights[1], &w_shape),
        false => None,
    }
    .unwrap_or((filter, original_weights[1], f));
    let computed = b.tensor(&[y_shape[0], y_shape[1], wide, wide_f], element);
    let converted = if channels_last {
        // The bias (or zero) broadcast over the output is the accumulator's start.
        let init = match bias {
            Some(bias) => b.named(
                "linalg.broadcast",
                &[bias],
                b.empty(computed),
                computed,
                &[("dimensions", b.array(&[0, 1, 2]))],
            ),
            None => b.zeros(computed, zero),
        };
        if depthwise {
            // [C, 1, KH, KW] -> [KH, KW, C]
            let filter_hwc = b.transpose(filter, &[2, 3, 0, 1]);
            let filter_hwc = b.reshape(filter_hwc, &[w_shape[2], w_shape[3], c], element);
            let convolved = b.named(
                "linalg.depthwise_conv_2d_nhwc_hwc",
                &[padded, filter_hwc],
                init,
                computed,
                &attributes,
            );
            if wide == y_shape[2] {
                convolved
            } else {
                b.extract_slice(convolved, &[0, 0, 0, 0], &y_shape)
            }
        } else {
            let filter_hwcf = b.transpose(filter, &[2, 3, 1, 0]);
            let convolved = b.named(
                "linalg.conv_2d_nhwc_hwcf",
                &[padded, filter_hwcf],
                init,
                computed,
                &attributes,
            );
            if wide == y_shape[2] && wide_f == f {
                convolved
            } else {
                b.extract_slice(convolved, &[0, 0, 0, 0], &y_shape)
            }
        }
    } else {
        let convolved = if group == 1 {
            let init = b.zeros(result.r#type(), zero);
            b.named(
                "linalg.conv_2d_nchw_fchw",
                &[padded, filter],
                init,
                result.r#type(),
                &attributes,
            )
        } else {
            let (n, h, w) = (
                x_shape[0],
                x_shape[2] + pads[0] + pads[2],
                x_shape[3] + pads[1] + pads[3],
            );
            let grouped_input = b.reshape(padded, &[n, group, c / group, h, w], element);
            let grouped_filter = b.reshape(
                filter,
                &[group, f / group, w_shape[1], w_shape[2], w_shape[3]],
                element,
            );
            let grouped_type = b.tensor(&[n, group, f / group, y_shape[2], y_shape[3]], element);
            let init = b.zeros(grouped_type, zero);
            let grouped = b.named(
                "linalg.conv_2d_ngchw_gfchw",
                &[grouped_input, grouped_filter],
                init,
                grouped_type,
                &attributes,
            );
            b.reshape(grouped, &y_shape, element)
        };
        match crate::quantization::ir::operand(op, 2) {
            Some(bias) => {
                let wide = b.named(
                    "linalg.broadcast",
                    &[bias],
                    b.empty(result.r#type()),
                    result.r#type(),
                    &[("dimensions", b.array(&[0, 2, 3]))],
                );
                b.named(
                    "linalg.add",
                    &[convolved, wide],
                    b.empty(result.r#type()),
                    result.r#type(),
                    &[],
                )
            }
            None => convolved,
        }
    };
    rewriter.replace_op_with_values(op, &[converted]);
    // A filter relaid out at compile time leaves the original without users.
    let originals: Vec<Value> = original_weights.into_iter().flatten().collect();
    erase_dead_weights(rewriter, &originals);
    true
}

/// Shared by the pools: input, result, element type, kernel, strides, pads, dilations.
struct Pool<'c, 'a> {
    input: Value<'c, 'a>,
    result_type: Type<'c>,
    element: Type<'c>,
    kernel: Vec<i64>,
    strides: Vec<i64>,
    pads: Vec<i64>,
    dilations: Vec<i64>,
    channels_last: bool,
}

fn pool_operands<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Pool<'c, 'a>> {
    let input = op.operand(0).ok()?;
    let (_, element) = tensor_info(input)?;
    Some(Pool {
        input,
        result_type: op.result(0).ok()?.r#type(),
        element,
        kernel: array(op, "kernel")?,
        strides: array(op, "strides")?,
        pads: array(op, "pads")?,
        dilations: array(op, "dilations")?,
        channels_last: op.attribute("channels_last").is_ok(),
    })
}

/// The static shape of a ranked tensor type.
fn tensor_info_of_type(r#type: Type) -> Option<Vec<i64>> {
    use melior::ir::r#type::{DimSize, RankedTensorType, ShapedTypeLike};
    let ranked = RankedTensorType::try_from(r#type).ok()?;
    (0..ranked.rank())
        .map(|d| match ranked.dim_size(d) {
            Ok(DimSize::Static(n)) => Some(n as i64),
            _ => None,
        })
        .collect()
}

/// The pooling named op `kind` ("max" or "sum") in the pool's layout.
fn pooled<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    kind: &str,
    input: Value<'c, '_>,
    pool: &Pool<'c, '_>,
    init_value: Attribute<'c>,
) -> Value<'c, 'r> {
    if let Some(global) = global_pooled(b, kind, input, pool, init_value) {
        return global;
    }
    let window = b.empty(b.tensor(&pool.kernel, pool.element));
    let init = b.zeros(pool.result_type, init_value);
    let layout = if pool.channels_last { "nhwc" } else { "nchw" };
    // Exactly the rows and columns the windows read (ceil-mode pads can leave more):
    // linalg's verifier, in MLIR after 22, requires the input to match the windows.
    let input = match (tensor_info(input), tensor_info_of_type(pool.result_type)) {
        (Some((shape, _)), Some(output)) if shape.len() == 4 && output.len() == 4 => {
            let spatial = if pool.channels_last { [1, 2] } else { [2, 3] };
            let mut sizes = shape.clone();
            for (k, d) in spatial.into_iter().enumerate() {
                let read = (output[d] - 1) * pool.strides[k]
                    + (pool.kernel[k] - 1) * pool.dilations[k]
                    + 1;
                if output[d] > 0 && read < shape[d] {
                    sizes[d] = read;
                }
            }
            if sizes == shape {
                // SAFETY: the value belongs to the IR being rewritten.
                unsafe { Value::from_raw(input.to_raw()) }
            } else {
                b.extract_slice(input, &[0; 4], &sizes)
            }
        }
        // SAFETY: as above.
        _ => unsafe { Value::from_raw(input.to_raw()) },
    };
    b.named(
        &format!("linalg.pooling_{layout}_{kind}"),
        &[input, window],
        init,
        pool.result_type,
        &[
            ("strides", b.i64_elements(&pool.strides)),
            ("dilations", b.i64_elements(&pool.dilations)),
        ],
    )
}

/// A channels-last float pool whose one window covers the whole (padded) input — a
/// global pool, as in squeeze-excitation blocks and before classifiers — as a
/// `linalg.reduce` over height and width into `[N, C]`, reshaped to `[N, 1, 1, C]`:
/// projected-permutation maps, which `glow-cpu-vectorize-elementwise` turns into vector
/// accumulators over the channels, where a pooling op's window maps stay scalar loops.
fn global_pooled<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    kind: &str,
    input: Value<'c, '_>,
    pool: &Pool<'c, '_>,
    init_value: Attribute<'c>,
) -> Option<Value<'c, 'r>> {
    let (shape, _) = tensor_info(input)?;
    let output = tensor_info_of_type(pool.result_type)?;
    let global = pool.channels_last
        && is_float(pool.element)
        && shape.len() == 4
        && output.len() == 4
        && output[1..3] == [1, 1]
        && pool.kernel == shape[1..3]
        && pool.dilations.iter().all(|d| *d == 1);
    if !global {
        return None;
    }
    let combiner = match kind {
        "sum" => "arith.addf",
        "max" => "arith.maximumf",
        _ => return None,
    };
    let reduced_type = b.tensor(&[shape[0], shape[3]], pool.element);
    let init = b.zeros(reduced_type, init_value);
    let reduced = b.reduce(input, init, reduced_type, &[1, 2], combiner, pool.element);
    Some(b.reshape(reduced, &output, pool.element))
}

fn max_pool<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(pool) = pool_operands(op) else {
        return false;
    };
    if glow_dialects::quant_types::storage(pool.element).is_some() {
        return super::quantized_elementwise::quantized_max_pool(context, op, rewriter);
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let lowest = scalar(context, pool.element, f64::NEG_INFINITY);
    let padded = pad_spatial(
        &b,
        pool.input,
        &pool.pads,
        pool.channels_last,
        lowest,
        pool.element,
    );
    let converted = pooled(&b, "max", padded, &pool, lowest);
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

fn avg_pool<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some(pool) = pool_operands(op) else {
        return false;
    };
    if !is_float(pool.element) {
        return false;
    }
    let include_pad = op.attribute("count_include_pad").is_ok();
    let b = LinalgBuilder::before(context, op, rewriter);
    let zero = scalar(context, pool.element, 0.0);
    let padded = pad_spatial(
        &b,
        pool.input,
        &pool.pads,
        pool.channels_last,
        zero,
        pool.element,
    );
    let sums = pooled(&b, "sum", padded, &pool, zero);
    let counts = if include_pad || pool.pads.iter().all(|p| *p == 0) {
        let size = (pool.kernel[0] * pool.kernel[1]) as f64;
        b.splat(pool.result_type, scalar(context, pool.element, size))
    } else {
        // Count the real elements under each window: pool ones padded with zeros.
        let Some((shape, _)) = tensor_info(pool.input) else {
            return false;
        };
        let ones = b.splat(
            b.tensor(&shape, pool.element),
            scalar(context, pool.element, 1.0),
        );
        let padded_ones = pad_spatial(&b, ones, &pool.pads, pool.channels_last, zero, pool.element);
        pooled(&b, "sum", padded_ones, &pool, zero)
    };
    let init = b.empty(pool.result_type);
    let converted = b.named("linalg.div", &[sums, counts], init, pool.result_type, &[]);
    rewriter.replace_op_with_values(op, &[converted]);
    true
}
