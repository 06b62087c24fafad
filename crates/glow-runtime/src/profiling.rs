//! The runtime side of `glow.quant.profile`: compiled code calls
//! `glow_profile_record(memref<*xf32>, id)` (its C interface,
//! `_mlir_ciface_glow_profile_record`) for every profiled value; the recorder keeps
//! a growing histogram per id (profiling runs) or the whole tensor (the quantization
//! report), and the profile ops' ids and names are read from the module before they
//! are lowered.

use glow_passes::quantization::profile_data::{Histogram, Profile};
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        Module,
    },
    ExecutionEngine,
};
use std::{collections::HashMap, sync::Mutex};

/// What the recorder does with the values it is handed.
enum Recorder {
    Histograms(Vec<Histogram>),
    Tensors(HashMap<i64, Vec<f32>>),
}

static RECORDER: Mutex<Option<Recorder>> = Mutex::new(None);

/// MLIR's unranked memref as C-interface functions receive it.
#[repr(C)]
struct UnrankedMemRef {
    rank: i64,
    descriptor: *const i64,
}

/// The strided f32 elements of a ranked descriptor {allocated, aligned, offset,
/// sizes[rank], strides[rank]}.
///
/// # Safety
/// `descriptor` is a valid descriptor of `rank` dimensions over live f32 data.
unsafe fn elements(rank: usize, descriptor: *const i64) -> Vec<f32> {
    // SAFETY: per the contract.
    unsafe {
        let aligned = *descriptor.add(1) as *const f32;
        let offset = *descriptor.add(2);
        let sizes = std::slice::from_raw_parts(descriptor.add(3), rank);
        let strides = std::slice::from_raw_parts(descriptor.add(3 + rank), rank);
        let count: i64 = sizes.iter().product();
        let mut out = Vec::with_capacity(count.max(0) as usize);
        for index in 0..count.max(0) {
            let mut remaining = index;
            let mut element = offset;
            for d in (0..rank).rev() {
                element += (remaining % sizes[d]) * strides[d];
                remaining /= sizes[d];
            }
            out.push(*aligned.add(element as usize));
        }
        out
    }
}

unsafe extern "C" fn record(memref: *const UnrankedMemRef, id: i64) {
    // A panic must not unwind into the compiled code.
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: the compiled code passes a live unranked descriptor of f32 data.
        let values = unsafe {
            let memref = &*memref;
            elements(memref.rank.max(0) as usize, memref.descriptor)
        };
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

/// Makes `engine` resolve the recorder (call before the first lookup).
pub fn register(engine: &ExecutionEngine) {
    // SAFETY: the symbol has the C interface's signature and lives for the process.
    unsafe {
        engine.register_symbol(
            "_mlir_ciface_glow_profile_record",
            record as *const () as *mut (),
        )
    };
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
