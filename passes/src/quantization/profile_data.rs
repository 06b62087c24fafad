//! Quantization profiles (Glow's `-dump-profile` / `-load-profile`): per profiled
//! value its name, [min, max] and a histogram, plus a hash of the graph they were
//! taken on (calibrated into int8 parameters by [`super::calibration`]).
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
