//! Import-time evaluation of small tensors: the shape-computation chains exporters
//! emit (Shape -> Gather -> Concat -> Reshape, Range, ConstantOfShape, Where ...) are
//! computed here so every shape in the graph is static.

use crate::{element::Element, tensor::TensorData};

/// Elementwise results of at most this many elements are folded at import time.
pub const FOLD_LIMIT: usize = 1 << 16;

/// The numpy broadcast of two shapes.
pub fn broadcast_shapes(a: &[i64], b: &[i64]) -> Result<Vec<i64>, String> {
    let rank = a.len().max(b.len());
    let mut out = vec![0; rank];
    for i in 0..rank {
        let da = if i + a.len() >= rank {
            a[i + a.len() - rank]
        } else {
            1
        };
        let db = if i + b.len() >= rank {
            b[i + b.len() - rank]
        } else {
            1
        };
        out[i] = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return Err(format!("shapes {a:?} and {b:?} do not broadcast")),
        };
    }
    Ok(out)
}

/// Row-major strides of `shape`.
pub fn strides(shape: &[i64]) -> Vec<usize> {
    let mut strides = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1] as usize;
    }
    strides
}

/// The flat index into a tensor of `shape` broadcast to `out` for output position
/// `index` (row-major).
fn broadcast_index(index: usize, out: &[i64], shape: &[i64], shape_strides: &[usize]) -> usize {
    let offset = out.len() - shape.len();
    let mut remaining = index;
    let mut flat = 0;
    let out_strides = strides(out);
    for (d, stride) in out_strides.iter().enumerate() {
        let coordinate = remaining / stride;
        remaining %= stride;
        if d >= offset && shape[d - offset] != 1 {
            flat += coordinate * shape_strides[d - offset];
        }
    }
    flat
}

/// `data` repeated to `shape` (which it must broadcast to), bytes copied exactly.
pub fn broadcast(data: &TensorData, shape: &[i64]) -> TensorData {
    let size = data.element.size();
    let count: usize = shape.iter().map(|d| *d as usize).product();
    let data_strides = strides(&data.dims);
    let mut bytes = Vec::with_capacity(count * size);
    for index in 0..count {
        let flat = broadcast_index(index, shape, &data.dims, &data_strides);
        bytes.extend_from_slice(&data.bytes[flat * size..(flat + 1) * size]);
    }
    TensorData {
        element: data.element,
        dims: shape.to_vec(),
        bytes: bytes.into(),
    }
}

/// Evaluates `f` elementwise over broadcast inputs, producing `element` values.
pub fn elementwise(
    inputs: &[&TensorData],
    element: Element,
    f: impl Fn(&[f64]) -> f64,
) -> Result<TensorData, String> {
    let mut shape: Vec<i64> = Vec::new();
    for input in inputs {
        shape = broadcast_shapes(&shape, &input.dims)?;
    }
    let count: usize = shape.iter().map(|d| *d as usize).product();
    // Integers stay exact through i64 when every input is an integer.
    let values: Vec<Vec<f64>> = inputs.iter().map(|t| t.to_f64s()).collect();
    let input_strides: Vec<Vec<usize>> = inputs.iter().map(|t| strides(&t.dims)).collect();
    let mut out = Vec::with_capacity(count);
    let mut arguments = vec![0.0; inputs.len()];
    for index in 0..count {
        for (k, input) in inputs.iter().enumerate() {
            arguments[k] =
                values[k][broadcast_index(index, &shape, &input.dims, &input_strides[k])];
        }
        out.push(f(&arguments));
    }
    Ok(TensorData::from_f64s(element, shape, &out))
}

/// Like [`elementwise`] for integer inputs, exact in i64.
pub fn elementwise_int(
    inputs: &[&TensorData],
    element: Element,
    f: impl Fn(&[i64]) -> Result<i64, String>,
) -> Result<TensorData, String> {
    let mut shape: Vec<i64> = Vec::new();
    for input in inputs {
        shape = broadcast_shapes(&shape, &input.dims)?;
    }
    let count: usize = shape.iter().map(|d| *d as usize).product();
    let values: Vec<Vec<i64>> = inputs.iter().map(|t| t.to_i64s()).collect();
    let input_strides: Vec<Vec<usize>> = inputs.iter().map(|t| strides(&t.dims)).collect();
    let mut out = Vec::with_capacity(count);
    let mut arguments = vec![0i64; inputs.len()];
    for index in 0..count {
        for (k, input) in inputs.iter().enumerate() {
            arguments[k] =
                values[k][broadcast_index(index, &shape, &input.dims, &input_strides[k])];
        }
        out.push(f(&arguments)?);
    }
    Ok(TensorData::from_i64s(element, shape, &out))
}

/// Gathers along `axis` of `data` at `indices` (negative indices wrap).
pub fn gather(data: &TensorData, indices: &TensorData, axis: usize) -> Result<TensorData, String> {
    let extent = data.dims[axis];
    let outer: usize = data.dims[..axis].iter().map(|d| *d as usize).product();
    let inner: usize = data.dims[axis + 1..].iter().map(|d| *d as usize).product();
    let size = data.element.size();
    let mut bytes = Vec::new();
    let picks = indices.to_i64s();
    for o in 0..outer {
        for &index in &picks {
            let i = if index < 0 { index + extent } else { index };
            if i < 0 || i >= extent {
                return Err(format!(
                    "index {index} is out of range for dimension of {extent}"
                ));
            }
            let start = ((o * extent as usize + i as usize) * inner) * size;
            bytes.extend_from_slice(&data.bytes[start..start + inner * size]);
        }
    }
    let mut dims: Vec<i64> = data.dims[..axis].to_vec();
    dims.extend_from_slice(&indices.dims);
    dims.extend_from_slice(&data.dims[axis + 1..]);
    Ok(TensorData {
        element: data.element,
        dims,
        bytes: bytes.into(),
    })
}

/// Concatenates along `axis`.
pub fn concat(inputs: &[&TensorData], axis: usize) -> TensorData {
    let first = inputs[0];
    let outer: usize = first.dims[..axis].iter().map(|d| *d as usize).product();
    let size = first.element.size();
    let mut bytes = Vec::new();
    for o in 0..outer {
        for input in inputs {
            let chunk: usize = input.dims[axis..]
                .iter()
                .map(|d| *d as usize)
                .product::<usize>()
                * size;
            bytes.extend_from_slice(&input.bytes[o * chunk..(o + 1) * chunk]);
        }
    }
    let mut dims = first.dims.clone();
    dims[axis] = inputs.iter().map(|t| t.dims[axis]).sum();
    TensorData {
        element: first.element,
        dims,
        bytes: bytes.into(),
    }
}

/// The elements at `start + k * step` per dimension for `sizes[d]` steps each.
pub fn slice(data: &TensorData, start: &[i64], step: &[i64], sizes: &[i64]) -> TensorData {
    let size = data.element.size();
    let data_strides = strides(&data.dims);
    let count: usize = sizes.iter().map(|d| *d as usize).product();
    let out_strides = strides(sizes);
    let mut bytes = Vec::with_capacity(count * size);
    for index in 0..count {
        let mut remaining = index;
        let mut flat = 0usize;
        for d in 0..sizes.len() {
            let k = remaining / out_strides[d];
            remaining %= out_strides[d];
            flat += (start[d] + k as i64 * step[d]) as usize * data_strides[d];
        }
        bytes.extend_from_slice(&data.bytes[flat * size..(flat + 1) * size]);
    }
    TensorData {
        element: data.element,
        dims: sizes.to_vec(),
        bytes: bytes.into(),
    }
}

/// Permutes dimensions: result dimension i is input dimension `perm[i]`.
pub fn transpose(data: &TensorData, perm: &[usize]) -> TensorData {
    let dims: Vec<i64> = perm.iter().map(|p| data.dims[*p]).collect();
    let in_strides = strides(&data.dims);
    // Walk the output in order, reading the input with permuted strides.
    let size = data.element.size();
    let count = data.len();
    let out_strides = strides(&dims);
    let mut bytes = Vec::with_capacity(count * size);
    for index in 0..count {
        let mut remaining = index;
        let mut flat = 0usize;
        for d in 0..dims.len() {
            let k = remaining / out_strides[d];
            remaining %= out_strides[d];
            flat += k * in_strides[perm[d]];
        }
        bytes.extend_from_slice(&data.bytes[flat * size..(flat + 1) * size]);
    }
    TensorData {
        element: data.element,
        dims,
        bytes: bytes.into(),
    }
}
