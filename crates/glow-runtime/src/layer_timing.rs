//! The runner side of `glow-time-layers`: `glow_layer_begin(N)` / `glow_layer_end(N)`
//! add each layer's wall time to a per-layer total; [`report`] lists the layers that
//! took longest, with their share of the timed total.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

/// Per layer: the total time and the start of the running call.
static TIMES: Mutex<Vec<(Duration, Option<Instant>)>> = Mutex::new(Vec::new());

extern "C" fn begin(id: i64) {
    let now = Instant::now();
    let mut times = TIMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Ok(index) = usize::try_from(id) {
        if index >= times.len() {
            times.resize(index + 1, (Duration::ZERO, None));
        }
        times[index].1 = Some(now);
    }
}

extern "C" fn end(id: i64) {
    let now = Instant::now();
    let mut times = TIMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(entry) = usize::try_from(id).ok().and_then(|i| times.get_mut(i)) {
        if let Some(start) = entry.1.take() {
            entry.0 += now - start;
        }
    }
}

/// The two timing functions by name, for the JIT to resolve them to: C-ABI functions
/// `(i64) -> ()` that live for the process.
pub fn symbols() -> Vec<(String, usize)> {
    vec![
        ("glow_layer_begin".into(), begin as *const () as usize),
        ("glow_layer_end".into(), end as *const () as usize),
    ]
}

/// Clears the totals (before the timed runs).
pub fn reset() {
    TIMES.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The `top` layers by total time as report lines (share of the timed total, time per
/// run, the layer's kind and node), `names` the module's `glow.layers`, over `runs`,
/// then one line totalling the layers by source node kind (the last segment of the
/// node's name without its numeric suffix: `Conv`, `Relu`, `Add`, ...).
pub fn report(names: &[String], runs: usize, top: usize) -> Vec<String> {
    let times = TIMES.lock().unwrap_or_else(|e| e.into_inner());
    let total: Duration = times.iter().map(|(t, _)| *t).sum();
    let mut order: Vec<usize> = (0..times.len()).collect();
    order.sort_by(|a, b| times[*b].0.cmp(&times[*a].0));
    let runs = runs.max(1) as f64;
    let mut lines = vec![format!(
        "layers: {} timed, {:.3} ms per run in them; the {} slowest:",
        times.len(),
        total.as_secs_f64() * 1e3 / runs,
        top.min(times.len())
    )];
    for index in order.into_iter().take(top) {
        let share = if total.is_zero() {
            0.0
        } else {
            100.0 * times[index].0.as_secs_f64() / total.as_secs_f64()
        };
        lines.push(format!(
            "{:>6.1}% {:>9.3} ms  {}",
            share,
            times[index].0.as_secs_f64() * 1e3 / runs,
            names.get(index).map_or("?", String::as_str)
        ));
    }
    lines.push(by_kind(names, &times, total));
    lines
}

/// `by node kind: Conv 81.2%, Add 6.0%, ...` over every timed layer, largest first.
fn by_kind(names: &[String], times: &[(Duration, Option<Instant>)], total: Duration) -> String {
    let mut kinds: Vec<(String, Duration)> = Vec::new();
    for (index, (time, _)) in times.iter().enumerate() {
        let kind = names.get(index).map_or("?", |name| node_kind(name));
        match kinds.iter_mut().find(|(k, _)| k == kind) {
            Some((_, sum)) => *sum += *time,
            None => kinds.push((kind.to_string(), *time)),
        }
    }
    kinds.sort_by_key(|kind| std::cmp::Reverse(kind.1));
    let parts: Vec<String> = kinds
        .iter()
        .map(|(kind, time)| {
            let share = if total.is_zero() {
                0.0
            } else {
                100.0 * time.as_secs_f64() / total.as_secs_f64()
            };
            format!("{kind} {share:.1}%")
        })
        .collect();
    format!("by node kind: {}", parts.join(", "))
}

/// The node kind in a layer name `op-kind /path/to/Kind_12`: `Kind`; for a layer
/// named by a file location instead, its op kind.
fn node_kind(name: &str) -> &str {
    let node = name.split_whitespace().last().unwrap_or(name);
    if !node.contains('/') || node.contains(".mlir:") {
        return name.split_whitespace().next().unwrap_or(name);
    }
    let last = node.rsplit('/').next().unwrap_or(node);
    match last.rsplit_once('_') {
        Some((kind, suffix)) if !kind.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit()) => {
            kind
        }
        _ => last,
    }
}
