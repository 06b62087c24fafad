//! GatherND and ScatterND as Gather / ScatterElements on the data flattened to rows:
//! the first `batch_dims + k` dimensions (k = the index tuples' length) become one
//! row dimension, each index tuple one row number (negative components counted from
//! the end of their dimension, then dotted with the row strides), so the runtime
//! bounds check and clamp of glow.graph.gather / scatter_elements keep every access in
//! bounds. A component outside its dimension turns its row number into one past the
//! last row, which that check reports. ScatterND on constants (exporters build masks
//! this way, e.g. Swin's shifted-window attention mask) is computed at import time.

use super::broadcast::broadcast_to;
use super::compose::{bin, convert, reduce, reshape, scalar, select, Bin, Reduction};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    folding::{strides, FOLD_LIMIT},
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;
use melior::ir::attribute::StringAttribute;

/// The row number of every index tuple: `indices` [..., k] addresses dimensions
/// `batch..batch + k` of `dims` (the first `batch` dimensions come from the tuple's
/// own position), giving a tensor of indices' shape without its last dimension.
fn row_numbers<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    indices: &Slot<'c, 'a>,
    dims: &[i64],
    batch: usize,
) -> Result<Slot<'c, 'a>, String> {
    let k = *indices
        .shape
        .last()
        .ok_or("indices must have at least one dimension")? as usize;
    let addressed = &dims[..batch + k];
    let rows: i64 = addressed.iter().product();
    let row_strides: Vec<i64> = strides(addressed).iter().map(|s| *s as i64).collect();
    let index_dims: Vec<i64> = dims[batch..batch + k].to_vec();
    let i64s = |shape: Vec<i64>, values: &[i64]| {
        Slot::constant(TensorData::from_i64s(Element::I64, shape, values))
    };
    let whole = convert(cx, indices, Element::I64)?;
    let extents = i64s(vec![k as i64], &index_dims);
    let negative = bin(cx, Bin::Less, &whole, &scalar(Element::I64, 0.0))?;
    let raised = bin(cx, Bin::Add, &whole, &extents)?;
    let wrapped = select(cx, &negative, &raised, &whole)?;
    let below = bin(cx, Bin::Less, &wrapped, &scalar(Element::I64, 0.0))?;
    let inside = bin(cx, Bin::Less, &wrapped, &extents)?;
    let outside = select(
        cx,
        &inside,
        &below,
        &Slot::constant(TensorData::from_i64s(Element::Bool, vec![], &[1])),
    )?;
    let safe = select(cx, &outside, &scalar(Element::I64, rows as f64), &wrapped)?;
    let weighted = bin(
        cx,
        Bin::Mul,
        &safe,
        &i64s(vec![k as i64], &row_strides[batch..]),
    )?;
    let last = indices.shape.len() - 1;
    let mut numbers = reduce(cx, Reduction::Sum, &weighted, &[last], false)?;
    if batch > 0 {
        // The batch coordinates of each tuple, dotted with their strides.
        let batch_shape = &indices.shape[..batch];
        let count: i64 = batch_shape.iter().product();
        let batch_strides = strides(batch_shape);
        let offsets: Vec<i64> = (0..count as usize)
            .map(|flat| {
                (0..batch)
                    .map(|d| ((flat / batch_strides[d]) as i64 % batch_shape[d]) * row_strides[d])
                    .sum()
            })
            .collect();
        let mut shape = batch_shape.to_vec();
        shape.extend(std::iter::repeat_n(1, indices.shape.len() - 1 - batch));
        numbers = bin(cx, Bin::Add, &numbers, &i64s(shape, &offsets))?;
    }
    Ok(numbers)
}

pub fn gather_nd<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (data, indices) = (cx.input(0)?, cx.input(1)?);
    let batch = cx.attr_i("batch_dims", 0);
    let (r, q) = (data.shape.len(), indices.shape.len());
    let k = indices.shape.last().copied().unwrap_or(0);
    if batch < 0 || q == 0 || k < 1 || batch as usize + k as usize > r || batch as usize >= q {
        return Err(format!(
            "indices of shape {:?} with batch_dims {batch} do not address data of shape {:?}",
            indices.shape, data.shape
        ));
    }
    let (batch, k) = (batch as usize, k as usize);
    if indices.shape[..batch] != data.shape[..batch] {
        return Err("the batch dimensions of data and indices differ".into());
    }
    let rows: i64 = data.shape[..batch + k].iter().product();
    let row: i64 = data.shape[batch + k..].iter().product();
    let flat = reshape(cx, &data, &[rows, row])?;
    let numbers = row_numbers(cx, &indices, &data.shape, batch)?;
    let (d, i) = (cx.materialize(&flat)?, cx.materialize(&numbers)?);
    let op = glow_graph::GatherOperationBuilder::new(cx.context, cx.location)
        .data(d)
        .indices(i)
        .axis(cx.i64_attr(0))
        .build();
    let out = cx.emit(op.into());
    let gathered = Slot::value(out, cx.shape_of(out), data.element);
    let mut shape = indices.shape[..q - 1].to_vec();
    shape.extend_from_slice(&data.shape[batch + k..]);
    Ok(vec![reshape(cx, &gathered, &shape)?])
}

/// ScatterND with `reduction = none` on constants, at import time.
fn fold_scatter_nd(
    data: &TensorData,
    indices: &TensorData,
    updates: &TensorData,
) -> Result<TensorData, String> {
    let k = *indices.dims.last().unwrap_or(&0) as usize;
    let size = data.element.size();
    let row: usize = data.dims[k..].iter().product::<i64>() as usize * size;
    let data_strides = strides(&data.dims[..k]);
    let mut bytes = data.bytes.to_vec();
    for (tuple, update) in indices
        .to_i64s()
        .chunks_exact(k)
        .zip(updates.bytes.chunks_exact(row.max(1)))
    {
        let mut offset = 0;
        for (d, &i) in tuple.iter().enumerate() {
            let extent = data.dims[d];
            let i = if i < 0 { i + extent } else { i };
            if !(0..extent).contains(&i) {
                return Err(format!(
                    "index {} is outside a dimension of {extent}",
                    tuple[d]
                ));
            }
            offset += i as usize * data_strides[d];
        }
        bytes[offset * row..(offset + 1) * row].copy_from_slice(update);
    }
    Ok(TensorData {
        bytes: bytes.into(),
        ..data.clone()
    })
}

pub fn scatter_nd<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (data, indices, updates) = (cx.input(0)?, cx.input(1)?, cx.input(2)?);
    let reduction = cx.attr_s("reduction", "none");
    if !matches!(reduction.as_str(), "none" | "add" | "mul" | "max" | "min") {
        return Err(format!(
            "reduction '{reduction}' is not none, add, mul, max or min"
        ));
    }
    let (r, q) = (data.shape.len(), indices.shape.len());
    let k = indices.shape.last().copied().unwrap_or(0);
    if q == 0 || k < 1 || k as usize > r {
        return Err(format!(
            "indices of shape {:?} do not address data of shape {:?}",
            indices.shape, data.shape
        ));
    }
    let k = k as usize;
    let mut expected = indices.shape[..q - 1].to_vec();
    expected.extend_from_slice(&data.shape[k..]);
    if updates.shape != expected || updates.element != data.element {
        return Err(format!(
            "updates of shape {:?} do not match the indexed slices {expected:?}",
            updates.shape
        ));
    }
    if let (Some(d), Some(i), Some(u), "none") = (
        &data.constant,
        &indices.constant,
        &updates.constant,
        reduction.as_str(),
    ) {
        if d.len() <= FOLD_LIMIT {
            return Ok(vec![Slot::constant(fold_scatter_nd(d, i, u)?)]);
        }
    }
    let rows: i64 = data.shape[..k].iter().product();
    let row: i64 = data.shape[k..].iter().product();
    let tuples: i64 = indices.shape[..q - 1].iter().product();
    let flat = reshape(cx, &data, &[rows, row])?;
    let flat_updates = reshape(cx, &updates, &[tuples, row])?;
    let numbers = row_numbers(cx, &indices, &data.shape, 0)?;
    let numbers = reshape(cx, &numbers, &[tuples, 1])?;
    let spread = broadcast_to(cx, &numbers, &[tuples, row])?;
    let (d, u) = (cx.materialize(&flat)?, cx.materialize(&flat_updates)?);
    let r#type = cx.tensor_type(&[rows, row], data.element);
    let op = glow_graph::ScatterElementsOperationBuilder::new(cx.context, cx.location)
        .result(r#type)
        .data(d)
        .indices(spread)
        .updates(u)
        .axis(cx.i64_attr(0))
        .reduction(StringAttribute::new(cx.context, &reduction))
        .build();
    let out = cx.emit(op.into());
    let scattered = Slot::value(out, vec![rows, row], data.element);
    Ok(vec![reshape(cx, &scattered, &data.shape)?])
}
