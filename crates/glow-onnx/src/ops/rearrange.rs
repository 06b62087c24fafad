//! Ops that move or one-hot encode elements, built from reshape / transpose /
//! comparisons: DepthToSpace, SpaceToDepth, Hardmax, OneHot, EyeLike; CumSum (a
//! glow.graph op of its own) and CumProd (a masked reduce_prod).

use super::compose::{bin, convert, reduce, reshape, scalar, select, transpose, Bin, Reduction};
use crate::{
    builder::{normalize_axis, Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;
use melior::ir::Attribute;

fn block_size(cx: &NodeContext) -> Result<i64, String> {
    match cx.attr_i("blocksize", 0) {
        b if b > 0 => Ok(b),
        b => Err(format!("blocksize {b} must be positive")),
    }
}

fn nchw<'c, 'a>(cx: &NodeContext<'c, 'a, '_>) -> Result<(Slot<'c, 'a>, [i64; 4]), String> {
    let x = cx.input(0)?;
    match x.shape[..] {
        [n, c, h, w] => Ok((x.clone(), [n, c, h, w])),
        _ => Err(format!("input of shape {:?} is not N x C x H x W", x.shape)),
    }
}

/// DepthToSpace: [N, C, H, W] -> [N, C / b^2, H b, W b], channels read in
/// depth-column-row (DCR) or column-row-depth (CRD) order.
pub fn depth_to_space<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (x, [n, c, h, w]) = nchw(cx)?;
    let b = block_size(cx)?;
    if c % (b * b) != 0 {
        return Err(format!(
            "{c} channels are not a multiple of blocksize^2 = {}",
            b * b
        ));
    }
    let depth = c / (b * b);
    let (split, perm): (Vec<i64>, [usize; 6]) = match cx.attr_s("mode", "DCR").as_str() {
        "DCR" => (vec![n, b, b, depth, h, w], [0, 3, 4, 1, 5, 2]),
        "CRD" => (vec![n, depth, b, b, h, w], [0, 1, 4, 2, 5, 3]),
        other => return Err(format!("mode '{other}' is not DCR or CRD")),
    };
    let split = reshape(cx, &x, &split)?;
    let moved = transpose(cx, &split, &perm)?;
    Ok(vec![reshape(cx, &moved, &[n, depth, h * b, w * b])?])
}

/// SpaceToDepth: [N, C, H, W] -> [N, C b^2, H / b, W / b] (the inverse of
/// DepthToSpace in the same mode).
pub fn space_to_depth<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (x, [n, c, h, w]) = nchw(cx)?;
    let b = block_size(cx)?;
    if h % b != 0 || w % b != 0 {
        return Err(format!(
            "height {h} and width {w} are not multiples of blocksize {b}"
        ));
    }
    // The channel blocks go before (DCR, the default) or after (CRD) the channels.
    let perm = match cx.attr_s("mode", "DCR").as_str() {
        "DCR" => [0, 3, 5, 1, 2, 4],
        "CRD" => [0, 1, 3, 5, 2, 4],
        other => return Err(format!("mode '{other}' is not DCR or CRD")),
    };
    let split = reshape(cx, &x, &[n, c, h / b, b, w / b, b])?;
    let moved = transpose(cx, &split, &perm)?;
    Ok(vec![reshape(cx, &moved, &[n, c * b * b, h / b, w / b])?])
}

/// 0, 1, ..., extent - 1 along dimension `axis` of a rank-`rank` i64 constant.
fn iota<'c, 'a>(rank: usize, axis: usize, extent: i64) -> Slot<'c, 'a> {
    let mut shape = vec![1; rank];
    shape[axis] = extent;
    let values: Vec<i64> = (0..extent).collect();
    Slot::constant(TensorData::from_i64s(Element::I64, shape, &values))
}

/// Hardmax: 1 where the first maximum along `axis` is, 0 elsewhere (before opset 13
/// over the input flattened to 2-D at `axis`).
pub fn hardmax<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if !x.element.is_float() {
        return Err(format!(
            "{:?} inputs are not supported (floats only)",
            x.element
        ));
    }
    let rank = x.shape.len();
    let modern = cx.opset() >= 13;
    let axis = normalize_axis(cx.attr_i("axis", if modern { -1 } else { 1 }), rank)?;
    let (work, axis) = if modern {
        (x.clone(), axis)
    } else {
        let rows: i64 = x.shape[..axis].iter().product();
        let columns: i64 = x.shape[axis..].iter().product();
        (reshape(cx, &x, &[rows, columns])?, 1)
    };
    let value = cx.materialize(&work)?;
    let op = glow_graph::ArgMaxOperationBuilder::new(cx.context, cx.location)
        .input(value)
        .axis(cx.i64_attr(axis as i64))
        .keep_dims(Attribute::unit(cx.context))
        .build();
    let out = cx.emit(op.into());
    let shape = cx.shape_of(out);
    let index = Slot::value(out, shape, Element::I64);
    let positions = iota(work.shape.len(), axis, work.shape[axis]);
    let hit = bin(cx, Bin::Equal, &positions, &index)?;
    let one_hot = select(cx, &hit, &scalar(x.element, 1.0), &scalar(x.element, 0.0))?;
    Ok(vec![reshape(cx, &one_hot, &x.shape)?])
}

/// OneHot(indices, depth, values): `values[1]` where the (wrapped) index equals the
/// position along the new `axis`, `values[0]` elsewhere (also for indices outside
/// [-depth, depth)).
pub fn one_hot<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let indices = cx.input(0)?;
    let depth = cx.constant_input(1, "depth")?.to_f64s();
    let [depth] = depth[..] else {
        return Err("depth must hold one value".into());
    };
    let depth = depth as i64;
    if depth <= 0 {
        return Err(format!("depth {depth} must be positive"));
    }
    let values = cx.constant_input(2, "values")?;
    let [off, on] = values.to_f64s()[..] else {
        return Err("values must hold two values (off, on)".into());
    };
    let rank = indices.shape.len() + 1;
    let axis = cx.attr_i("axis", -1);
    let axis = if axis < 0 { axis + rank as i64 } else { axis };
    if !(0..rank as i64).contains(&axis) {
        return Err(format!(
            "axis {} is out of range for rank {rank}",
            cx.attr_i("axis", -1)
        ));
    }
    let axis = axis as usize;
    // Indices as i64 (floats truncate), negative ones counted from the end.
    let whole = convert(cx, &indices, Element::I64)?;
    let negative = bin(cx, Bin::Less, &whole, &scalar(Element::I64, 0.0))?;
    let raised = bin(cx, Bin::Add, &whole, &scalar(Element::I64, depth as f64))?;
    let wrapped = select(cx, &negative, &raised, &whole)?;
    let mut shape = indices.shape.clone();
    shape.insert(axis, 1);
    let wrapped = reshape(cx, &wrapped, &shape)?;
    let hit = bin(cx, Bin::Equal, &iota(rank, axis, depth), &wrapped)?;
    Ok(vec![select(
        cx,
        &hit,
        &scalar(values.element, on),
        &scalar(values.element, off),
    )?])
}

/// EyeLike: a constant of the input's 2-D shape with ones on diagonal `k`.
pub fn eye_like<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let [rows, columns] = x.shape[..] else {
        return Err(format!("input of shape {:?} is not 2-D", x.shape));
    };
    let element = if cx.has_attr("dtype") {
        let code = cx.attr_i("dtype", 0) as i32;
        Element::from_onnx(code)
            .ok_or_else(|| format!("dtype {} is not supported", Element::onnx_name(code)))?
    } else {
        x.element
    };
    let k = cx.attr_i("k", 0);
    let values: Vec<f64> = (0..rows)
        .flat_map(|r| (0..columns).map(move |c| if c - r == k { 1.0 } else { 0.0 }))
        .collect();
    Ok(vec![Slot::constant(TensorData::from_f64s(
        element,
        vec![rows, columns],
        &values,
    ))])
}

/// The input and the axis of CumSum / CumProd.
fn cumulative_operands<'c, 'a>(
    cx: &NodeContext<'c, 'a, '_>,
) -> Result<(Slot<'c, 'a>, usize), String> {
    let x = cx.input(0)?;
    if !matches!(
        x.element,
        Element::F32 | Element::F64 | Element::F16 | Element::I32 | Element::I64
    ) {
        return Err(format!(
            "{:?} inputs are not supported (float, int32, int64)",
            x.element
        ));
    }
    let axis = cx.constant_input(1, "axis")?.to_i64s();
    let [axis] = axis[..] else {
        return Err("axis must hold one value".into());
    };
    let axis = normalize_axis(axis, x.shape.len())?;
    Ok((x, axis))
}

/// CumSum(x, axis): glow.graph.cumsum.
pub fn cum_sum<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (x, axis) = cumulative_operands(cx)?;
    let value = cx.value(0)?;
    let unit = Attribute::unit(cx.context);
    let mut op = glow_graph::cumsum(cx.context, value, cx.i64_attr(axis as i64), cx.location);
    if cx.attr_flag("exclusive", false)? {
        op.set_exclusive(unit);
    }
    if cx.attr_flag("reverse", false)? {
        op.set_reverse(unit);
    }
    let out = cx.emit(op.into());
    Ok(vec![Slot::value(out, x.shape, x.element)])
}

/// CumProd(x, axis): each output position the product of the inputs it covers along
/// the axis, as a reduce_prod over a new axis k of x broadcast against a constant
/// triangular mask (k <= i; k < i exclusive; k >= i / k > i reversed; elsewhere 1).
/// |x| x extent work, like glow.graph.cumsum's lowering, for the short axes models
/// take running products over.
pub fn cum_prod<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (x, axis) = cumulative_operands(cx)?;
    let (exclusive, reverse) = (
        cx.attr_flag("exclusive", false)?,
        cx.attr_flag("reverse", false)?,
    );
    let extent = x.shape[axis];
    // x as [..., 1 (i), extent (k), ...], broadcast over i.
    let mut lifted = x.shape[..axis].to_vec();
    lifted.push(1);
    lifted.extend_from_slice(&x.shape[axis..]);
    let mut wide = x.shape[..axis].to_vec();
    wide.push(extent);
    wide.extend_from_slice(&x.shape[axis..]);
    let lifted = reshape(cx, &x, &lifted)?;
    let spread = super::broadcast::broadcast_to(cx, &lifted, &wide)?;
    let spread = Slot::value(spread, wide.clone(), x.element);
    let covered: Vec<f64> = (0..extent)
        .flat_map(|i| (0..extent).map(move |k| (i, k)))
        .map(|(i, k)| {
            let takes = match (reverse, exclusive) {
                (false, false) => k <= i,
                (false, true) => k < i,
                (true, false) => k >= i,
                (true, true) => k > i,
            };
            f64::from(u8::from(takes))
        })
        .collect();
    let mut mask_shape = vec![1i64; axis];
    mask_shape.extend([extent, extent]);
    mask_shape.extend(std::iter::repeat_n(1, x.shape.len() - axis - 1));
    let mask = Slot::constant(TensorData::from_f64s(Element::Bool, mask_shape, &covered));
    let factors = select(cx, &mask, &spread, &scalar(x.element, 1.0))?;
    Ok(vec![reduce(
        cx,
        Reduction::Prod,
        &factors,
        &[axis + 1],
        false,
    )?])
}
