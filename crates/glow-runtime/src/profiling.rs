//! The runtime side of `glow.quant.profile`: compiled code calls
//! `glow_profile_record_<shape>(data, count, id)` (glow-lower-profiles) for every
//! profiled value; the recorder keeps
//! a growing histogram per id (profiling runs) or the whole tensor (the quantization
//! report), and the profile ops' ids and names are read from the module before they
//! are lowered.

use glow_passes::quantization::profile_data::{Histogram, Profile};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Module,
};
use std::{collections::HashMap, sync::Mutex};

/// What the recorder does with the values it is handed.
enum Recorder {
    Histograms(Vec<Histogram>),
    Tensors(HashMap<i64, Vec<f32>>),
}

static RECORDER: Mutex<Option<Recorder>> = Mutex::new(None);

/// The recorder every `glow_profile_record_<shape>` declaration resolves to: `count`
/// contiguous f32 values at `data` (a static-shape buffer under the bare-pointer
/// calling convention) for profiled value `id`.
unsafe extern "C" fn record(data: *const f32, count: i64, id: i64) {
    // A panic must not unwind into the compiled code.
    let _ = std::panic::catch_unwind(|| {
        if data.is_null() || count < 0 {
            return;
        }
        // SAFETY: the compiled code passes its live buffer of `count` f32 values.
        let values = unsafe { std::slice::from_raw_parts(data, count as usize) }.to_vec();
        let mut recorder = RECORDER.lock().unwrap_or_else(|e| e.into_inner());
        match recorder.as_mut() {
            Some(Recorder::Histograms(histograms)) => {
                if let Some(h) = histograms.get_mut(id as usize) {
                    h.add(&values);
                }
            }
            Some(Recorder::Tensors(tensors)) => {
                tensors.insert(id, values);
            }
            None => {}
        }
    });
}

/// The recorder symbols a lowered module declares (`glow_profile_record_<shape>`).
pub fn recorder_symbols(module: &Module) -> Vec<String> {
    let prefix = format!("{}_", glow_passes::quantization::lower_profile::RECORDER);
    let mut symbols = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if let Some(name) = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_string())
            .filter(|name| name.starts_with(&prefix))
        {
            symbols.push(name);
        }
        WalkResult::Advance
    });
    symbols
}

/// The recorder's address under each of `symbols`, for the JIT to resolve them to: every
/// declaration lowers to `(ptr, i64, i64)`, the recorder's C signature, and the function
/// lives for the process.
pub fn symbols(symbols: &[String]) -> Vec<(String, usize)> {
    let recorder = record as *const () as usize;
    symbols.iter().map(|s| (s.clone(), recorder)).collect()
}

/// The profiled values of a module after glow-profile (or glow-quantize's report
/// taps): (id, name) in id order, and the graph hash glow-profile recorded.
pub fn profiled_values(module: &Module) -> (Vec<(i64, String)>, Option<String>) {
    let mut values = Vec::new();
    let mut hash = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        match name.as_string_ref().as_str() {
            Ok("glow.quant.profile") => {
                let text = |n: &str| op.attribute(n).ok().map(|a| a.to_string());
                let id = op
                    .attribute("id")
                    .ok()
                    .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                    .map_or(0, |a| a.value());
                if let Some(name) = text("name") {
                    values.push((id, name.trim_matches('"').to_string()));
                }
            }
            Ok("func.func") => {
                if let Ok(a) = op.attribute(glow_passes::quantization::profile::HASH_ATTRIBUTE) {
                    hash = Some(a.to_string().trim_matches('"').to_string());
                }
            }
            _ => {}
        }
        WalkResult::Advance
    });
    values.sort();
    (values, hash)
}

/// Starts recording histograms of `count` values with `bins` bins each.
pub fn start_histograms(count: usize, bins: usize) {
    *RECORDER.lock().unwrap_or_else(|e| e.into_inner()) =
        Some(Recorder::Histograms(vec![Histogram::new(bins); count]));
}

/// Starts recording whole tensors (the last one per id).
pub fn start_tensors() {
    *RECORDER.lock().unwrap_or_else(|e| e.into_inner()) = Some(Recorder::Tensors(HashMap::new()));
}

/// The profile of the recorded histograms, named by `values`.
pub fn finish_profile(values: &[(i64, String)], hash: &str) -> Profile {
    let recorder = RECORDER.lock().unwrap_or_else(|e| e.into_inner()).take();
    let Some(Recorder::Histograms(histograms)) = recorder else {
        return Profile {
            graph_hash: hash.to_string(),
            values: Vec::new(),
        };
    };
    Profile {
        graph_hash: hash.to_string(),
        values: values
            .iter()
            .filter_map(|(id, name)| histograms.get(*id as usize).map(|h| h.profile(name)))
            .collect(),
    }
}

/// The recorded tensors, by id.
pub fn finish_tensors() -> HashMap<i64, Vec<f32>> {
    match RECORDER.lock().unwrap_or_else(|e| e.into_inner()).take() {
        Some(Recorder::Tensors(t)) => t,
        _ => HashMap::new(),
    }
}
