//! GatherElements, ScatterElements (and the deprecated Scatter), TopK and Resize.

use crate::{
    builder::{normalize_axis, Converted, NodeContext, Slot},
    element::Element,
};
use glow_dialects::ods::glow_graph;
use melior::ir::{attribute::StringAttribute, operation::OperationMutLike, BlockLike};

/// A constant index tensor's values must lie in [-extent, extent) (ONNX's rule): an
/// import-time error naming the first one outside, instead of a runtime check.
pub(super) fn check_constant_indices(indices: &Slot, extent: i64) -> Result<(), String> {
    let Some(data) = &indices.constant else {
        return Ok(());
    };
    match data
        .to_i64s()
        .into_iter()
        .find(|i| *i < -extent || *i >= extent)
    {
        Some(bad) => Err(format!(
            "index {bad} is outside [{}, {}] (a dimension of {extent})",
            -extent,
            extent - 1
        )),
        None => Ok(()),
    }
}

pub fn gather_elements<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let data = cx.input(0)?;
    let indices = cx.input(1)?;
    let axis = normalize_axis(cx.attr_i("axis", 0), data.shape.len())?;
    check_constant_indices(&indices, data.shape[axis])?;
    let (d, i) = (cx.value(0)?, cx.value(1)?);
    let r#type = cx.tensor_type(&indices.shape, data.element);
    let attr = cx.i64_attr(axis as i64);
    let out =
        cx.emit(glow_graph::gather_elements(cx.context, r#type, d, i, attr, cx.location).into());
    Ok(vec![Slot::value(out, indices.shape, data.element)])
}

pub fn scatter_elements<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let data = cx.input(0)?;
    let axis = normalize_axis(cx.attr_i("axis", 0), data.shape.len())?;
    check_constant_indices(&cx.input(1)?, data.shape[axis])?;
    let reduction = cx.attr_s("reduction", "none");
    let (d, i, u) = (cx.value(0)?, cx.value(1)?, cx.value(2)?);
    let r#type = cx.tensor_type(&data.shape, data.element);
    let op = glow_graph::ScatterElementsOperationBuilder::new(cx.context, cx.location)
        .result(r#type)
        .data(d)
        .indices(i)
        .updates(u)
        .axis(cx.i64_attr(axis as i64))
        .reduction(StringAttribute::new(cx.context, &reduction))
        .build();
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, data.shape, data.element)])
}

pub fn top_k<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let k = if cx.opset() >= 10 {
        cx.constant_input(1, "K")?
            .to_i64s()
            .first()
            .copied()
            .ok_or("empty K")?
    } else {
        cx.attr_i("k", 0)
    };
    let axis = normalize_axis(cx.attr_i("axis", -1), x.shape.len())?;
    if k < 0 || k > x.shape[axis] {
        return Err(format!(
            "K = {k} must lie in 0..={} (the size of axis {axis})",
            x.shape[axis]
        ));
    }
    let value = cx.value(0)?;
    let builder = glow_graph::TopKOperationBuilder::new(cx.context, cx.location)
        .input(value)
        .k(cx.i64_attr(k))
        .axis(cx.i64_attr(axis as i64));
    // `smallest` does not change the result types, so it may be set after building.
    let mut op = builder.build();
    if !cx.attr_flag("largest", true)? {
        op.set_smallest(melior::ir::Attribute::unit(cx.context));
    }
    let op = cx.block.append_operation(op.into());
    let mut shape = x.shape.clone();
    shape[axis] = k;
    let values = op.result(0).map_err(|e| e.to_string())?.into();
    let indices = op.result(1).map_err(|e| e.to_string())?.into();
    Ok(vec![
        Slot::value(values, shape.clone(), x.element),
        Slot::value(indices, shape, Element::I64),
    ])
}

/// Resize: scales or sizes (opset 11+) (with `axes` and `keep_aspect_ratio_policy`),
/// every mode, coordinate transformation and nearest rounding ONNX defines, and the
/// crop of tf_crop_and_resize; antialiasing is refused.
pub fn resize<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if cx.opset() < 11 {
        let scales = cx.constant_input(1, "scales")?.to_f64s();
        return legacy_resize(cx, scales);
    }
    if cx.attr_flag("antialias", false)? {
        return Err("antialias is not supported".into());
    }
    let rank = x.shape.len();
    let axes: Vec<usize> = match cx.attr_ints("axes") {
        Some(axes) => axes
            .iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<_, _>>()?,
        None => (0..rank).collect(),
    };
    let mode = cx.attr_s("mode", "nearest");
    let coordinates = cx.attr_s("coordinate_transformation_mode", "half_pixel");
    let given = |i: usize| cx.has_input(i) && cx.input(i).is_ok_and(|s| !s.shape.contains(&0));
    let (shape, scales) = if given(3) {
        let sizes = cx.constant_input(3, "sizes")?.to_i64s();
        if sizes.len() != axes.len() {
            return Err(format!("{} sizes for {} axes", sizes.len(), axes.len()));
        }
        if let Some(bad) = sizes.iter().find(|n| **n < 1) {
            return Err(format!("size {bad} is not positive"));
        }
        let ratios: Vec<f64> = axes
            .iter()
            .zip(&sizes)
            .map(|(a, n)| *n as f64 / x.shape[*a] as f64)
            .collect();
        let policy = cx.attr_s("keep_aspect_ratio_policy", "stretch");
        let common = match policy.as_str() {
            "stretch" => None,
            "not_larger" => Some(ratios.iter().copied().fold(f64::INFINITY, f64::min)),
            "not_smaller" => Some(ratios.iter().copied().fold(0.0, f64::max)),
            other => {
                return Err(format!(
                    "keep_aspect_ratio_policy '{other}' is not supported"
                ))
            }
        };
        let mut shape = x.shape.clone();
        let mut scales = vec![1.0; rank];
        for (k, a) in axes.iter().enumerate() {
            match common {
                None => {
                    shape[*a] = sizes[k];
                    scales[*a] = ratios[k];
                }
                Some(scale) => {
                    shape[*a] = (scale * x.shape[*a] as f64).round() as i64;
                    scales[*a] = scale;
                }
            }
        }
        (shape, scales)
    } else {
        let given_scales = cx.constant_input(2, "scales")?.to_f64s();
        if given_scales.len() != axes.len() {
            return Err(format!(
                "{} scales for {} axes",
                given_scales.len(),
                axes.len()
            ));
        }
        if let Some(bad) = given_scales.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
            return Err(format!("scale {bad} is not a positive finite number"));
        }
        let mut shape = x.shape.clone();
        let mut scales = vec![1.0; rank];
        for (k, a) in axes.iter().enumerate() {
            // With scales ONNX floors the output size.
            shape[*a] = (x.shape[*a] as f64 * given_scales[k]).floor() as i64;
            scales[*a] = given_scales[k];
        }
        (shape, scales)
    };
    let nearest = cx.attr_s("nearest_mode", "round_prefer_floor");
    let mut op = resize_op(cx, &shape, &scales, &mode, &coordinates, &nearest)?;
    op.set_attribute(
        "cubic_coeff_a",
        cx.f64_attr(cx.attr_f("cubic_coeff_a", -0.75) as f64),
    );
    op.set_attribute(
        "extrapolation_value",
        cx.f64_attr(cx.attr_f("extrapolation_value", 0.0) as f64),
    );
    if cx.attr_flag("exclude_outside", false)? {
        op.set_attribute("exclude_outside", melior::ir::Attribute::unit(cx.context));
    }
    if coordinates == "tf_crop_and_resize" {
        let given_roi = cx.constant_input(1, "roi")?.to_f64s();
        if let Some(bad) = given_roi.iter().find(|r| !r.is_finite()) {
            return Err(format!("roi entry {bad} is not finite"));
        }
        if given_roi.len() != 2 * axes.len() {
            return Err(format!(
                "{} roi entries for {} axes",
                given_roi.len(),
                axes.len()
            ));
        }
        let mut roi: Vec<f64> = [vec![0.0; rank], vec![1.0; rank]].concat();
        for (k, a) in axes.iter().enumerate() {
            roi[*a] = given_roi[k];
            roi[rank + *a] = given_roi[axes.len() + k];
        }
        op.set_attribute("roi", cx.f64_array_attr(&roi));
    }
    let out = cx.emit(op);
    Ok(vec![Slot::value(out, shape, x.element)])
}

/// A glow.graph.resize of input #0 to `shape` with the given attributes (the caller
/// adds the mode-specific ones).
fn resize_op<'c>(
    cx: &mut NodeContext<'c, '_, '_>,
    shape: &[i64],
    scales: &[f64],
    mode: &str,
    coordinates: &str,
    nearest: &str,
) -> Result<melior::ir::Operation<'c>, String> {
    let x = cx.input(0)?;
    let value = cx.value(0)?;
    let r#type = cx.tensor_type(shape, x.element);
    let mut op: melior::ir::Operation = glow_graph::resize(
        cx.context,
        r#type,
        value,
        StringAttribute::new(cx.context, mode),
        StringAttribute::new(cx.context, coordinates),
        cx.location,
    )
    .into();
    op.set_attribute(
        "nearest_mode",
        StringAttribute::new(cx.context, nearest).into(),
    );
    op.set_attribute("scales", cx.f64_array_attr(scales));
    Ok(op)
}

/// Upsample (opsets 7-9; scales as an attribute before opset 9, as input #1 from it),
/// deprecated since opset 10 in favour of Resize.
pub fn upsample<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let scales: Vec<f64> = if cx.opset() < 9 {
        cx.attr_floats("scales")
            .ok_or("Upsample needs its scales attribute before opset 9")?
            .iter()
            .map(|s| *s as f64)
            .collect()
    } else {
        cx.constant_input(1, "scales")?.to_f64s()
    };
    if let Some(bad) = scales.iter().find(|s| **s < 1.0) {
        return Err(format!("Upsample scale {bad} is below 1"));
    }
    legacy_resize(cx, scales)
}

/// Resize before opset 11 and Upsample: one scale per dimension, the output size
/// floored, `nearest` or `linear`, and coordinates always `asymmetric`. Nearest picks
/// the source index as onnxruntime does for these opsets: truncated when upsampling,
/// rounded up when downsampling.
fn legacy_resize<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, scales: Vec<f64>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if scales.len() != x.shape.len() {
        return Err(format!(
            "{} scales for a rank-{} input",
            scales.len(),
            x.shape.len()
        ));
    }
    if let Some(bad) = scales.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
        return Err(format!("scale {bad} is not a positive finite number"));
    }
    let mode = cx.attr_s("mode", "nearest");
    if mode != "nearest" && mode != "linear" {
        return Err(format!(
            "mode '{mode}' is not supported before opset 11 (supported: nearest, linear)"
        ));
    }
    let shape: Vec<i64> = x
        .shape
        .iter()
        .zip(&scales)
        .map(|(n, s)| (*n as f64 * s).floor() as i64)
        .collect();
    if let Some(n) = shape.iter().find(|n| **n < 1) {
        return Err(format!("the output would have a dimension of {n}"));
    }
    // A scale of 1 maps each index to itself under either rounding.
    let down = scales.iter().any(|s| *s < 1.0);
    let up = scales.iter().any(|s| *s > 1.0);
    if mode == "nearest" && down && up {
        return Err(
            "nearest resizing that shrinks one dimension and grows another is not \
                    supported before opset 11"
                .into(),
        );
    }
    let nearest = if down { "ceil" } else { "floor" };
    let op = resize_op(cx, &shape, &scales, &mode, "asymmetric", nearest)?;
    let out = cx.emit(op);
    Ok(vec![Slot::value(out, shape, x.element)])
}
