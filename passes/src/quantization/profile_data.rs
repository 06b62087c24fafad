//! Quantization profiles (Glow's `-dump-profile` / `-load-profile`): per profiled
//! value its name, [min, max] and a histogram, plus a hash of the graph they were
//! taken on; the histograms' calibration into a range (min/max, KL divergence,
//! percentile) and the schemas that turn a range into int8 parameters.
//!
//! The file is YAML:
//! ```yaml
//! graph_hash: 3f1c2d...
//! values:
//! - name: conv1
//!   min: -1.25
//!   max: 3.5
//!   histogram_min: -1.25
//!   histogram_max: 3.5
//!   histogram: [0, 3, 17, ...]
//! ```

use serde::{Deserialize, Serialize};
use std::path::Path;

/// One profiled value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueProfile {
    /// The value's name (its ONNX node or input).
    pub name: String,
    /// Smallest value seen.
    pub min: f64,
    /// Largest value seen.
    pub max: f64,
    /// Lower edge of the histogram.
    pub histogram_min: f64,
    /// Upper edge of the histogram.
    pub histogram_max: f64,
    /// Counts of equal-width bins between the edges.
    pub histogram: Vec<u64>,
}

/// A profile: the graph's hash and its values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Hash of the graph the profile was taken on.
    pub graph_hash: String,
    /// The values, in the graph's order.
    pub values: Vec<ValueProfile>,
}

impl Profile {
    /// Reads and checks a profile file; errors name the file and the value at fault.
    pub fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read profile '{}': {e}", path.display()))?;
        let profile: Profile = serde_norway::from_str(&text)
            .map_err(|e| format!("profile '{}' is malformed: {e}", path.display()))?;
        for value in &profile.values {
            value
                .check()
                .map_err(|e| format!("profile '{}': value '{}' {e}", path.display(), value.name))?;
        }
        Ok(profile)
    }

    /// Writes the profile as YAML to `path` (through a temporary file, so a failed
    /// write leaves no partial file).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = self.to_yaml()?;
        let directory = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temporary = directory.join(format!(".{name}.partial-{}", std::process::id()));
        std::fs::write(&temporary, text)
            .map_err(|e| format!("cannot write '{}': {e}", temporary.display()))?;
        std::fs::rename(&temporary, path).map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            format!("cannot write '{}': {e}", path.display())
        })
    }

    /// The YAML text: one entry per value, histograms as flow lists (one line each).
    pub fn to_yaml(&self) -> Result<String, String> {
        let scalar = |text: &str| -> Result<String, String> {
            serde_norway::to_string(text)
                .map(|s| s.trim_end().to_string())
                .map_err(|e| e.to_string())
        };
        let number = |v: f64| -> String {
            if v.is_nan() {
                ".nan".into()
            } else if v.is_infinite() {
                if v > 0.0 { ".inf" } else { "-.inf" }.into()
            } else {
                format!("{v:?}")
            }
        };
        let mut out = String::from("# Glow quantization profile (glow-run --dump-profile)\n");
        out += &format!("graph_hash: {}\nvalues:\n", scalar(&self.graph_hash)?);
        for value in &self.values {
            let counts: Vec<String> = value.histogram.iter().map(u64::to_string).collect();
            out += &format!(
                "- name: {}\n  min: {}\n  max: {}\n  histogram_min: {}\n  histogram_max: {}\n  histogram: [{}]\n",
                scalar(&value.name)?,
                number(value.min),
                number(value.max),
                number(value.histogram_min),
                number(value.histogram_max),
                counts.join(", ")
            );
        }
        Ok(out)
    }

    /// The profile of the value named `name`.
    pub fn value(&self, name: &str) -> Option<&ValueProfile> {
        self.values.iter().find(|v| v.name == name)
    }
}

impl ValueProfile {
    fn check(&self) -> Result<(), String> {
        for (what, v) in [
            ("min", self.min),
            ("max", self.max),
            ("histogram_min", self.histogram_min),
            ("histogram_max", self.histogram_max),
        ] {
            if !v.is_finite() {
                return Err(format!("has a non-finite {what} ({v}): the model produced NaN or infinity during profiling, so no quantization range exists"));
            }
        }
        if self.min > self.max {
            return Err(format!("has min {} above max {}", self.min, self.max));
        }
        if self.histogram.is_empty() || self.histogram_min > self.histogram_max {
            return Err("has an empty or inverted histogram".into());
        }
        Ok(())
    }
}

/// A histogram whose range grows with the data: when a batch falls outside it, the
/// range widens to cover the batch and the old counts are moved to the bins holding
/// their bin centres (Glow's histogram rescaling).
#[derive(Clone, Debug)]
pub struct Histogram {
    /// Smallest value seen.
    pub min: f64,
    /// Largest value seen.
    pub max: f64,
    low: f64,
    high: f64,
    counts: Vec<u64>,
}

impl Histogram {
    /// An empty histogram of `bins` bins.
    pub fn new(bins: usize) -> Self {
        Self {
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            low: 0.0,
            high: 0.0,
            counts: vec![0; bins.max(1)],
        }
    }

    /// Adds `values`; a NaN or infinity makes the profile unusable (reported on load).
    pub fn add(&mut self, values: &[f32]) {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values {
            let v = *v as f64;
            if v.is_nan() {
                self.min = f64::NAN;
                self.max = f64::NAN;
                return;
            }
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if values.is_empty() || self.min.is_nan() {
            return;
        }
        let first = self.min > self.max;
        self.min = self.min.min(lo);
        self.max = self.max.max(hi);
        if !self.min.is_finite() || !self.max.is_finite() {
            return;
        }
        if first {
            self.low = lo;
            self.high = if hi > lo { hi } else { lo + 1e-6 };
        } else if lo < self.low || hi > self.high {
            self.widen(lo.min(self.low), hi.max(self.high));
        }
        let bins = self.counts.len();
        let width = (self.high - self.low) / bins as f64;
        for v in values {
            let index = (((*v as f64 - self.low) / width) as usize).min(bins - 1);
            self.counts[index] += 1;
        }
    }

    fn widen(&mut self, low: f64, high: f64) {
        let bins = self.counts.len();
        let old_width = (self.high - self.low) / bins as f64;
        let new_width = (high - low) / bins as f64;
        let mut counts = vec![0u64; bins];
        for (i, count) in self.counts.iter().enumerate() {
            let centre = self.low + (i as f64 + 0.5) * old_width;
            let index = (((centre - low) / new_width) as usize).min(bins - 1);
            counts[index] += count;
        }
        self.counts = counts;
        self.low = low;
        self.high = high;
    }

    /// The profile entry of the value named `name`.
    pub fn profile(&self, name: &str) -> ValueProfile {
        ValueProfile {
            name: name.to_string(),
            min: self.min,
            max: self.max,
            histogram_min: self.low,
            histogram_max: self.high,
            histogram: self.counts.clone(),
        }
    }
}

/// How a range is chosen from a value's histogram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calibration {
    /// The observed [min, max].
    MinMax,
    /// The clipping threshold minimizing the KL divergence between the histogram and
    /// its 8-bit quantization (TensorRT's entropy calibration; Glow's KL mode).
    Kl,
    /// The range holding all but the 0.01% most extreme values.
    Percentile,
}

impl Calibration {
    /// Parses `minmax`, `kl` or `percentile`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "minmax" => Some(Self::MinMax),
            "kl" => Some(Self::Kl),
            "percentile" => Some(Self::Percentile),
            _ => None,
        }
    }
}

/// The counts of |x| on [0, max |x|], folded from the value histogram.
fn magnitudes(value: &ValueProfile) -> (Vec<f64>, f64) {
    let bins = value.histogram.len();
    let width = (value.histogram_max - value.histogram_min) / bins as f64;
    let limit = value
        .histogram_min
        .abs()
        .max(value.histogram_max.abs())
        .max(1e-12);
    let mut out = vec![0f64; bins];
    for (i, count) in value.histogram.iter().enumerate() {
        let centre = (value.histogram_min + (i as f64 + 0.5) * width).abs();
        let index = ((centre / limit * bins as f64) as usize).min(bins - 1);
        out[index] += *count as f64;
    }
    (out, limit)
}

fn kl_divergence(p: &[f64], q: &[f64]) -> f64 {
    let (sp, sq) = (p.iter().sum::<f64>(), q.iter().sum::<f64>());
    if sp == 0.0 || sq == 0.0 {
        return f64::INFINITY;
    }
    p.iter()
        .zip(q)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, q)| {
            let (p, q) = (p / sp, (q / sq).max(1e-12));
            p * (p / q).ln()
        })
        .sum()
}

/// The |x| threshold with the least KL divergence between the clipped histogram and
/// its quantization to `levels` levels.
fn kl_threshold(counts: &[f64], limit: f64, levels: usize) -> f64 {
    let bins = counts.len();
    if bins <= levels {
        return limit;
    }
    let mut best = (f64::INFINITY, bins);
    for end in (levels..=bins).step_by((bins / 256).max(1)) {
        // Reference: the first `end` bins, outliers added to the last.
        let mut reference: Vec<f64> = counts[..end].to_vec();
        reference[end - 1] += counts[end..].iter().sum::<f64>();
        // Candidate: merge into `levels` groups, spread back over non-empty bins.
        let mut candidate = vec![0f64; end];
        for level in 0..levels {
            let start = level * end / levels;
            let stop = ((level + 1) * end / levels).max(start + 1);
            let total: f64 = counts[start..stop].iter().sum();
            let used = counts[start..stop].iter().filter(|c| **c > 0.0).count();
            if used > 0 {
                for (i, c) in counts[start..stop].iter().enumerate() {
                    if *c > 0.0 {
                        candidate[start + i] = total / used as f64;
                    }
                }
            }
        }
        let divergence = kl_divergence(&reference, &candidate);
        if divergence < best.0 {
            best = (divergence, end);
        }
    }
    limit * best.1 as f64 / bins as f64
}

/// The value of the histogram at quantile `q` (0..1).
fn quantile(value: &ValueProfile, q: f64) -> f64 {
    let total: u64 = value.histogram.iter().sum();
    let bins = value.histogram.len();
    let width = (value.histogram_max - value.histogram_min) / bins as f64;
    let target = q * total as f64;
    let mut seen = 0f64;
    for (i, count) in value.histogram.iter().enumerate() {
        seen += *count as f64;
        if seen >= target {
            return value.histogram_min + (i as f64 + 1.0) * width;
        }
    }
    value.histogram_max
}

/// The range `calibration` chooses for `value` ([min, max] narrowed, never widened).
pub fn calibrated_range(value: &ValueProfile, calibration: Calibration) -> (f64, f64) {
    let (min, max) = (value.min, value.max);
    match calibration {
        Calibration::MinMax => (min, max),
        Calibration::Percentile => {
            let (lo, hi) = (quantile(value, 0.0001), quantile(value, 0.9999));
            (lo.clamp(min, max), hi.clamp(min, max))
        }
        Calibration::Kl => {
            let (counts, limit) = magnitudes(value);
            let threshold = kl_threshold(&counts, limit, 128);
            (min.max(-threshold), max.min(threshold))
        }
    }
}

/// How a range becomes int8 parameters (Glow's quantization schemas).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schema {
    /// int8 with a zero point: the range maps onto [-128, 127].
    Asymmetric,
    /// int8 with zero point 0: scale = max |x| / 127.
    Symmetric,
    /// uint8 with zero point 0 for non-negative ranges, else symmetric int8.
    SymmetricUint8,
    /// Symmetric with the scale rounded up to a power of two.
    SymmetricPow2,
}

impl Schema {
    /// Parses the schema names of the `schema` option.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "asymmetric" => Some(Self::Asymmetric),
            "symmetric" => Some(Self::Symmetric),
            "symmetric_uint8" => Some(Self::SymmetricUint8),
            "symmetric_pow2" => Some(Self::SymmetricPow2),
            _ => None,
        }
    }
}

/// Per-tensor 8-bit parameters: (scale, zero point, signed storage).
pub fn parameters(range: (f64, f64), schema: Schema) -> Result<(f64, i64, bool), String> {
    let (lo, hi) = (range.0.min(0.0), range.1.max(0.0));
    if !lo.is_finite() || !hi.is_finite() {
        return Err(format!("range [{lo}, {hi}] is not finite"));
    }
    // A constant-zero value still needs a positive scale.
    let tiny = f64::from(f32::MIN_POSITIVE);
    let magnitude = lo.abs().max(hi.abs());
    let parameters = match schema {
        Schema::Asymmetric => {
            let scale = ((hi - lo) / 255.0).max(tiny);
            let zero = (-128.0 - lo / scale).round().clamp(-128.0, 127.0) as i64;
            (scale, zero, true)
        }
        Schema::Symmetric => ((magnitude / 127.0).max(tiny), 0, true),
        Schema::SymmetricUint8 if lo >= 0.0 => ((hi / 255.0).max(tiny), 0, false),
        Schema::SymmetricUint8 => ((magnitude / 127.0).max(tiny), 0, true),
        Schema::SymmetricPow2 => {
            let scale = (magnitude / 127.0).max(tiny);
            (2f64.powf(scale.log2().ceil()), 0, true)
        }
    };
    // Scales are held as f32, as in ONNX.
    Ok((parameters.0 as f32 as f64, parameters.1, parameters.2))
}
