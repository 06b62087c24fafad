//! The quantization report (`glow-run --quantization-report`): the float model and its
//! quantized twin run on the same input; per quantized value, its parameters and the
//! signal-to-quantization-noise ratio of its (dequantized) result against the float
//! value of the same name, worst first.

use crate::{
    model::ModelSource,
    profiling,
    runner::{compile, CompileOptions, Compiled},
    tensor::HostTensor,
};
use anyhow::Result;
use glow_passes::pipelines::{profiling_prefix, Quantization};
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        Module,
    },
    Context,
};
use std::collections::HashMap;

/// One quantized value of the report.
pub struct Layer {
    /// The value's name (its ONNX node).
    pub name: String,
    /// Its quantized type's scale, zero point and storage ("u8" / "i8").
    pub scale: f64,
    /// Zero point.
    pub zero_point: i64,
    /// Storage type.
    pub storage: String,
    /// SQNR in dB (infinite when exact).
    pub sqnr: f64,
}

/// 10 log10(sum f^2 / sum (f - q)^2).
pub fn sqnr(float: &[f32], quantized: &[f32]) -> f64 {
    let signal: f64 = float.iter().map(|v| (*v as f64).powi(2)).sum();
    let noise: f64 = float
        .iter()
        .zip(quantized)
        .map(|(f, q)| (*f as f64 - *q as f64).powi(2))
        .sum();
    if noise == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (signal.max(f64::MIN_POSITIVE) / noise).log10()
    }
}

/// The quantized parameters behind each report tap of `module`: name -> (scale, zero
/// point, storage).
fn tap_parameters(module: &Module) -> HashMap<String, (f64, i64, String)> {
    let mut out = HashMap::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() != Ok("glow.quant.profile") {
            return WalkResult::Advance;
        }
        let name = op
            .attribute("name")
            .map(|a| a.to_string().trim_matches('"').to_string());
        let parameters = op
            .operand(0)
            .ok()
            .and_then(glow_passes::framework::values::operation_result)
            .and_then(|r| r.owner().operand(0).ok())
            .and_then(glow_passes::lower_nodes::builder::tensor_info)
            .and_then(|(_, element)| glow_dialects::quant_types::uniform(element));
        if let (Ok(name), Some(q)) = (name, parameters) {
            let storage = format!("{}{}", if q.signed { "i" } else { "u" }, q.width);
            out.insert(name, (q.scales[0], q.zero_points[0], storage));
        }
        WalkResult::Advance
    });
    out
}

fn by_name(compiled: &Compiled, tensors: HashMap<i64, Vec<f32>>) -> HashMap<String, Vec<f32>> {
    compiled
        .profiled
        .0
        .iter()
        .filter_map(|(id, name)| tensors.get(id).map(|t| (name.clone(), t.clone())))
        .collect()
}

/// A report: the quantized values (worst first), the SQNR of each model output, and
/// the quantized model (for the caller's timing).
pub struct Report {
    /// Quantized values, worst SQNR first.
    pub layers: Vec<Layer>,
    /// (output name, SQNR in dB).
    pub outputs: Vec<(String, f64)>,
    /// The quantized model.
    pub quantized: Compiled,
}

/// Runs the report on `inputs`.
pub fn run(
    context: &Context,
    source: &ModelSource,
    options: &CompileOptions,
    quantization: &Quantization,
    inputs: &mut [HostTensor],
) -> Result<Report> {
    let float_options = CompileOptions {
        prefix: Some(profiling_prefix(1)),
        ..options.clone()
    };
    let float = compile(context, source, &float_options, &mut |_| {})?;
    let quantized_options = CompileOptions {
        prefix: Some(
            Quantization {
                report: true,
                ..quantization.clone()
            }
            .prefix()
            .map_err(anyhow::Error::msg)?,
        ),
        ..options.clone()
    };
    let mut parameters = HashMap::new();
    let quantized = compile(context, source, &quantized_options, &mut |module| {
        parameters = tap_parameters(module);
    })?;
    profiling::start_tensors();
    let (float_outputs, _) = float.run(inputs, 1)?;
    let float_values = by_name(&float, profiling::finish_tensors());
    profiling::start_tensors();
    let (quantized_outputs, _) = quantized.run(inputs, 1)?;
    let quantized_values = by_name(&quantized, profiling::finish_tensors());
    let mut layers: Vec<Layer> = quantized_values
        .iter()
        .filter_map(|(name, q)| {
            let f = float_values.get(name)?;
            let (scale, zero_point, storage) = parameters.get(name)?.clone();
            (f.len() == q.len()).then(|| Layer {
                name: name.clone(),
                scale,
                zero_point,
                storage,
                sqnr: sqnr(f, q),
            })
        })
        .collect();
    layers.sort_by(|a, b| a.sqnr.total_cmp(&b.sqnr));
    let outputs = quantized
        .outputs
        .iter()
        .zip(float_outputs.iter().zip(&quantized_outputs))
        .map(|(port, (f, q))| {
            let as_f32 = |t: &HostTensor| t.values().iter().map(|v| *v as f32).collect::<Vec<_>>();
            (port.name.clone(), sqnr(&as_f32(f), &as_f32(q)))
        })
        .collect();
    Ok(Report {
        layers,
        outputs,
        quantized,
    })
}
