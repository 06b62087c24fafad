//! The activation functions of ONNX's recurrent layers (the `activations` attribute)
//! with their alpha / beta, built from glow.graph ops.

use super::super::{
    activations::softplus_of,
    compose::{bin, scalar, select, un, Bin, Un},
};
use super::Cell;
use crate::builder::{NodeContext, Slot};

/// An activation with its alpha and beta.
#[derive(Clone)]
pub(super) struct Activation {
    name: String,
    alpha: f64,
    beta: f64,
}

/// The activations attribute with alpha / beta consumed in order by the functions that
/// take them (onnxruntime's reading), defaults as the ONNX ops of the same name have.
pub(super) fn activations(
    cx: &NodeContext,
    cell: Cell,
    directions: i64,
) -> Result<Vec<Activation>, String> {
    let per_direction = cell.default_activations().len();
    let names: Vec<String> = match cx.attr_strings("activations") {
        Some(names) if !names.is_empty() => names,
        _ => (0..directions)
            .flat_map(|_| cell.default_activations().iter().map(|s| s.to_string()))
            .collect(),
    };
    if names.len() != per_direction * directions as usize {
        return Err(format!(
            "activations lists {} functions; {} directions need {}",
            names.len(),
            directions,
            per_direction * directions as usize
        ));
    }
    let mut alphas = cx
        .attr_floats("activation_alpha")
        .unwrap_or_default()
        .into_iter();
    let mut betas = cx
        .attr_floats("activation_beta")
        .unwrap_or_default()
        .into_iter();
    names
        .into_iter()
        .map(|name| {
            let (alpha, beta) = match name.to_ascii_lowercase().as_str() {
                "sigmoid" | "tanh" | "relu" | "softsign" | "softplus" => (None, None),
                "affine" => (Some(1.0), Some(0.0)),
                "leakyrelu" => (Some(0.01), None),
                "thresholdedrelu" | "elu" => (Some(1.0), None),
                "scaledtanh" => (Some(1.0), Some(1.0)),
                "hardsigmoid" => (Some(0.2), Some(0.5)),
                _ => return Err(format!("activation '{name}' is not supported")),
            };
            let alpha = alpha.map_or(0.0, |d| alphas.next().map_or(d, f64::from));
            let beta = beta.map_or(0.0, |d| betas.next().map_or(d, f64::from));
            Ok(Activation { name, alpha, beta })
        })
        .collect()
}

pub(super) fn activate<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    f: &Activation,
    x: &Slot<'c, 'a>,
) -> Result<Slot<'c, 'a>, String> {
    let e = x.element;
    let (alpha, beta) = (scalar(e, f.alpha), scalar(e, f.beta));
    match f.name.to_ascii_lowercase().as_str() {
        "sigmoid" => un(cx, Un::Sigmoid, x),
        "tanh" => un(cx, Un::Tanh, x),
        "relu" => bin(cx, Bin::Max, x, &scalar(e, 0.0)),
        "softsign" => {
            let magnitude = un(cx, Un::Abs, x)?;
            let denominator = bin(cx, Bin::Add, &magnitude, &scalar(e, 1.0))?;
            bin(cx, Bin::Div, x, &denominator)
        }
        "softplus" => softplus_of(cx, x),
        "affine" => {
            let scaled = bin(cx, Bin::Mul, x, &alpha)?;
            bin(cx, Bin::Add, &scaled, &beta)
        }
        "leakyrelu" => {
            let negative = bin(cx, Bin::Less, x, &scalar(e, 0.0))?;
            let scaled = bin(cx, Bin::Mul, x, &alpha)?;
            select(cx, &negative, &scaled, x)
        }
        "thresholdedrelu" => {
            let above = bin(cx, Bin::Less, &alpha, x)?;
            select(cx, &above, x, &scalar(e, 0.0))
        }
        "elu" => {
            let negative = bin(cx, Bin::Less, x, &scalar(e, 0.0))?;
            let exp = un(cx, Un::Exp, x)?;
            let minus_one = bin(cx, Bin::Sub, &exp, &scalar(e, 1.0))?;
            let scaled = bin(cx, Bin::Mul, &minus_one, &alpha)?;
            select(cx, &negative, &scaled, x)
        }
        "scaledtanh" => {
            let inner = bin(cx, Bin::Mul, x, &beta)?;
            let t = un(cx, Un::Tanh, &inner)?;
            bin(cx, Bin::Mul, &t, &alpha)
        }
        "hardsigmoid" => {
            let scaled = bin(cx, Bin::Mul, x, &alpha)?;
            let shifted = bin(cx, Bin::Add, &scaled, &beta)?;
            let low = bin(cx, Bin::Max, &shifted, &scalar(e, 0.0))?;
            bin(cx, Bin::Min, &low, &scalar(e, 1.0))
        }
        other => Err(format!("activation '{other}' is not supported")),
    }
}
