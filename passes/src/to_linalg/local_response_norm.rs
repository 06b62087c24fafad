//! local_response_norm -> linalg on tensors: the squares, zero-padded along the
//! channels (floor((size-1)/2) before, ceil((size-1)/2) after), summed over a window
//! of `size` channels by a linalg.generic with one reduction dimension, then
//! y = x / (bias + alpha / size * sum) ^ beta elementwise (ONNX LRN, channels on
//! dimension 1). A window wider than 2 x channels covers every channel whatever its
//! centre, so it is clamped to 2 x channels (the scale keeps the declared size): a
//! hostile size like 2^62 neither overflows the padding nor allocates it.

use super::builder::{is_float, LinalgBuilder};
use crate::framework::attributes::f64_value;
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::ir::{
    attribute::{FloatAttribute, IntegerAttribute},
    operation::OperationLike,
    Attribute, ValueLike,
};

rule!(
    LOCAL_RESPONSE_NORM,
    "glow.graph.local_response_norm",
    |context, op, rewriter| {
        let (Ok(x), Ok(result)) = (op.operand(0), op.result(0)) else {
            return false;
        };
        let Some((shape, element)) = tensor_info(x) else {
            return false;
        };
        let Some(size) = op
            .attribute("size")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
        else {
            return false;
        };
        let (Some(alpha), Some(beta), Some(bias)) = (
            f64_value(op, "alpha"),
            f64_value(op, "beta"),
            f64_value(op, "bias"),
        ) else {
            return false;
        };
        if !is_float(element) || shape.len() < 2 || size < 1 {
            return false;
        }
        let rank = shape.len();
        let window = match shape[1] {
            channels if channels > 0 => size.min(channels.saturating_mul(2)),
            _ => size,
        };
        let b = LinalgBuilder::before(context, op, rewriter);
        let squares = b.elementwise(&[x], &shape, element, |body, args| {
            body.op("arith.mulf", &[args[0], args[0]], element, &[])
        });
        let mut low = vec![0; rank];
        let mut high = vec![0; rank];
        low[1] = (window - 1) / 2;
        high[1] = window - 1 - low[1];
        let zero: Attribute = FloatAttribute::new(context, element, 0.0).into();
        let padded = b.pad(squares, &low, &high, zero, element);
        // sum[n, c, ..] = Σ_k padded[n, c + k, ..], k the extra loop dimension.
        let dims: Vec<String> = (0..=rank).map(|d| format!("d{d}")).collect();
        let outer = dims[..rank].join(", ");
        let mut shifted = dims[..rank].to_vec();
        shifted[1] = format!("d1 + d{rank}");
        let maps = [
            format!(
                "affine_map<({}) -> ({})>",
                dims.join(", "),
                shifted.join(", ")
            ),
            format!("affine_map<({}) -> (d{rank})>", dims.join(", ")),
            format!("affine_map<({}) -> ({outer})>", dims.join(", ")),
        ];
        // A window-sized input fixes the extent of the reduction dimension.
        let window_shape = b.empty(b.tensor(&[window], element));
        let sums = b.zeros(result.r#type(), zero);
        let mut iterators = vec!["parallel"; rank];
        iterators.push("reduction");
        let summed = b.generic(
            &[padded, window_shape],
            &[sums],
            &maps,
            &iterators,
            |body, args| vec![body.value("arith.addf", &[args[0], args[2]], element, &[])],
        );
        let constant = |body: &super::builder::BodyBuilder<'_, '_>, value: f64| {
            body.op(
                "arith.constant",
                &[],
                element,
                &[("value", &format!("{value:.17e} : {element}"))],
            )
        };
        let converted = b.elementwise(&[x, summed[0]], &shape, element, |body, args| {
            // SAFETY: the constants are defined in the body.
            let (scale, offset, exponent) = unsafe {
                (
                    melior::ir::Value::from_raw(constant(body, alpha / size as f64)),
                    melior::ir::Value::from_raw(constant(body, bias)),
                    melior::ir::Value::from_raw(constant(body, beta)),
                )
            };
            let scaled = body.value("arith.mulf", &[scale, args[1]], element, &[]);
            let base = body.value("arith.addf", &[offset, scaled], element, &[]);
            let denominator = body.value("math.powf", &[base, exponent], element, &[]);
            body.op("arith.divf", &[args[0], denominator], element, &[])
        });
        rewriter.replace_op_with_values(op, &[converted]);
        true
    }
);
