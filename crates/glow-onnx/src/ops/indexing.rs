//! GatherElements, ScatterElements (and the deprecated Scatter), TopK and Resize.

use crate::{
    builder::{normalize_axis, Converted, NodeContext, Slot},
    element::Element,
};
use glow_dialects::ods::glow_graph;
use melior::ir::{attribute::StringAttribute, BlockLike};

pub fn gather_elements<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let data = cx.input(0)?;
    let indices = cx.input(1)?;
    let axis = normalize_axis(cx.attr_i("axis", 0), data.shape.len())?;
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
    let value = cx.value(0)?;
    let builder = glow_graph::TopKOperationBuilder::new(cx.context, cx.location)
        .input(value)
        .k(cx.i64_attr(k))
        .axis(cx.i64_attr(axis as i64));
    // `smallest` does not change the result types, so it may be set after building.
    let mut op = builder.build();
    if cx.attr_i("largest", 1) == 0 {
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

/// Resize (opset 11+): scales or sizes; nearest (round_prefer_floor with half_pixel,
/// floor with asymmetric) or linear; no antialiasing, cubic or crop-and-resize.
pub fn resize<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if cx.opset() < 11 {
        return Err("Resize before opset 11 (scales as input #1) is not supported".into());
    }
    if cx.attr_i("antialias", 0) != 0 || cx.has_attr("axes") {
        return Err("antialias and axes are not supported".into());
    }
    let mode = cx.attr_s("mode", "nearest");
    let coordinates = cx.attr_s("coordinate_transformation_mode", "half_pixel");
    let nearest = cx.attr_s("nearest_mode", "round_prefer_floor");
    let supported = matches!(
        (mode.as_str(), coordinates.as_str(), nearest.as_str()),
        ("nearest", "half_pixel", "round_prefer_floor")
            | ("nearest", "asymmetric", "floor")
            | ("linear", "half_pixel" | "asymmetric" | "align_corners", _)
    );
    if !supported {
        return Err(format!(
            "mode '{mode}' with coordinate_transformation_mode '{coordinates}' and nearest_mode '{nearest}' is not supported"
        ));
    }
    let shape: Vec<i64> = if cx.has_input(3) {
        cx.constant_input(3, "sizes")?.to_i64s()
    } else {
        let scales = cx.constant_input(2, "scales")?.to_f64s();
        if scales.len() != x.shape.len() {
            return Err(format!(
                "{} scales for rank {}",
                scales.len(),
                x.shape.len()
            ));
        }
        x.shape
            .iter()
            .zip(&scales)
            .map(|(d, s)| (*d as f64 * s).floor() as i64)
            .collect()
    };
    if shape.len() != x.shape.len() {
        return Err(format!(
            "sizes {shape:?} do not match rank {}",
            x.shape.len()
        ));
    }
    // Sizes set explicitly give the exact output; with scales ONNX floors.
    let value = cx.value(0)?;
    let r#type = cx.tensor_type(&shape, x.element);
    let op = glow_graph::resize(
        cx.context,
        r#type,
        value,
        StringAttribute::new(cx.context, &mode),
        StringAttribute::new(cx.context, &coordinates),
        cx.location,
    );
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, shape, x.element)])
}
