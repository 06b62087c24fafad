//! adaptive_avg_pool (PyTorch's adaptive_avg_pool2d, Glow's AdaptiveAvgPool) onto
//! primitive nodes:
//! - extents that divide (H = k·OH, W = l·OW): `avg_pool` with kernel = strides =
//!   [k, l], the windows being equal and disjoint;
//! - otherwise the windows (row i spans floor(i·H/OH) .. ceil((i+1)·H/OH)) differ in
//!   size and may overlap, and the pool is the linear map Y[n,c] = A · X[n,c] · Bᵀ
//!   with constant averaging matrices A (OH x H) and B (OW x W):
//!   `matmul(reshape(x, NCH x W), Bᵀ)`, a transpose bringing H innermost, and
//!   `matmul(·, Aᵀ)`, then a transpose back to N x C x OH x OW.

use super::builder::{tensor_info, GraphBuilder};
use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, Type, Value},
    Context, RewriterBase,
};

/// The rule lowering `glow.graph.adaptive_avg_pool`.
pub static LOWER_ADAPTIVE_AVG_POOL: Rule = Rule {
    root: "glow.graph.adaptive_avg_pool",
    generates: &[
        "glow.graph.avg_pool",
        "glow.graph.constant",
        "glow.graph.reshape",
        "glow.graph.transpose",
        "glow.graph.matmul",
    ],
    rewrite,
};

/// The `outputs` x `inputs` matrix averaging each adaptive window along one axis,
/// row-major.
pub fn averaging_matrix(inputs: i64, outputs: i64) -> Vec<f64> {
    let mut matrix = vec![0.0; (inputs * outputs) as usize];
    for i in 0..outputs {
        let start = i * inputs / outputs;
        let end = ((i + 1) * inputs + outputs - 1) / outputs;
        for j in start..end {
            matrix[(i * inputs + j) as usize] = 1.0 / (end - start) as f64;
        }
    }
    matrix
}

/// `input` (rows x inputs) times the transposed averaging matrix (inputs x outputs).
fn average_columns<'c, 'r>(
    b: &GraphBuilder<'c, 'r, '_>,
    input: Value<'c, '_>,
    element: Type<'c>,
    inputs: i64,
    outputs: i64,
) -> Value<'c, 'r> {
    let matrix = averaging_matrix(inputs, outputs);
    // Transposed: element (j, i) is matrix[i][j].
    let transposed: Vec<f64> = (0..inputs)
        .flat_map(|j| (0..outputs).map(move |i| (i, j)))
        .map(|(i, j)| matrix[(i * inputs + j) as usize])
        .collect();
    let weights = b.float_constant(&[inputs, outputs], element, &transposed);
    b.matmul(input, weights)
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(input) = op.operand(0) else {
        return false;
    };
    let Ok(result) = op.result(0) else {
        return false;
    };
    let (Some((shape, element)), Some((out, _))) = (tensor_info(input), tensor_info(result.into()))
    else {
        return false;
    };
    let [n, c, h, w] = shape[..] else {
        return false;
    };
    let (oh, ow) = (out[2], out[3]);
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let b = GraphBuilder {
        context,
        rewriter,
        location,
    };
    let pooled = if h % oh == 0 && w % ow == 0 {
        let window = DenseI64ArrayAttribute::new(context, &[h / oh, w / ow]);
        let pool = glow_graph::AvgPoolOperationBuilder::new(context, location)
            .input(input)
            .kernel(window.into())
            .strides(window.into())
            .build();
        let inserted = rewriter.insert(pool.into());
        let Ok(result) = inserted.result(0) else {
            return false;
        };
        result.into()
    } else {
        let rows = b.reshape(input, &[n * c * h, w], element);
        let columns_done = average_columns(&b, rows, element, w, ow); // (N C H) x OW
        let split = b.reshape(columns_done, &[n * c, h, ow], element);
        let h_inner = b.transpose(split, &[0, 2, 1]); // (N C) x OW x H
        let flat = b.reshape(h_inner, &[n * c * ow, h], element);
        let rows_done = average_columns(&b, flat, element, h, oh); // (N C OW) x OH
        let unflat = b.reshape(rows_done, &[n, c, ow, oh], element);
        b.transpose(unflat, &[0, 1, 3, 2])
    };
    rewriter.replace_op_with_values(op, &[pooled]);
    true
}
