//! Shape and data-movement ops: Reshape, Transpose, Concat, Squeeze / Unsqueeze, Slice,
//! Gather, Pad, Tile, Expand, and the shape-computation ops (Shape, Size, Constant,
//! ConstantOfShape, Range) whose results are known at import time.

use super::broadcast::broadcast_to;
use crate::{
    builder::{normalize_axis, Converted, NodeContext, Slot},
    element::Element,
    folding::{self, FOLD_LIMIT},
    tensor::{element_count, TensorData},
};
use glow_dialects::ods::glow_graph;

/// `slot` with a new shape of the same element count (folded when constant).
pub(super) fn reshaped<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    slot: &Slot<'c, 'a>,
    shape: Vec<i64>,
) -> Converted<'c, 'a> {
    let count = element_count(&slot.shape)?;
    // Zero dimensions aside, the dimensions' product must fit (strides are computed
    // from it even when the tensor is empty).
    let nonzero: Vec<i64> = shape.iter().map(|d| (*d).max(1)).collect();
    element_count(&nonzero).map_err(|_| format!("dimensions {shape:?} overflow"))?;
    if element_count(&shape)? != count {
        return Err(format!("cannot reshape {:?} into {shape:?}", slot.shape));
    }
    if let Some(data) = &slot.constant {
        let mut data = (**data).clone();
        data.dims = shape;
        return Ok(vec![Slot::constant(data)]);
    }
    let value = super::broadcast::reshape_to(cx, slot, &shape)?;
    Ok(vec![Slot::value(value, shape, slot.element)])
}

pub fn reshape<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let requested = cx.constant_input(1, "shape")?.to_i64s();
    let allow_zero = cx.attr_flag("allowzero", false)?;
    let mut shape = Vec::with_capacity(requested.len());
    let mut infer = None;
    for (i, &d) in requested.iter().enumerate() {
        match d {
            0 if !allow_zero => shape.push(*x.shape.get(i).ok_or_else(|| {
                format!("shape {requested:?} copies dimension {i} the input lacks")
            })?),
            -1 if infer.is_none() => {
                infer = Some(i);
                shape.push(1);
            }
            d if d >= 0 => shape.push(d),
            _ => return Err(format!("invalid shape {requested:?}")),
        }
    }
    if let Some(i) = infer {
        let count = element_count(&x.shape)?;
        let known = element_count(&shape)?;
        if known == 0 || count % known != 0 {
            return Err(format!("cannot reshape {:?} into {requested:?}", x.shape));
        }
        shape[i] = (count / known) as i64;
    }
    reshaped(cx, &x, shape)
}

pub fn transpose<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let perm: Vec<i64> = cx
        .attr_ints("perm")
        .unwrap_or_else(|| (0..rank as i64).rev().collect());
    let perm: Vec<usize> = perm
        .iter()
        .map(|p| normalize_axis(*p, rank))
        .collect::<Result<_, _>>()?;
    let mut seen = vec![false; rank];
    if perm.len() != rank || perm.iter().any(|p| std::mem::replace(&mut seen[*p], true)) {
        return Err(format!(
            "perm {perm:?} is not a permutation of the {rank} dimensions of {:?}",
            x.shape
        ));
    }
    let shape: Vec<i64> = perm.iter().map(|p| x.shape[*p]).collect();
    if let Some(data) = &x.constant {
        return Ok(vec![Slot::constant(folding::transpose(data, &perm))]);
    }
    let value = cx.value(0)?;
    let perm: Vec<i64> = perm.iter().map(|p| *p as i64).collect();
    let attr = cx.array_attr(&perm);
    let out = cx.emit(glow_graph::transpose(cx.context, value, attr, cx.location).into());
    Ok(vec![Slot::value(out, shape, x.element)])
}

pub fn concat<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let inputs: Vec<Slot> = (0..cx.input_count())
        .map(|i| cx.input(i))
        .collect::<Result<_, _>>()?;
    let first = inputs.first().ok_or("needs at least one input")?;
    let axis = normalize_axis(cx.attr_i("axis", 0), first.shape.len())?;
    check_concat_pieces(&inputs, axis)?;
    let mut shape = first.shape.clone();
    shape[axis] = inputs
        .iter()
        .try_fold(0i64, |sum, s| sum.checked_add(s.shape[axis]))
        .ok_or_else(|| format!("the pieces' sizes along axis {axis} overflow"))?;
    if inputs.iter().all(|s| s.constant.is_some()) {
        let data: Vec<&TensorData> = inputs
            .iter()
            .map(|s| &**s.constant.as_ref().expect("checked"))
            .collect();
        return Ok(vec![Slot::constant(folding::concat(&data, axis))]);
    }
    // Empty pieces contribute nothing; when all are empty, the result is the first.
    let mut values = (0..inputs.len())
        .filter(|i| inputs[*i].shape[axis] != 0)
        .map(|i| cx.value(i))
        .collect::<Result<Vec<_>, _>>()?;
    if values.is_empty() {
        values.push(cx.value(0)?);
    }
    let attr = cx.i64_attr(axis as i64);
    let out = cx.emit(glow_graph::concat(cx.context, &values, attr, cx.location).into());
    Ok(vec![Slot::value(out, shape, first.element)])
}

/// Concat's pieces agree in rank, element type, quantization and every dimension but
/// `axis` (checked here so a bad model gets the node's error, not a rejected op).
fn check_concat_pieces(inputs: &[Slot], axis: usize) -> Result<(), String> {
    let first = &inputs[0];
    for (index, piece) in inputs.iter().enumerate().skip(1) {
        if piece.shape.len() != first.shape.len() {
            return Err(format!(
                "input #{index} has rank {}, input #0 rank {}",
                piece.shape.len(),
                first.shape.len()
            ));
        }
        if piece.element != first.element || piece.quantization != first.quantization {
            return Err(format!(
                "input #{index}'s element type or quantization differs from input #0's"
            ));
        }
        if let Some(d) =
            (0..first.shape.len()).find(|d| *d != axis && piece.shape[*d] != first.shape[*d])
        {
            return Err(format!(
                "input #{index} has shape {:?}, input #0 {:?}: they differ in dimension {d}, not only along axis {axis}",
                piece.shape, first.shape
            ));
        }
    }
    Ok(())
}

/// Axes from the attribute (before `opset`) or the optional input #1.
fn axes_operand(cx: &NodeContext, from_opset: i64) -> Result<Option<Vec<i64>>, String> {
    if cx.opset() >= from_opset {
        if cx.has_input(1) {
            Ok(Some(cx.constant_input(1, "axes")?.to_i64s()))
        } else {
            Ok(None)
        }
    } else {
        Ok(cx.attr_ints("axes"))
    }
}

pub fn squeeze<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let axes: Vec<usize> = match axes_operand(cx, 13)? {
        Some(axes) => axes
            .iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<_, _>>()?,
        None => (0..rank).filter(|d| x.shape[*d] == 1).collect(),
    };
    if let Some(d) = axes.iter().find(|d| x.shape[**d] != 1) {
        return Err(format!("dimension {d} of {:?} is not 1", x.shape));
    }
    let shape = (0..rank)
        .filter(|d| !axes.contains(d))
        .map(|d| x.shape[d])
        .collect();
    reshaped(cx, &x, shape)
}

pub fn unsqueeze<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let axes = axes_operand(cx, 13)?.ok_or("missing axes")?;
    let rank = x.shape.len() + axes.len();
    let axes: Vec<usize> = axes
        .iter()
        .map(|a| normalize_axis(*a, rank))
        .collect::<Result<_, _>>()?;
    let mut dims = x.shape.iter();
    let shape = (0..rank)
        .map(|d| {
            if axes.contains(&d) {
                Some(1)
            } else {
                dims.next().copied()
            }
        })
        .collect::<Option<Vec<i64>>>()
        .ok_or("repeated axes")?;
    reshaped(cx, &x, shape)
}

pub fn slice<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    // Before opset 10, starts / ends / axes are attributes (and there are no steps).
    let legacy = cx.opset() < 10;
    let (starts, ends) = if legacy {
        (
            cx.attr_ints("starts").ok_or("missing 'starts'")?,
            cx.attr_ints("ends").ok_or("missing 'ends'")?,
        )
    } else {
        (
            cx.constant_input(1, "starts")?.to_i64s(),
            cx.constant_input(2, "ends")?.to_i64s(),
        )
    };
    let axes: Vec<usize> = if legacy && cx.has_attr("axes") {
        cx.attr_ints("axes")
            .unwrap_or_default()
            .iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<_, _>>()?
    } else if !legacy && cx.has_input(3) {
        cx.constant_input(3, "axes")?
            .to_i64s()
            .iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<_, _>>()?
    } else {
        (0..starts.len()).collect()
    };
    let steps = if !legacy && cx.has_input(4) {
        cx.constant_input(4, "steps")?.to_i64s()
    } else {
        vec![1; starts.len()]
    };
    if starts.len() != ends.len() || starts.len() != axes.len() || steps.len() != axes.len() {
        return Err("starts, ends, axes and steps differ in length".into());
    }
    let mut start = vec![0i64; rank];
    let mut step = vec![1i64; rank];
    let mut sizes = x.shape.clone();
    for (k, &axis) in axes.iter().enumerate() {
        let extent = x.shape[axis];
        let s = steps[k];
        if s == 0 {
            return Err("a step of 0".into());
        }
        let clamp = |v: i64, low: i64, high: i64| v.max(low).min(high);
        let wrap = |v: i64| if v < 0 { v + extent } else { v };
        let (first, size) = if s > 0 {
            let b = clamp(wrap(starts[k]), 0, extent);
            let e = clamp(wrap(ends[k]), 0, extent);
            (b, if e > b { (e - b + s - 1) / s } else { 0 })
        } else {
            let b = clamp(wrap(starts[k]), -1, extent - 1);
            let e = clamp(wrap(ends[k]), -1, extent - 1);
            (b, if b > e { (b - e - s - 1) / -s } else { 0 })
        };
        start[axis] = first;
        step[axis] = s;
        sizes[axis] = size;
    }
    if let Some(data) = &x.constant {
        return Ok(vec![Slot::constant(folding::slice(
            data, &start, &step, &sizes,
        ))]);
    }
    // Unit steps are a glow.graph.slice; other steps then pick their positions with a
    // gather of constant indices along the axis.
    let stepped: Vec<usize> = (0..rank).filter(|a| step[*a] != 1).collect();
    let mut unit_start = start.clone();
    let mut unit_sizes = sizes.clone();
    for &axis in &stepped {
        unit_start[axis] = 0;
        unit_sizes[axis] = x.shape[axis];
    }
    let mut value = cx.value(0)?;
    if unit_sizes != x.shape {
        let r#type = cx.tensor_type(&unit_sizes, x.element);
        let attr = cx.array_attr(&unit_start);
        value = cx.emit(glow_graph::slice(cx.context, r#type, value, attr, cx.location).into());
    }
    for &axis in &stepped {
        let positions: Vec<i64> = (0..sizes[axis])
            .map(|k| start[axis] + k * step[axis])
            .collect();
        value = select_positions(cx, value, axis, &positions)?;
    }
    Ok(vec![Slot::value(value, sizes, x.element)])
}

/// `value` re-indexed along `axis`: output position i reads input position
/// `positions[i]` (a glow.graph.gather of constant indices). Strided slices and the
/// edge / reflect / wrap pads are this.
fn select_positions<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    value: melior::ir::Value<'c, 'a>,
    axis: usize,
    positions: &[i64],
) -> Result<melior::ir::Value<'c, 'a>, String> {
    let indices = Slot::constant(TensorData::from_i64s(
        Element::I64,
        vec![positions.len() as i64],
        positions,
    ));
    let indices = cx.materialize(&indices)?;
    let op = glow_graph::GatherOperationBuilder::new(cx.context, cx.location)
        .data(value)
        .indices(indices)
        .axis(cx.i64_attr(axis as i64))
        .build();
    Ok(cx.emit(op.into()))
}

/// The input position padded position `i` reads (`before` pads first) in a dimension
/// of `extent`, for the pad modes that copy the input.
fn padded_source(mode: &str, i: i64, before: i64, extent: i64) -> i64 {
    let p = i - before;
    match mode {
        "edge" => p.clamp(0, extent - 1),
        "wrap" => p.rem_euclid(extent),
        // reflect: mirrored about the edges without repeating them.
        _ if extent == 1 => 0,
        _ => {
            let period = 2 * (extent - 1);
            let q = p.rem_euclid(period);
            if q >= extent {
                period - q
            } else {
                q
            }
        }
    }
}

pub fn gather<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let data = cx.input(0)?;
    let indices = cx.input(1)?;
    let axis = normalize_axis(cx.attr_i("axis", 0), data.shape.len())?;
    super::indexing::check_constant_indices(&indices, data.shape[axis])?;
    if let (Some(d), Some(i)) = (&data.constant, &indices.constant) {
        if d.len() <= FOLD_LIMIT {
            return Ok(vec![Slot::constant(folding::gather(d, i, axis)?)]);
        }
    }
    if !matches!(indices.element, Element::I32 | Element::I64) {
        return Err(format!("indices of type {:?}", indices.element));
    }
    // Materialized once and kept for the node's other users.
    let (d, i) = (cx.value(0)?, cx.value(1)?);
    let data = Slot::value(d, data.shape, data.element);
    let indices = Slot::value(i, indices.shape, indices.element);
    Ok(vec![super::compose::gather(cx, &data, &indices, axis)?])
}

pub fn pad<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let mode = cx.attr_s("mode", "constant");
    if !matches!(mode.as_str(), "constant" | "edge" | "reflect" | "wrap") {
        return Err(format!(
            "mode '{mode}' is not supported (constant, edge, reflect, wrap)"
        ));
    }
    let x = cx.input(0)?;
    let rank = x.shape.len();
    // Before opset 11, pads and value are attributes.
    let given = if cx.opset() < 11 {
        cx.attr_ints("pads").ok_or("missing 'pads'")?
    } else {
        cx.constant_input(1, "pads")?.to_i64s()
    };
    let axes: Vec<usize> = if cx.opset() >= 18 && cx.has_input(3) {
        cx.constant_input(3, "axes")?
            .to_i64s()
            .iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<_, _>>()?
    } else {
        (0..rank).collect()
    };
    if given.len() != 2 * axes.len() {
        return Err(format!(
            "pads {given:?} must have {} values",
            2 * axes.len()
        ));
    }
    if given.iter().any(|p| *p < 0) {
        return Err(format!("negative pads {given:?} are not supported"));
    }
    let mut pads = vec![0i64; 2 * rank];
    for (k, &axis) in axes.iter().enumerate() {
        pads[axis] = given[k];
        pads[axis + rank] = given[k + axes.len()];
    }
    if mode != "constant" {
        // Copying modes: each padded axis re-indexes the input.
        let mut value = cx.value(0)?;
        let mut shape = x.shape.clone();
        for axis in 0..rank {
            let (before, after) = (pads[axis], pads[axis + rank]);
            if before == 0 && after == 0 {
                continue;
            }
            if x.shape[axis] == 0 {
                return Err(format!("mode '{mode}' pads an empty dimension {axis}"));
            }
            let positions: Vec<i64> = (0..x.shape[axis] + before + after)
                .map(|i| padded_source(&mode, i, before, x.shape[axis]))
                .collect();
            shape[axis] = positions.len() as i64;
            value = select_positions(cx, value, axis, &positions)?;
        }
        return Ok(vec![Slot::value(value, shape, x.element)]);
    }
    let value = if cx.opset() < 11 {
        cx.attr_f("value", 0.0) as f64
    } else if cx.has_input(2) {
        cx.constant_input(2, "constant_value")?
            .to_f64s()
            .first()
            .copied()
            .unwrap_or(0.0)
    } else {
        0.0
    };
    let input = cx.value(0)?;
    let pads_attr = cx.array_attr(&pads);
    let fill = cx.scalar_attr(x.element, value);
    let out = cx.emit(glow_graph::pad(cx.context, input, pads_attr, fill, cx.location).into());
    let shape = cx.shape_of(out);
    Ok(vec![Slot::value(out, shape, x.element)])
}

pub fn tile<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let repeats = cx.constant_input(1, "repeats")?.to_i64s();
    if repeats.len() != x.shape.len() {
        return Err(format!(
            "'repeats' has {} values for an input of rank {}",
            repeats.len(),
            x.shape.len()
        ));
    }
    if let Some(r) = repeats.iter().find(|r| **r < 0) {
        return Err(format!("repeat count {r} is negative"));
    }
    let shape = x
        .shape
        .iter()
        .zip(&repeats)
        .map(|(d, r)| d.checked_mul(*r))
        .collect::<Option<Vec<i64>>>()
        .ok_or_else(|| format!("repeats {repeats:?} overflow the shape {:?}", x.shape))?;
    if repeats.contains(&0) {
        // No copies along some axis: an empty tensor, which glow.graph.tile refuses.
        let empty = TensorData::from_raw(x.element, shape.clone(), Vec::new())
            .ok_or_else(|| format!("the empty result {shape:?} is too large"))?;
        return Ok(vec![Slot::constant(empty)]);
    }
    let input = cx.value(0)?;
    let attr = cx.array_attr(&repeats);
    let out = cx.emit(glow_graph::tile(cx.context, input, attr, cx.location).into());
    let shape = cx.shape_of(out);
    Ok(vec![Slot::value(out, shape, x.element)])
}

pub fn expand<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let requested = cx.constant_input(1, "shape")?.to_i64s();
    let shape = folding::broadcast_shapes(&x.shape, &requested)?;
    if let Some(data) = &x.constant {
        let count = element_count(&shape)?;
        if count <= FOLD_LIMIT {
            return Ok(vec![Slot::constant(folding::broadcast(data, &shape))]);
        }
    }
    let value = broadcast_to(cx, &x, &shape)?;
    Ok(vec![Slot::value(value, shape, x.element)])
}

pub fn shape<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len() as i64;
    let clamp = |v: i64| (if v < 0 { v + rank } else { v }).clamp(0, rank) as usize;
    let start = clamp(cx.attr_i("start", 0));
    let end = if cx.has_attr("end") {
        clamp(cx.attr_i("end", rank))
    } else {
        rank as usize
    };
    let dims: Vec<i64> = x.shape[start..end.max(start)].to_vec();
    Ok(vec![Slot::constant(TensorData::from_i64s(
        Element::I64,
        vec![dims.len() as i64],
        &dims,
    ))])
}

pub fn size<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let count: i64 = x.shape.iter().product();
    Ok(vec![Slot::constant(TensorData::from_i64s(
        Element::I64,
        vec![],
        &[count],
    ))])
}

pub fn constant<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let data = if let Some(tensor) = cx.attr_tensor("value") {
        TensorData::from_proto(tensor, std::path::Path::new(".")).map_err(|e| e.to_string())?
    } else if cx.has_attr("value_float") {
        TensorData::from_f64s(
            Element::F32,
            vec![],
            &[cx.attr_f("value_float", 0.0) as f64],
        )
    } else if let Some(values) = cx
        .attr_floats("value_floats")
        .filter(|_| cx.has_attr("value_floats"))
    {
        let values: Vec<f64> = values.iter().map(|v| *v as f64).collect();
        TensorData::from_f64s(Element::F32, vec![values.len() as i64], &values)
    } else if cx.has_attr("value_int") {
        TensorData::from_i64s(Element::I64, vec![], &[cx.attr_i("value_int", 0)])
    } else if let Some(values) = cx.attr_ints("value_ints") {
        TensorData::from_i64s(Element::I64, vec![values.len() as i64], &values)
    } else {
        let names: Vec<&str> = cx.attribute_names().collect();
        return Err(format!("unsupported constant attributes {names:?}"));
    };
    Ok(vec![Slot::constant(data)])
}

pub fn constant_of_shape<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let shape = cx.constant_input(0, "shape")?.to_i64s();
    let (element, value) = match cx.attr_tensor("value") {
        Some(tensor) => {
            let data = TensorData::from_proto(tensor, std::path::Path::new("."))
                .map_err(|e| e.to_string())?;
            (data.element, data.to_f64s().first().copied().unwrap_or(0.0))
        }
        None => (Element::F32, 0.0),
    };
    let count = element_count(&shape)?;
    if count <= FOLD_LIMIT {
        return Ok(vec![Slot::constant(TensorData::from_f64s(
            element,
            shape,
            &vec![value; count],
        ))]);
    }
    let r#type = cx.tensor_type(&shape, element);
    let attr = cx.scalar_attr(element, value);
    let out = cx.emit(glow_graph::splat(cx.context, r#type, attr, cx.location).into());
    Ok(vec![Slot::value(out, shape, element)])
}

pub fn range<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let start = cx.constant_input(0, "start")?;
    let limit = cx.constant_input(1, "limit")?;
    let delta = cx.constant_input(2, "delta")?;
    let element = start.element;
    let (s, l, d) = (
        start.to_f64s().first().copied().unwrap_or(0.0),
        limit.to_f64s().first().copied().unwrap_or(0.0),
        delta.to_f64s().first().copied().unwrap_or(1.0),
    );
    if d == 0.0 {
        return Err("delta is 0".into());
    }
    let count = ((l - s) / d).ceil().max(0.0) as usize;
    if count > FOLD_LIMIT * 16 {
        return Err(format!("range of {count} elements is too large to fold"));
    }
    let values: Vec<f64> = (0..count).map(|i| s + i as f64 * d).collect();
    Ok(vec![Slot::constant(TensorData::from_f64s(
        element,
        vec![count as i64],
        &values,
    ))])
}

/// Split into slices along `axis`: sizes from input #1 (opset 13+) or the `split`
/// attribute, else `num_outputs` (opset 18+) or the number of outputs, the last piece
/// taking the remainder.
pub fn split<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let axis = normalize_axis(cx.attr_i("axis", 0), x.shape.len())?;
    let extent = x.shape[axis];
    let outputs = cx.node.output.len() as i64;
    let sizes: Vec<i64> = if cx.opset() >= 13 && cx.has_input(1) {
        cx.constant_input(1, "split")?.to_i64s()
    } else if let Some(sizes) = cx.attr_ints("split").filter(|s| !s.is_empty()) {
        sizes
    } else {
        let pieces = cx.attr_i("num_outputs", outputs);
        if pieces != outputs || pieces < 1 {
            return Err(format!(
                "num_outputs {pieces} must equal the node's {outputs} outputs"
            ));
        }
        let size = (extent + pieces - 1) / pieces;
        (0..pieces)
            .map(|k| size.min(extent - k * size).max(0))
            .collect()
    };
    let total = sizes.iter().try_fold(0i64, |sum, size| {
        (*size >= 0).then(|| sum.checked_add(*size)).flatten()
    });
    if total != Some(extent) || sizes.len() as i64 != outputs {
        return Err(format!(
            "split sizes {sizes:?} do not cover dimension {axis} ({extent}) in {outputs} outputs"
        ));
    }
    let mut results = Vec::new();
    let mut offset = 0;
    for size in sizes {
        let mut start = vec![0i64; x.shape.len()];
        start[axis] = offset;
        let mut shape = x.shape.clone();
        shape[axis] = size;
        offset += size;
        if let Some(data) = &x.constant {
            let step = vec![1i64; shape.len()];
            results.push(Slot::constant(folding::slice(data, &start, &step, &shape)));
            continue;
        }
        let value = cx.value(0)?;
        let r#type = cx.tensor_type(&shape, x.element);
        let attr = cx.array_attr(&start);
        let out = cx.emit(glow_graph::slice(cx.context, r#type, value, attr, cx.location).into());
        results.push(Slot::value(out, shape, x.element));
    }
    Ok(results)
}

/// The largest Trilu matrix (rows x columns) whose constant mask the importer builds.
const TRILU_MASK_LIMIT: i64 = 1 << 24;

/// Trilu: the upper (or lower) triangle of the last two dimensions from diagonal `k`,
/// as `select(mask, x, 0)` with a constant mask broadcast over the batch dimensions.
pub fn trilu<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    if rank < 2 {
        return Err(format!("input of rank {rank} has no matrix (rank >= 2)"));
    }
    let k = if cx.has_input(1) {
        let values = cx.constant_input(1, "k")?.to_i64s();
        *values.first().ok_or("'k' is empty")?
    } else {
        0
    };
    let upper = cx.attr_flag("upper", true)?;
    if element_count(&x.shape)? == 0 {
        return Ok(vec![x]);
    }
    let (rows, columns) = (x.shape[rank - 2], x.shape[rank - 1]);
    if rows.saturating_mul(columns) > TRILU_MASK_LIMIT {
        return Err(format!(
            "a {rows}x{columns} matrix exceeds the mask limit of {TRILU_MASK_LIMIT} elements"
        ));
    }
    let mask: Vec<i64> = (0..rows)
        .flat_map(|i| {
            (0..columns).map(move |j| {
                let diagonal = j - i;
                i64::from(if upper { diagonal >= k } else { diagonal <= k })
            })
        })
        .collect();
    let mask = Slot::constant(TensorData::from_i64s(
        Element::Bool,
        vec![rows, columns],
        &mask,
    ));
    let zero = Slot::constant(TensorData::from_i64s(x.element, vec![], &[0]));
    let condition = broadcast_to(cx, &mask, &x.shape)?;
    let zeros = broadcast_to(cx, &zero, &x.shape)?;
    let input = cx.value(0)?;
    let r#type = cx.tensor_type(&x.shape, x.element);
    let out = cx
        .emit(glow_graph::select(cx.context, r#type, condition, input, zeros, cx.location).into());
    Ok(vec![Slot::value(out, x.shape, x.element)])
}
