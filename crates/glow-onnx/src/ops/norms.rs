//! Norm-like reductions and normalizations built from glow.graph reductions and
//! elementwise ops (their ONNX function bodies): ReduceL1, ReduceL2, ReduceSumSquare,
//! ReduceLogSum, ReduceLogSumExp (max-shifted, so large inputs do not overflow),
//! LpNormalization, MeanVarianceNormalization, GroupNormalization, RMSNormalization.

use super::compose::{bin, reduce, reshape, scalar, select, un, Bin, Reduction, Un};
use super::reduce::reduction_axes;
use crate::builder::{normalize_axis, Converted, NodeContext, Slot};
use crate::tensor::TensorData;

/// The reduced shape when dimensions are not kept.
fn dropped(shape: &[i64], axes: &[usize]) -> Vec<i64> {
    (0..shape.len())
        .filter(|d| !axes.contains(d))
        .map(|d| shape[d])
        .collect()
}

/// A Reduce* node as `finish(reduction(prepare(x)))`.
fn reduce_composite<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    prepare: fn(&mut NodeContext<'c, 'a, '_>, &Slot<'c, 'a>) -> Result<Slot<'c, 'a>, String>,
    finish: fn(&mut NodeContext<'c, 'a, '_>, &Slot<'c, 'a>) -> Result<Slot<'c, 'a>, String>,
) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let Some(axes) = reduction_axes(cx, x.shape.len())? else {
        // The identity reduction still applies the elementwise parts (ONNX's bodies).
        let prepared = prepare(cx, &x)?;
        return Ok(vec![finish(cx, &prepared)?]);
    };
    let keep = cx.attr_flag("keepdims", true)?;
    let prepared = prepare(cx, &x)?;
    let sum = reduce(cx, Reduction::Sum, &prepared, &axes, keep)?;
    Ok(vec![finish(cx, &sum)?])
}

fn same<'c, 'a>(_: &mut NodeContext<'c, 'a, '_>, x: &Slot<'c, 'a>) -> Result<Slot<'c, 'a>, String> {
    Ok(x.clone())
}

fn square<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    bin(cx, Bin::Mul, x, x)
}

fn abs<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, x: &Slot<'c, 'a>) -> Result<Slot<'c, 'a>, String> {
    un(cx, Un::Abs, x)
}

fn sqrt<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    un(cx, Un::Sqrt, x)
}

fn log<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, x: &Slot<'c, 'a>) -> Result<Slot<'c, 'a>, String> {
    un(cx, Un::Log, x)
}

fn float_only(cx: &NodeContext) -> Result<(), String> {
    let x = cx.input(0)?;
    if x.element.is_float() {
        Ok(())
    } else {
        Err(format!(
            "{:?} inputs are not supported (floats only)",
            x.element
        ))
    }
}

pub fn reduce_l1<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    reduce_composite(cx, abs, same)
}

pub fn reduce_l2<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    float_only(cx)?;
    reduce_composite(cx, square, sqrt)
}

pub fn reduce_sum_square<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    reduce_composite(cx, square, same)
}

pub fn reduce_log_sum<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    float_only(cx)?;
    reduce_composite(cx, same, log)
}

/// log(sum(exp(x - m))) + m with m the maximum over the axes (0 where it is infinite,
/// so all -inf gives -inf and +inf gives +inf, as the unshifted formula).
pub fn reduce_log_sum_exp<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    float_only(cx)?;
    let x = cx.input(0)?;
    let axes = reduction_axes(cx, x.shape.len())?;
    let Some(axes) = axes else {
        let e = un(cx, Un::Exp, &x)?;
        return Ok(vec![un(cx, Un::Log, &e)?]);
    };
    let keep = cx.attr_flag("keepdims", true)?;
    let m = reduce(cx, Reduction::Max, &x, &axes, true)?;
    let magnitude = un(cx, Un::Abs, &m)?;
    let infinite = bin(
        cx,
        Bin::Equal,
        &magnitude,
        &scalar(x.element, f64::INFINITY),
    )?;
    let shift = select(cx, &infinite, &scalar(x.element, 0.0), &m)?;
    let shifted = bin(cx, Bin::Sub, &x, &shift)?;
    let e = un(cx, Un::Exp, &shifted)?;
    let sum = reduce(cx, Reduction::Sum, &e, &axes, true)?;
    let log = un(cx, Un::Log, &sum)?;
    let result = bin(cx, Bin::Add, &log, &shift)?;
    if keep {
        return Ok(vec![result]);
    }
    let shape = dropped(&x.shape, &axes);
    Ok(vec![reshape(cx, &result, &shape)?])
}

/// LpNormalization: x / ||x||_p along `axis` (p = 1 or 2; zero vectors stay zero).
pub fn lp_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    float_only(cx)?;
    let x = cx.input(0)?;
    let axis = normalize_axis(cx.attr_i("axis", -1), x.shape.len())?;
    let norm = match cx.attr_i("p", 2) {
        1 => {
            let a = un(cx, Un::Abs, &x)?;
            reduce(cx, Reduction::Sum, &a, &[axis], true)?
        }
        2 => {
            let s = bin(cx, Bin::Mul, &x, &x)?;
            let s = reduce(cx, Reduction::Sum, &s, &[axis], true)?;
            un(cx, Un::Sqrt, &s)?
        }
        p => return Err(format!("p = {p} is not supported (1 or 2)")),
    };
    // A zero norm divides by 1 instead: zero vectors stay zero (ONNX's reference).
    let zero = bin(cx, Bin::Equal, &norm, &scalar(x.element, 0.0))?;
    let norm = select(cx, &zero, &scalar(x.element, 1.0), &norm)?;
    Ok(vec![bin(cx, Bin::Div, &x, &norm)?])
}

/// MeanVarianceNormalization: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9) over `axes`.
pub fn mean_variance_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    float_only(cx)?;
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let axes = match cx.attr_ints("axes") {
        Some(axes) => axes
            .iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<Vec<_>, _>>()?,
        None if rank == 4 => vec![0, 2, 3],
        None => return Err(format!("rank {rank} input needs an 'axes' attribute")),
    };
    let mean = reduce(cx, Reduction::Mean, &x, &axes, true)?;
    let mean_squared = bin(cx, Bin::Mul, &mean, &mean)?;
    let squares = bin(cx, Bin::Mul, &x, &x)?;
    let mean_of_squares = reduce(cx, Reduction::Mean, &squares, &axes, true)?;
    let variance = bin(cx, Bin::Sub, &mean_of_squares, &mean_squared)?;
    let deviation = un(cx, Un::Sqrt, &variance)?;
    let denominator = bin(cx, Bin::Add, &deviation, &scalar(x.element, 1e-9))?;
    let centered = bin(cx, Bin::Sub, &x, &mean)?;
    Ok(vec![bin(cx, Bin::Div, &centered, &denominator)?])
}

/// (x - mean) / sqrt(var + epsilon) over `axes` (kept), the shared core of the
/// normalizations.
fn standardize<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    axes: &[usize],
    epsilon: f64,
) -> Result<Slot<'c, 'a>, String> {
    let mean = reduce(cx, Reduction::Mean, x, axes, true)?;
    let centered = bin(cx, Bin::Sub, x, &mean)?;
    let squares = bin(cx, Bin::Mul, &centered, &centered)?;
    let variance = reduce(cx, Reduction::Mean, &squares, axes, true)?;
    let shifted = bin(cx, Bin::Add, &variance, &scalar(x.element, epsilon))?;
    let deviation = un(cx, Un::Sqrt, &shifted)?;
    bin(cx, Bin::Div, &centered, &deviation)
}

/// GroupNormalization: channels split into `num_groups` groups, each standardized over
/// its channels and the spatial positions, then scaled and shifted per channel (opset
/// 21) or per group (opset 18, repeated over the group's channels).
pub fn group_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    float_only(cx)?;
    let x = cx.input(0)?;
    let (scale, bias) = (cx.input(1)?, cx.input(2)?);
    let groups = cx.attr_i("num_groups", 0);
    let epsilon = cx.attr_f("epsilon", 1e-5) as f64;
    if x.shape.len() < 2 {
        return Err("the input needs a channel dimension".into());
    }
    let (n, channels) = (x.shape[0], x.shape[1]);
    if groups <= 0 || channels % groups != 0 {
        return Err(format!(
            "num_groups {groups} does not divide the {channels} channels"
        ));
    }
    let rest: i64 = x.shape[1..].iter().product::<i64>() / groups;
    let grouped = reshape(cx, &x, &[n, groups, rest])?;
    let normalized = standardize(cx, &grouped, &[2], epsilon)?;
    let normalized = reshape(cx, &normalized, &x.shape)?;
    // Per-channel parameters shaped [C, 1, ...] to broadcast over the positions.
    let mut parameter_shape = vec![channels];
    parameter_shape.extend(std::iter::repeat_n(1, x.shape.len() - 2));
    let per_channel = |cx: &mut NodeContext<'c, 'a, '_>, p: &Slot<'c, 'a>| {
        let p = if p.shape == [groups] && groups != channels {
            // Each group's value repeated over its channels: [G, 1] x ones [1, C/G].
            let column = reshape(cx, p, &[groups, 1])?;
            let width = channels / groups;
            let ones = Slot::constant(TensorData::from_f64s(
                p.element,
                vec![1, width],
                &vec![1.0; width as usize],
            ));
            let expanded = bin(cx, Bin::Mul, &column, &ones)?;
            reshape(cx, &expanded, &[channels])?
        } else if p.shape == [channels] {
            p.clone()
        } else {
            return Err(format!(
                "scale and bias have shape {:?}, expected [{channels}] (or [{groups}] before opset 21)",
                p.shape
            ));
        };
        reshape(cx, &p, &parameter_shape)
    };
    let scale = per_channel(cx, &scale)?;
    let bias = per_channel(cx, &bias)?;
    let scaled = bin(cx, Bin::Mul, &normalized, &scale)?;
    Ok(vec![bin(cx, Bin::Add, &scaled, &bias)?])
}

/// RMSNormalization: x / sqrt(mean(x^2 over axis..) + epsilon) * scale.
pub fn rms_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    float_only(cx)?;
    let (x, scale) = (cx.input(0)?, cx.input(1)?);
    Ok(vec![rms_norm(cx, &x, &scale, 1e-5)?])
}

/// `x / sqrt(mean(x^2 over axis..) + epsilon) * scale`, with the node's `axis` (-1 by
/// default) and `epsilon` (`default_epsilon` when absent): RMSNormalization, and
/// onnxruntime's SimplifiedLayerNormalization family.
pub fn rms_norm<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    scale: &Slot<'c, 'a>,
    default_epsilon: f32,
) -> Result<Slot<'c, 'a>, String> {
    let rank = x.shape.len();
    let axis = normalize_axis(cx.attr_i("axis", -1), rank)?;
    let epsilon = cx.attr_f("epsilon", default_epsilon) as f64;
    let axes: Vec<usize> = (axis..rank).collect();
    let squares = bin(cx, Bin::Mul, x, x)?;
    let mean = reduce(cx, Reduction::Mean, &squares, &axes, true)?;
    let shifted = bin(cx, Bin::Add, &mean, &scalar(x.element, epsilon))?;
    let root = un(cx, Un::Sqrt, &shifted)?;
    let normalized = bin(cx, Bin::Div, x, &root)?;
    bin(cx, Bin::Mul, &normalized, scale)
}
