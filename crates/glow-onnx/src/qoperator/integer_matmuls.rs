//! onnxruntime's integer matmuls with a float result, which its session optimizer
//! writes into a saved `quantize_dynamic` model (`SessionOptions.optimized_model_filepath`)
//! and QAttention contains, as standard ops:
//! - MatMulIntegerToFloat(A, B, a_scale, b_scale, a_zero_point, b_zero_point, bias):
//!   MatMulInteger(A, B, a_zero_point, b_zero_point), Cast to float, times a_scale,
//!   times b_scale (per tensor or per column), plus bias
//! - DynamicQuantizeMatMul(A, B, b_scale, b_zero_point, bias): DynamicQuantizeLinear
//!   of A, then the same with its run-time scale and zero point
//!
//! MatMulInteger with a run-time zero point runs on the int8 kernels (the zero point
//! is corrected with the weights' column sums).

use super::{input, int_attribute, new_node, Rewriter};
use crate::proto::{tensor_proto::DataType, NodeProto};

/// The contrib op types of this module.
pub const OPS: &[&str] = &["DynamicQuantizeMatMul", "MatMulIntegerToFloat"];

/// The operands of an integer product with a float result: names of values, empty
/// when absent.
pub(super) struct IntegerProduct {
    pub a: String,
    pub b: String,
    pub a_scale: String,
    pub b_scale: String,
    pub a_zero_point: String,
    pub b_zero_point: String,
    pub bias: String,
}

impl Rewriter {
    /// A fresh value name under the node being rewritten.
    fn fresh_value(&mut self, what: &str) -> String {
        let base = format!("{}/{what}", self.label);
        self.names.fresh(&base)
    }

    /// Pushes `op_type(inputs) -> fresh value` and returns the value.
    fn push(&mut self, op_type: &str, what: &str, inputs: Vec<String>) -> String {
        let output = self.fresh_value(what);
        let node = new_node(
            op_type,
            format!("{}/{what}", self.label),
            inputs,
            vec![output.clone()],
        );
        self.nodes.push(node);
        output
    }

    /// `(a - a_zero_point)(b - b_zero_point) * a_scale * b_scale (+ bias)` as
    /// MatMulInteger, Cast, Mul, Mul (, Add) into `output`, or a fresh value.
    pub(super) fn integer_product(&mut self, p: &IntegerProduct, output: Option<&str>) -> String {
        let mut inputs = vec![
            p.a.clone(),
            p.b.clone(),
            p.a_zero_point.clone(),
            p.b_zero_point.clone(),
        ];
        while inputs.last().is_some_and(String::is_empty) {
            inputs.pop();
        }
        let product = self.push("MatMulInteger", "integer_product", inputs);
        let float = self.push("Cast", "float_product", vec![product]);
        let cast = self.nodes.last_mut().expect("just pushed");
        cast.attribute
            .push(int_attribute("to", DataType::Float as i64));
        let mut value = self.push("Mul", "a_scaled", vec![float, p.a_scale.clone()]);
        value = self.push("Mul", "scaled", vec![value, p.b_scale.clone()]);
        if !p.bias.is_empty() {
            value = self.push("Add", "biased", vec![value, p.bias.clone()]);
        }
        if let Some(output) = output {
            // The last step writes the rewritten node's own output.
            self.nodes.last_mut().expect("just pushed").output = vec![output.into()];
            value = output.into();
        }
        value
    }
}

/// Rewrites MatMulIntegerToFloat / DynamicQuantizeMatMul `node` (see the module
/// documentation).
pub(super) fn rewrite(node: &NodeProto, rewriter: &mut Rewriter) -> Result<(), String> {
    let output = node
        .output
        .first()
        .filter(|o| !o.is_empty())
        .ok_or("no output")?;
    let product = match node.op_type() {
        "MatMulIntegerToFloat" => {
            if let Some(missing) = [0, 1, 2, 3]
                .into_iter()
                .find(|i| input(node, *i).is_empty())
            {
                return Err(format!("input #{missing} is missing"));
            }
            IntegerProduct {
                a: input(node, 0),
                b: input(node, 1),
                a_scale: input(node, 2),
                b_scale: input(node, 3),
                a_zero_point: input(node, 4),
                b_zero_point: input(node, 5),
                bias: input(node, 6),
            }
        }
        _ => {
            if let Some(missing) = [0, 1, 2].into_iter().find(|i| input(node, *i).is_empty()) {
                return Err(format!("input #{missing} is missing"));
            }
            let (quantized, scale, zero_point) = (
                rewriter.fresh_value("quantized_a"),
                rewriter.fresh_value("a_scale"),
                rewriter.fresh_value("a_zero_point"),
            );
            let label = format!("{}/quantize_a", rewriter.label);
            rewriter.nodes.push(new_node(
                "DynamicQuantizeLinear",
                label,
                vec![input(node, 0)],
                vec![quantized.clone(), scale.clone(), zero_point.clone()],
            ));
            IntegerProduct {
                a: quantized,
                b: input(node, 1),
                a_scale: scale,
                b_scale: input(node, 2),
                a_zero_point: zero_point,
                b_zero_point: input(node, 3),
                bias: input(node, 4),
            }
        }
    };
    rewriter.integer_product(&product, Some(output));
    Ok(())
}
