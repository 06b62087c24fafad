//! Layers: pooling, Gemm, MatMul, BatchNormalization, Softmax / LogSoftmax, LayerNormalization, Flatten.

use super::{
    broadcast::{broadcast_to, reshape_to},
    compose,
    window::{as_2d, check_spatial_rank, from_2d, window_2d, window_nd, Window},
};
use crate::{
    builder::{normalize_axis, Converted, NodeContext, Slot},
    element::Element,
    folding,
    tensor::{element_count, TensorData},
};
use glow_dialects::ods::glow_graph;
use melior::ir::Value;

fn pool<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, max: bool) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let count_pads = !max && cx.attr_flag("count_include_pad", false)?;
    pool_of(cx, x, max, count_pads)
}

/// MaxPool / AveragePool of `x` with the node's window attributes, averages counting
/// the pads when `count_pads` (LpPool sums |x|^p over zero-padded windows with them).
pub(super) fn pool_of<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: Slot<'c, 'a>,
    max: bool,
    count_pads: bool,
) -> Converted<'c, 'a> {
    if cx.node.output.len() > 1 && !cx.node.output[1].is_empty() {
        return Err("the Indices output is not supported".into());
    }
    let kernel = cx
        .attr_ints("kernel_shape")
        .ok_or("missing 'kernel_shape'")?;
    if x.shape.len() < 3 {
        return Err(format!(
            "input of rank {} has no spatial dimensions",
            x.shape.len()
        ));
    }
    check_spatial_rank(x.shape.len())?;
    let ceil_mode = cx.attr_flag("ceil_mode", false)?;
    let mut count_pads = count_pads;
    let spatial = x.shape[2..].to_vec();
    let (strides, mut pads, dilations) = window_nd(cx, &spatial, &kernel, ceil_mode)?;
    let mut x = x;
    if count_pads && ceil_mode {
        // Averages count the explicit pads but not the end padding that stands for
        // ceil_mode: pad explicitly with zeros, then pool counting only real elements.
        let explicit = window_nd(cx, &spatial, &kernel, false)?.1;
        let n = spatial.len();
        let rank = x.shape.len();
        let mut all = vec![0i64; 2 * rank];
        for d in 0..n {
            all[2 + d] = explicit[d];
            all[rank + 2 + d] = explicit[n + d];
            pads[d] -= explicit[d];
            pads[n + d] -= explicit[n + d];
        }
        let input = cx.materialize(&x)?;
        let fill = cx.scalar_attr(x.element, 0.0);
        let padded = cx.emit(
            glow_graph::pad(cx.context, input, cx.array_attr(&all), fill, cx.location).into(),
        );
        let shape = cx.shape_of(padded);
        x = Slot::value(padded, shape, x.element);
        count_pads = false;
    }
    if x.shape.len() == 5 {
        return pool_3d(
            cx,
            &x,
            &kernel,
            (&strides, &pads, &dilations),
            max,
            count_pads,
        );
    }
    let geometry = window_2d(&kernel, &strides, &pads, &dilations);
    let input = as_2d(cx, &x)?;
    let out = pool_2d(cx, input, max, count_pads, &geometry);
    Ok(vec![from_2d(cx, out, x.shape.len(), x.element)?])
}

/// A 2-D max or average pool of `input` (N, C, H, W).
fn pool_2d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    input: Value<'c, 'a>,
    max: bool,
    count_pads: bool,
    geometry: &Window,
) -> Value<'c, 'a> {
    if max {
        let op = glow_graph::MaxPoolOperationBuilder::new(cx.context, cx.location)
            .input(input)
            .kernel(cx.array_attr(&geometry.kernel))
            .strides(cx.array_attr(&geometry.strides))
            .pads(cx.array_attr(&geometry.pads))
            .dilations(cx.array_attr(&geometry.dilations))
            .build();
        cx.emit(op.into())
    } else {
        let mut op = glow_graph::AvgPoolOperationBuilder::new(cx.context, cx.location)
            .input(input)
            .kernel(cx.array_attr(&geometry.kernel))
            .strides(cx.array_attr(&geometry.strides))
            .pads(cx.array_attr(&geometry.pads))
            .dilations(cx.array_attr(&geometry.dilations))
            .build();
        if count_pads {
            op.set_count_include_pad(melior::ir::Attribute::unit(cx.context));
        }
        cx.emit(op.into())
    }
}

/// 3-D pooling as two 2-D pools, the window being a box: (H, W) over the N x D
/// planes, then depth over (N, C, D, H' x W'). Maxima and box averages (whose element
/// counts, padded or not, are products of per-dimension counts) separate exactly. Both
/// read channels-last data ([N, D, H, W, C] reshaped), so the transposes here cancel
/// against glow-channels-last's, as the 3-D convolutions' do.
fn pool_3d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    kernel: &[i64],
    (strides, pads, dilations): (&[i64], &[i64], &[i64]),
    max: bool,
    count_pads: bool,
) -> Converted<'c, 'a> {
    let (n, c, d, h, w) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3], x.shape[4]);
    let volume_last = compose::transpose(cx, x, &[0, 2, 3, 4, 1])?;
    let planes = compose::reshape(cx, &volume_last, &[n * d, h, w, c])?;
    let planes = compose::transpose(cx, &planes, &[0, 3, 1, 2])?;
    let planes = cx.materialize(&planes)?;
    let spatial = Window {
        kernel: [kernel[1], kernel[2]],
        strides: [strides[1], strides[2]],
        pads: [pads[1], pads[2], pads[4], pads[5]],
        dilations: [dilations[1], dilations[2]],
    };
    let pooled = pool_2d(cx, planes, max, count_pads, &spatial);
    let pooled_shape = cx.shape_of(pooled);
    let (oh, ow) = (pooled_shape[2], pooled_shape[3]);
    let pooled = Slot::value(pooled, pooled_shape, x.element);
    let pooled = compose::transpose(cx, &pooled, &[0, 2, 3, 1])?;
    let columns = compose::reshape(cx, &pooled, &[n, d, oh * ow, c])?;
    let columns = compose::transpose(cx, &columns, &[0, 3, 1, 2])?;
    let columns = cx.materialize(&columns)?;
    let depth = Window {
        kernel: [kernel[0], 1],
        strides: [strides[0], 1],
        pads: [pads[0], 0, pads[3], 0],
        dilations: [dilations[0], 1],
    };
    let out = pool_2d(cx, columns, max, count_pads, &depth);
    let od = cx.shape_of(out)[2];
    let out = Slot::value(out, vec![n, c, od, oh * ow], x.element);
    let out = compose::transpose(cx, &out, &[0, 2, 3, 1])?;
    let out = compose::reshape(cx, &out, &[n, od, oh, ow, c])?;
    Ok(vec![compose::transpose(cx, &out, &[0, 4, 1, 2, 3])?])
}

pub fn max_pool<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    pool(cx, true)
}

pub fn average_pool<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    pool(cx, false)
}

fn global_pool<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, max: bool) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if x.shape.len() < 3 {
        return Err(format!(
            "input of rank {} has no spatial dimensions",
            x.shape.len()
        ));
    }
    if x.shape[2..].contains(&0) {
        return Err(format!(
            "the input {:?} has an empty spatial dimension: nothing to pool",
            x.shape
        ));
    }
    // More than two spatial dimensions pool as one flattened dimension.
    let rank = x.shape.len();
    let x = if rank > 4 {
        let pixels = element_count(&x.shape[2..])? as i64;
        let flat = vec![x.shape[0], x.shape[1], pixels];
        compose::reshape(cx, &x, &flat)?
    } else {
        x
    };
    let spatial = &x.shape[2..];
    let kernel: Vec<i64> = if spatial.len() == 2 {
        spatial.to_vec()
    } else {
        vec![1, spatial[0]]
    };
    let input = as_2d(cx, &x)?;
    let kernel = cx.array_attr(&kernel);
    let out = if max {
        cx.emit(glow_graph::max_pool(cx.context, input, kernel, cx.location).into())
    } else {
        cx.emit(glow_graph::avg_pool(cx.context, input, kernel, cx.location).into())
    };
    let pooled = from_2d(cx, out, x.shape.len(), x.element)?;
    if rank <= 4 {
        return Ok(vec![pooled]);
    }
    let mut shape = vec![1i64; rank];
    shape[..2].copy_from_slice(&pooled.shape[..2]);
    Ok(vec![compose::reshape(cx, &pooled, &shape)?])
}

pub fn global_average_pool<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    global_pool(cx, false)
}

pub fn global_max_pool<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    global_pool(cx, true)
}

pub fn batch_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    if cx.attr_flag("training_mode", false)? || cx.node.output.iter().skip(1).any(|o| !o.is_empty())
    {
        return Err("training mode (running statistics outputs) is not supported".into());
    }
    let x = cx.input(0)?;
    let operands: Vec<Value> = (0..5).map(|i| cx.value(i)).collect::<Result<_, _>>()?;
    let epsilon = cx.f32_attr(cx.attr_f("epsilon", 1e-5) as f64);
    let r#type = cx.tensor_type(&x.shape, x.element);
    let op = glow_graph::BatchNormOperationBuilder::new(cx.context, cx.location)
        .result(r#type)
        .input(operands[0])
        .scale(operands[1])
        .bias(operands[2])
        .mean(operands[3])
        .var(operands[4])
        .epsilon(epsilon)
        .build();
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, x.shape, x.element)])
}

/// A 2-D slot transposed (folded when constant: weights are usually constants).
fn transpose_2d<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let shape = vec![slot.shape[1], slot.shape[0]];
    if let Some(data) = &slot.constant {
        let floats = folding::transpose(data, &[1, 0]);
        // A quantized constant stays one: its data transposed, its axis swapped.
        if let Some(quantized) = &slot.quantized_constant {
            let (storage, quantization) = &**quantized;
            let mut quantization = quantization.clone();
            quantization.axis = quantization.axis.map(|a| 1 - a);
            let storage = folding::transpose(storage, &[1, 0]);
            return Ok(Slot::dequantized_constant(floats, storage, quantization));
        }
        return Ok(Slot::constant(floats));
    }
    let value = cx.materialize(slot)?;
    let perm = cx.array_attr(&[1, 0]);
    let out = cx.emit(glow_graph::transpose(cx.context, value, perm, cx.location).into());
    Ok(Slot::value(out, shape, slot.element))
}

/// `slot * factor`, folded when constant.
fn scale<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: Slot<'c, 'a>,
    factor: f64,
) -> Result<Slot<'c, 'a>, String> {
    if factor == 1.0 {
        return Ok(slot);
    }
    if let Some(data) = &slot.constant {
        return Ok(Slot::constant(folding::elementwise(
            &[data],
            slot.element,
            |v| v[0] * factor,
        )?));
    }
    let value = cx.materialize(&slot)?;
    let r#type = cx.tensor_type(&slot.shape, slot.element);
    let attr = cx.scalar_attr(slot.element, factor);
    let splat = cx.emit(glow_graph::splat(cx.context, r#type, attr, cx.location).into());
    let out = cx.emit(glow_graph::mul(cx.context, value, splat, cx.location).into());
    Ok(Slot::value(out, slot.shape, slot.element))
}

/// Gemm: alpha * A' B' + beta * C, as fully_connected when C is a bias vector.
pub fn gemm<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let mut a = cx.input(0)?;
    let mut b = cx.input(1)?;
    if a.shape.len() != 2 || b.shape.len() != 2 {
        return Err(format!("A {:?} and B {:?} must be 2-D", a.shape, b.shape));
    }
    if cx.attr_flag("transA", false)? {
        a = transpose_2d(cx, &a)?;
    }
    if cx.attr_flag("transB", false)? {
        b = transpose_2d(cx, &b)?;
    }
    if a.shape[1] != b.shape[0] {
        return Err(format!(
            "A {:?} and B {:?} (after transposition) have different reduction sizes ({} vs {})",
            a.shape, b.shape, a.shape[1], b.shape[0]
        ));
    }
    b = scale(cx, b, cx.attr_f("alpha", 1.0) as f64)?;
    let (n, m) = (a.shape[0], b.shape[1]);
    let lhs = cx.materialize(&a)?;
    let rhs = cx.materialize(&b)?;
    if !cx.has_input(2) {
        let out = cx.emit(glow_graph::matmul(cx.context, lhs, rhs, cx.location).into());
        return Ok(vec![Slot::value(out, vec![n, m], a.element)]);
    }
    let c = cx.input(2)?;
    let c = scale(cx, c, cx.attr_f("beta", 1.0) as f64)?;
    let bias_like =
        c.shape.iter().product::<i64>() == m && c.shape.last().copied().unwrap_or(1) == m;
    if bias_like {
        let bias = reshape_to(cx, &c, &[m])?;
        let out =
            cx.emit(glow_graph::fully_connected(cx.context, lhs, rhs, bias, cx.location).into());
        return Ok(vec![Slot::value(out, vec![n, m], a.element)]);
    }
    let product = cx.emit(glow_graph::matmul(cx.context, lhs, rhs, cx.location).into());
    let wide = broadcast_to(cx, &c, &[n, m])?;
    let out = cx.emit(glow_graph::add(cx.context, product, wide, cx.location).into());
    Ok(vec![Slot::value(out, vec![n, m], a.element)])
}

/// MatMul with numpy semantics: 1-D operands, broadcast batch dimensions.
pub fn matmul<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (a, b) = (cx.input(0)?, cx.input(1)?);
    Ok(vec![numpy_matmul(cx, a, b)?])
}

/// The product of `a` and `b` with numpy's (ONNX MatMul's) semantics.
pub fn numpy_matmul<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: Slot<'c, 'a>,
    b: Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    if a.shape.is_empty() || b.shape.is_empty() {
        return Err("scalar operands".into());
    }
    // 1-D operands become matrices; their unit dimension is dropped at the end.
    let a_shape = if a.shape.len() == 1 {
        vec![1, a.shape[0]]
    } else {
        a.shape.clone()
    };
    let b_shape = if b.shape.len() == 1 {
        vec![b.shape[0], 1]
    } else {
        b.shape.clone()
    };
    let (n, k) = (a_shape[a_shape.len() - 2], a_shape[a_shape.len() - 1]);
    let (k2, m) = (b_shape[b_shape.len() - 2], b_shape[b_shape.len() - 1]);
    if k != k2 {
        return Err(format!(
            "shapes {:?} and {:?} have different reduction sizes",
            a.shape, b.shape
        ));
    }
    let batch =
        folding::broadcast_shapes(&a_shape[..a_shape.len() - 2], &b_shape[..b_shape.len() - 2])?;
    let mut result_shape = batch.clone();
    if a.shape.len() > 1 {
        result_shape.push(n);
    }
    if b.shape.len() > 1 {
        result_shape.push(m);
    }
    let batch_size: i64 = batch.iter().product();

    let out = if b_shape[..b_shape.len() - 2].iter().all(|d| *d == 1) {
        // A shared right-hand matrix: fold the batch into the rows of one matmul.
        let lhs = reshape_to(cx, &a, &[batch_size * n, k])?;
        let rhs = reshape_to(cx, &b, &[k, m])?;
        cx.emit(glow_graph::matmul(cx.context, lhs, rhs, cx.location).into())
    } else {
        let mut a_full = batch.clone();
        a_full.extend([n, k]);
        let mut b_full = batch.clone();
        b_full.extend([k, m]);
        let a_wide = {
            let a_value = reshape_to(cx, &a, &a_shape)?;
            let slot = Slot::value(a_value, a_shape.clone(), a.element);
            let wide = broadcast_to(cx, &slot, &a_full)?;
            Slot::value(wide, a_full.clone(), a.element)
        };
        let b_wide = {
            let b_value = reshape_to(cx, &b, &b_shape)?;
            let slot = Slot::value(b_value, b_shape.clone(), b.element);
            let wide = broadcast_to(cx, &slot, &b_full)?;
            Slot::value(wide, b_full.clone(), b.element)
        };
        let lhs = reshape_to(cx, &a_wide, &[batch_size, n, k])?;
        let rhs = reshape_to(cx, &b_wide, &[batch_size, k, m])?;
        cx.emit(glow_graph::batch_matmul(cx.context, lhs, rhs, cx.location).into())
    };
    let flat = cx.shape_of(out);
    let slot = Slot::value(out, flat, a.element);
    let value = reshape_to(cx, &slot, &result_shape)?;
    Ok(Slot::value(value, result_shape, a.element))
}

/// Softmax / LogSoftmax: one axis from opset 13, the 2-D coercion before.
fn softmax_like<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, log: bool) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let modern = cx.opset() >= 13;
    let axis = normalize_axis(cx.attr_i("axis", if modern { -1 } else { 1 }), rank)?;
    let build = |cx: &mut NodeContext<'c, 'a, '_>, value: Value<'c, 'a>, axis: i64| {
        let attr = cx.i64_attr(axis);
        if log {
            let op = glow_graph::LogSoftMaxOperationBuilder::new(cx.context, cx.location)
                .input(value)
                .axis(attr)
                .build();
            cx.emit(op.into())
        } else {
            let op = glow_graph::SoftMaxOperationBuilder::new(cx.context, cx.location)
                .input(value)
                .axis(attr)
                .build();
            cx.emit(op.into())
        }
    };
    if modern || axis == rank - 1 {
        let value = cx.value(0)?;
        let out = build(cx, value, axis as i64);
        return Ok(vec![Slot::value(out, x.shape, x.element)]);
    }
    let rows: i64 = x.shape[..axis].iter().product();
    let columns: i64 = x.shape[axis..].iter().product();
    let flat = reshape_to(cx, &x, &[rows, columns])?;
    let out = build(cx, flat, 1);
    let slot = Slot::value(out, vec![rows, columns], x.element);
    let value = reshape_to(cx, &slot, &x.shape)?;
    Ok(vec![Slot::value(value, x.shape, x.element)])
}

pub fn softmax<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    softmax_like(cx, false)
}

pub fn log_softmax<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    softmax_like(cx, true)
}

pub fn layer_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let axis = normalize_axis(cx.attr_i("axis", -1), x.shape.len())?;
    let scale = cx.input(1)?;
    let bias = if cx.has_input(2) {
        Some(cx.input(2)?)
    } else {
        None
    };
    let epsilon = cx.attr_f("epsilon", 1e-5) as f64;
    let normalized = layer_norm(cx, &x, &scale, bias.as_ref(), axis, epsilon)?;
    let mut outputs = vec![normalized];
    if cx.node.output.iter().skip(1).any(|o| !o.is_empty()) {
        outputs.extend(layer_statistics(cx, &x, axis)?);
    }
    Ok(outputs)
}

/// `x` layer-normalized over its axes from `axis` on, with `scale` and `bias` (zeros
/// when absent) broadcast to those axes: one glow.graph.layer_norm.
pub fn layer_norm<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    scale: &Slot<'c, 'a>,
    bias: Option<&Slot<'c, 'a>>,
    axis: usize,
    epsilon: f64,
) -> Result<Slot<'c, 'a>, String> {
    let normalized = x.shape[axis..].to_vec();
    let scale = broadcast_to(cx, scale, &normalized)?;
    let bias = if let Some(bias) = bias {
        broadcast_to(cx, bias, &normalized)?
    } else {
        let zeros = TensorData::from_f64s(
            x.element,
            normalized.clone(),
            &vec![0.0; normalized.iter().product::<i64>() as usize],
        );
        let slot = Slot::constant(zeros);
        cx.materialize(&slot)?
    };
    let input = cx.materialize(x)?;
    let r#type = cx.tensor_type(&x.shape, x.element);
    let op = glow_graph::LayerNormOperationBuilder::new(cx.context, cx.location)
        .result(r#type)
        .input(input)
        .scale(scale)
        .bias(bias)
        .axis(cx.i64_attr(axis as i64))
        .epsilon(cx.f32_attr(epsilon))
        .build();
    let out = cx.emit(op.into());
    Ok(Slot::value(out, x.shape.clone(), x.element))
}

/// LayerNormalization's optional Mean and InvStdDev outputs: reductions over the
/// normalized dimensions, kept as size-1 dimensions.
fn layer_statistics<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    axis: usize,
) -> Result<Vec<Slot<'c, 'a>>, String> {
    if x.element != Element::F32 {
        return Err("Mean / InvStdDev outputs are supported for float32 inputs only".into());
    }
    let axes: Vec<i64> = (axis as i64..x.shape.len() as i64).collect();
    let mut reduced = x.shape.clone();
    reduced[axis..].iter_mut().for_each(|d| *d = 1);
    let input = cx.materialize(x)?;
    let unit = melior::ir::Attribute::unit(cx.context);
    let mean = cx.emit(
        glow_graph::ReduceMeanOperationBuilder::new(cx.context, cx.location)
            .input(input)
            .axes(cx.array_attr(&axes))
            .keep_dims(unit)
            .build()
            .into(),
    );
    let mean_slot = Slot::value(mean, reduced.clone(), x.element);
    let wide = broadcast_to(cx, &mean_slot, &x.shape)?;
    let diff = cx.emit(glow_graph::sub(cx.context, input, wide, cx.location).into());
    let square = cx.emit(glow_graph::mul(cx.context, diff, diff, cx.location).into());
    let variance = cx.emit(
        glow_graph::ReduceMeanOperationBuilder::new(cx.context, cx.location)
            .input(square)
            .axes(cx.array_attr(&axes))
            .keep_dims(unit)
            .build()
            .into(),
    );
    let r#type = cx.tensor_type(&reduced, x.element);
    let epsilon = cx.scalar_attr(x.element, cx.attr_f("epsilon", 1e-5) as f64);
    let epsilon = cx.emit(glow_graph::splat(cx.context, r#type, epsilon, cx.location).into());
    let shifted = cx.emit(glow_graph::add(cx.context, variance, epsilon, cx.location).into());
    let inverse = cx.emit(glow_graph::rsqrt(cx.context, shifted, cx.location).into());
    Ok(vec![mean_slot, Slot::value(inverse, reduced, x.element)])
}

pub fn flatten<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let axis = cx.attr_i("axis", 1);
    let axis = if axis < 0 { axis + rank as i64 } else { axis };
    if axis < 0 || axis > rank as i64 {
        return Err(format!("axis {axis} is out of range for rank {rank}"));
    }
    let axis = axis as usize;
    let shape = vec![
        x.shape[..axis].iter().product(),
        x.shape[axis..].iter().product(),
    ];
    super::shape::reshaped(cx, &x, shape)
}

/// LRN -> local_response_norm (size, alpha, beta, bias as in ONNX).
pub fn lrn<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let size = cx.attr_i("size", 0);
    let input = cx.value(0)?;
    let op = glow_graph::LocalResponseNormOperationBuilder::new(cx.context, cx.location)
        .input(input)
        .size(cx.i64_attr(size))
        .alpha(cx.f32_attr(cx.attr_f("alpha", 1e-4) as f64))
        .beta(cx.f32_attr(cx.attr_f("beta", 0.75) as f64))
        .bias(cx.f32_attr(cx.attr_f("bias", 1.0) as f64))
        .build();
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, x.shape, x.element)])
}

pub fn instance_normalization<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let (input, scale, bias) = (cx.value(0)?, cx.value(1)?, cx.value(2)?);
    let r#type = cx.tensor_type(&x.shape, x.element);
    let op = glow_graph::InstanceNormOperationBuilder::new(cx.context, cx.location)
        .result(r#type)
        .input(input)
        .scale(scale)
        .bias(bias)
        .epsilon(cx.f32_attr(cx.attr_f("epsilon", 1e-5) as f64))
        .build();
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, x.shape, x.element)])
}
