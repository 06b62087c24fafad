//! adaptive_avg_pool (PyTorch's adaptive_avg_pool2d, Glow's AdaptiveAvgPool) onto
//! primitive nodes:
//! - extents that divide (H = k·OH, W = l·OW): `avg_pool` with kernel = strides =
//!   [k, l], the windows being equal and disjoint;
//! - otherwise the windows (row i spans floor(i·H/OH) .. ceil((i+1)·H/OH)) differ in
//!   size and may overlap, and the pool is the linear map Y[n,c] = A · X[n,c] · Bᵀ
//!   with constant averaging matrices A (OH x H) and B (OW x W):
//!   `matmul(reshape(x, NCH x W), Bᵀ)`, a transpose bringing H innermost, and
//!   `matmul(·, Aᵀ)`, then a transpose back to N x C x OH x OW.

use super::builder::tensor_info;
use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::{DenseElementsAttribute, DenseI64ArrayAttribute, FloatAttribute},
        operation::OperationLike,
        r#type::RankedTensorType,
        Attribute, Location, Operation, OperationRef, Type, Value,
    },
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

/// Inserts ops at the rewriter's insertion point.
struct Emitter<'c, 'r, 'b> {
    context: &'c Context,
    rewriter: &'r RewriterBase<'c, 'b>,
    location: Location<'c>,
    element: Type<'c>,
}

impl<'c, 'r> Emitter<'c, 'r, '_> {
    fn one(&self, op: Operation<'c>) -> Value<'c, 'r> {
        self.rewriter
            .insert(op)
            .result(0)
            .expect("glow.graph ops have one result")
            .into()
    }

    fn tensor(&self, shape: &[i64]) -> Type<'c> {
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        RankedTensorType::new(&dims, self.element, None).into()
    }

    fn reshape(&self, input: Value<'c, '_>, shape: &[i64]) -> Value<'c, 'r> {
        self.one(glow_graph::reshape(self.context, self.tensor(shape), input, self.location).into())
    }

    fn transpose(&self, input: Value<'c, '_>, perm: &[i64]) -> Value<'c, 'r> {
        let perm = DenseI64ArrayAttribute::new(self.context, perm);
        self.one(glow_graph::transpose(self.context, input, perm.into(), self.location).into())
    }

    /// `input` (rows x inputs) times the transposed averaging matrix (inputs x outputs).
    fn average_columns(&self, input: Value<'c, '_>, inputs: i64, outputs: i64) -> Value<'c, 'r> {
        let matrix = averaging_matrix(inputs, outputs);
        // Transposed: element (j, i) is matrix[i][j].
        let values: Vec<Attribute> = (0..inputs)
            .flat_map(|j| (0..outputs).map(move |i| (i, j)))
            .map(|(i, j)| {
                FloatAttribute::new(
                    self.context,
                    self.element,
                    matrix[(i * inputs + j) as usize],
                )
                .into()
            })
            .collect();
        let r#type = self.tensor(&[inputs, outputs]);
        let value = DenseElementsAttribute::new(r#type, &values).expect("shape matches values");
        let weights = self
            .one(glow_graph::constant(self.context, r#type, value.into(), self.location).into());
        self.one(glow_graph::matmul(self.context, input, weights, self.location).into())
    }
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
    let e = Emitter {
        context,
        rewriter,
        location,
        element,
    };
    let pooled = if h % oh == 0 && w % ow == 0 {
        let window = DenseI64ArrayAttribute::new(context, &[h / oh, w / ow]);
        let pool = glow_graph::AvgPoolOperationBuilder::new(context, location)
            .input(input)
            .kernel(window.into())
            .strides(window.into())
            .build();
        e.one(pool.into())
    } else {
        let rows = e.reshape(input, &[n * c * h, w]);
        let columns_done = e.average_columns(rows, w, ow); // (N C H) x OW
        let split = e.reshape(columns_done, &[n * c, h, ow]);
        let h_inner = e.transpose(split, &[0, 2, 1]); // (N C) x OW x H
        let flat = e.reshape(h_inner, &[n * c * ow, h]);
        let rows_done = e.average_columns(flat, h, oh); // (N C OW) x OH
        let unflat = e.reshape(rows_done, &[n, c, ow, oh]);
        e.transpose(unflat, &[0, 1, 3, 2])
    };
    rewriter.replace_op_with_values(op, &[pooled]);
    true
}
