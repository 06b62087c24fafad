//! Building ONNX ops out of other `glow.graph` ops (ONNX's own function bodies, e.g.
//! Elu, ReduceL2, DepthToSpace): elementwise arithmetic with numpy broadcasting,
//! comparisons, selects, reductions and reshapes on [`Slot`]s, so a converter reads
//! as the formula it implements.

use super::broadcast::broadcast_to;
use crate::{
    builder::{NodeContext, Slot},
    element::Element,
    folding::broadcast_shapes,
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;
use melior::ir::Attribute;

/// Elementwise binary ops.
#[derive(Clone, Copy)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    /// a < b (a bool tensor)
    Less,
    /// a == b (a bool tensor)
    Equal,
    /// a or b on bools
    Or,
    /// a to the power b
    Pow,
}

/// Elementwise unary ops.
#[derive(Clone, Copy)]
pub enum Un {
    Exp,
    Log,
    Tanh,
    Sqrt,
    Abs,
    Neg,
    Sigmoid,
    Floor,
    /// To the nearest integer, ties to even (ONNX's Round).
    Round,
}

/// A scalar constant of `element` (broadcast as a splat where it is used).
pub fn scalar<'c, 'a>(element: Element, value: f64) -> Slot<'c, 'a> {
    Slot::constant(TensorData::from_f64s(element, vec![], &[value]))
}

/// `op(a, b)` over the broadcast of both shapes.
pub fn bin<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    op: Bin,
    a: &Slot<'c, 'a>,
    b: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let shape = broadcast_shapes(&a.shape, &b.shape)?;
    let (l, r) = (broadcast_to(cx, a, &shape)?, broadcast_to(cx, b, &shape)?);
    let (c, loc) = (cx.context, cx.location);
    let boolean = cx.tensor_type(&shape, Element::Bool);
    let (operation, element) = match op {
        Bin::Add => (glow_graph::add(c, l, r, loc).into(), a.element),
        Bin::Sub => (glow_graph::sub(c, l, r, loc).into(), a.element),
        Bin::Mul => (glow_graph::mul(c, l, r, loc).into(), a.element),
        Bin::Div => (glow_graph::div(c, l, r, loc).into(), a.element),
        Bin::Max => (glow_graph::max(c, l, r, loc).into(), a.element),
        Bin::Min => (glow_graph::min(c, l, r, loc).into(), a.element),
        Bin::Less => (
            glow_graph::cmp_lt(c, boolean, l, r, loc).into(),
            Element::Bool,
        ),
        Bin::Equal => (
            glow_graph::cmp_eq(c, boolean, l, r, loc).into(),
            Element::Bool,
        ),
        Bin::Or => (glow_graph::or(c, l, r, loc).into(), Element::Bool),
        Bin::Pow => (glow_graph::pow(c, l, r, loc).into(), a.element),
    };
    Ok(Slot::value(cx.emit(operation), shape, element))
}

/// `op(a)`.
pub fn un<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    op: Un,
    a: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let value = cx.materialize(a)?;
    let (c, loc) = (cx.context, cx.location);
    let operation = match op {
        Un::Exp => glow_graph::exp(c, value, loc).into(),
        Un::Log => glow_graph::log(c, value, loc).into(),
        Un::Tanh => glow_graph::tanh(c, value, loc).into(),
        Un::Sqrt => glow_graph::sqrt(c, value, loc).into(),
        Un::Abs => glow_graph::abs(c, value, loc).into(),
        Un::Neg => glow_graph::neg(c, value, loc).into(),
        Un::Sigmoid => glow_graph::sigmoid(c, value, loc).into(),
        Un::Floor => glow_graph::floor(c, value, loc).into(),
        Un::Round => glow_graph::round(c, value, loc).into(),
    };
    Ok(Slot::value(cx.emit(operation), a.shape.clone(), a.element))
}

/// `cond ? on_true : on_false` over the broadcast of all three.
pub fn select<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    cond: &Slot<'c, 'a>,
    on_true: &Slot<'c, 'a>,
    on_false: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let shape = broadcast_shapes(&cond.shape, &on_true.shape)?;
    let shape = broadcast_shapes(&shape, &on_false.shape)?;
    let c = broadcast_to(cx, cond, &shape)?;
    let t = broadcast_to(cx, on_true, &shape)?;
    let f = broadcast_to(cx, on_false, &shape)?;
    let r#type = cx.tensor_type(&shape, on_true.element);
    let out = cx.emit(glow_graph::select(cx.context, r#type, c, t, f, cx.location).into());
    Ok(Slot::value(out, shape, on_true.element))
}

/// Reductions.
#[derive(Clone, Copy)]
pub enum Reduction {
    Sum,
    Max,
    Mean,
    Prod,
}

/// A reduction of `a` over `axes` (kept as size-1 dimensions when `keep`).
pub fn reduce<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    kind: Reduction,
    a: &Slot<'c, 'a>,
    axes: &[usize],
    keep: bool,
) -> Result<Slot<'c, 'a>, String> {
    let value = cx.materialize(a)?;
    let axes_attr = cx.array_attr(&axes.iter().map(|a| *a as i64).collect::<Vec<_>>());
    let (c, loc) = (cx.context, cx.location);
    let unit = Attribute::unit(c);
    // keep_dims must be set before the result type is inferred.
    macro_rules! build {
        ($builder:ident) => {{
            let builder = glow_graph::$builder::new(c, loc)
                .input(value)
                .axes(axes_attr);
            if keep {
                builder.keep_dims(unit).build().into()
            } else {
                builder.build().into()
            }
        }};
    }
    let operation = match kind {
        Reduction::Sum => build!(ReduceSumOperationBuilder),
        Reduction::Max => build!(ReduceMaxOperationBuilder),
        Reduction::Mean => build!(ReduceMeanOperationBuilder),
        Reduction::Prod => build!(ReduceProdOperationBuilder),
    };
    let out = cx.emit(operation);
    let shape = cx.shape_of(out);
    Ok(Slot::value(out, shape, a.element))
}

/// `a` with the same elements in `shape` (folded for constants).
pub fn reshape<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    shape: &[i64],
) -> Result<Slot<'c, 'a>, String> {
    if let (Some(data), None) = (&a.constant, &a.quantized_constant) {
        let mut data = TensorData::clone(data);
        data.dims = shape.to_vec();
        return Ok(Slot::constant(data));
    }
    let value = super::broadcast::reshape_to(cx, a, shape)?;
    Ok(Slot::value(value, shape.to_vec(), a.element))
}

/// `a` with its dimensions permuted (result dimension i is input dimension perm[i];
/// folded for constants).
pub fn transpose<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    perm: &[usize],
) -> Result<Slot<'c, 'a>, String> {
    if perm.iter().enumerate().all(|(i, p)| i == *p) {
        return Ok(a.clone());
    }
    if let (Some(data), None) = (&a.constant, &a.quantized_constant) {
        return Ok(Slot::constant(crate::folding::transpose(data, perm)));
    }
    let value = cx.materialize(a)?;
    let shape: Vec<i64> = perm.iter().map(|p| a.shape[*p]).collect();
    let perm: Vec<i64> = perm.iter().map(|p| *p as i64).collect();
    let attr = cx.array_attr(&perm);
    let out = cx.emit(glow_graph::transpose(cx.context, value, attr, cx.location).into());
    Ok(Slot::value(out, shape, a.element))
}

/// `a` converted to `element`.
pub fn convert<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    element: Element,
) -> Result<Slot<'c, 'a>, String> {
    if a.element == element {
        return Ok(a.clone());
    }
    let value = cx.materialize(a)?;
    let r#type = cx.tensor_type(&a.shape, element);
    let out = cx.emit(glow_graph::convert(cx.context, r#type, value, cx.location).into());
    Ok(Slot::value(out, a.shape.clone(), element))
}

/// `a[start .. start + sizes]` (folded for constants).
pub fn slice<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    start: &[i64],
    sizes: &[i64],
) -> Result<Slot<'c, 'a>, String> {
    if sizes == a.shape.as_slice() {
        return Ok(a.clone());
    }
    if let (Some(data), None) = (&a.constant, &a.quantized_constant) {
        let step = vec![1; sizes.len()];
        return Ok(Slot::constant(crate::folding::slice(
            data, start, &step, sizes,
        )));
    }
    let value = cx.materialize(a)?;
    let r#type = cx.tensor_type(sizes, a.element);
    let attr = cx.array_attr(start);
    let out = cx.emit(glow_graph::slice(cx.context, r#type, value, attr, cx.location).into());
    Ok(Slot::value(out, sizes.to_vec(), a.element))
}

/// `pieces` (of one element type, equal but along `axis`) joined along `axis`.
pub fn concat<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    pieces: &[Slot<'c, 'a>],
    axis: usize,
) -> Result<Slot<'c, 'a>, String> {
    let first = pieces.first().ok_or("a concatenation of nothing")?;
    if pieces.len() == 1 {
        return Ok(first.clone());
    }
    let mut shape = first.shape.clone();
    shape[axis] = pieces.iter().map(|p| p.shape[axis]).sum();
    let values = pieces
        .iter()
        .map(|p| cx.materialize(p))
        .collect::<Result<Vec<_>, _>>()?;
    let attr = cx.i64_attr(axis as i64);
    let out = cx.emit(glow_graph::concat(cx.context, &values, attr, cx.location).into());
    Ok(Slot::value(out, shape, first.element))
}

/// The matrix product of `a` [M, K] and `b` [K, N], or the batched product of `a`
/// [B, M, K] and `b` [B, K, N].
pub fn matmul<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    b: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let (lhs, rhs) = (cx.materialize(a)?, cx.materialize(b)?);
    let rank = a.shape.len();
    let mut shape = a.shape.clone();
    shape[rank - 1] = b.shape[rank - 1];
    let out = if rank == 3 {
        cx.emit(glow_graph::batch_matmul(cx.context, lhs, rhs, cx.location).into())
    } else {
        cx.emit(glow_graph::matmul(cx.context, lhs, rhs, cx.location).into())
    };
    Ok(Slot::value(out, shape, a.element))
}

/// `data` gathered along `axis` at `indices` (ONNX Gather; folded for constants; the
/// lowering wraps negative indices and reports out-of-range ones at run time).
pub fn gather<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    data: &Slot<'c, 'a>,
    indices: &Slot<'c, 'a>,
    axis: usize,
) -> Result<Slot<'c, 'a>, String> {
    if let (Some(d), Some(i), None) = (&data.constant, &indices.constant, &data.quantized_constant)
    {
        return Ok(Slot::constant(crate::folding::gather(d, i, axis)?));
    }
    let (d, i) = (cx.materialize(data)?, cx.materialize(indices)?);
    let op = glow_graph::GatherOperationBuilder::new(cx.context, cx.location)
        .data(d)
        .indices(i)
        .axis(cx.i64_attr(axis as i64))
        .build();
    let out = cx.emit(op.into());
    let shape = cx.shape_of(out);
    Ok(Slot::value(out, shape, data.element))
}
