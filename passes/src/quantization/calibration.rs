//! From a profiled value to int8 parameters: calibration chooses a range from the
//! value's histogram (min/max, KL divergence, percentile), a schema turns the range
//! into a scale, a zero point and a signedness (Glow's quantization schemas).

use super::profile_data::ValueProfile;

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

    /// Whether the schema maps a symmetric range [-t, t] (zero point 0) for a value
    /// of range `(min, max)`, rather than the range itself.
    fn is_symmetric(self, (min, _max): (f64, f64)) -> bool {
        match self {
            Schema::Asymmetric => false,
            Schema::SymmetricUint8 => min < 0.0,
            Schema::Symmetric | Schema::SymmetricPow2 => true,
        }
    }
}

/// The scale of a value whose calibrated range is the single point 0 (a zero constant,
/// or an activation that was zero on every calibration sample): any scale represents
/// it exactly; Glow's 0.1 leaves room for nonzero values at run time.
const DEGENERATE_SCALE: f64 = 0.1;

/// Per-tensor 8-bit parameters: (scale, zero point, signed storage).
pub fn parameters(range: (f64, f64), schema: Schema) -> Result<(f64, i64, bool), String> {
    let (lo, hi) = (range.0.min(0.0), range.1.max(0.0));
    if !lo.is_finite() || !hi.is_finite() {
        return Err(format!("range [{lo}, {hi}] is not finite"));
    }
    let positive = |scale: f64| if scale > 0.0 { scale } else { DEGENERATE_SCALE };
    let magnitude = lo.abs().max(hi.abs());
    let parameters = match schema {
        Schema::Asymmetric => {
            let scale = positive((hi - lo) / 255.0);
            let zero = (-128.0 - lo / scale).round().clamp(-128.0, 127.0) as i64;
            (scale, zero, true)
        }
        Schema::Symmetric => (positive(magnitude / 127.0), 0, true),
        Schema::SymmetricUint8 if lo >= 0.0 => (positive(hi / 255.0), 0, false),
        Schema::SymmetricUint8 => (positive(magnitude / 127.0), 0, true),
        Schema::SymmetricPow2 => {
            let scale = positive(magnitude / 127.0);
            (2f64.powf(scale.log2().ceil()), 0, true)
        }
    };
    // Scales are held as f32, as in ONNX; one too small for f32 is an error upstream.
    Ok((parameters.0 as f32 as f64, parameters.1, parameters.2))
}

/// The range `calibration` chooses for `value` under `schema` ([min, max] narrowed,
/// never widened).
pub fn calibrated_range(
    value: &ValueProfile,
    calibration: Calibration,
    schema: Schema,
) -> (f64, f64) {
    let (min, max) = (value.min, value.max);
    match calibration {
        Calibration::MinMax => (min, max),
        Calibration::Percentile => {
            let (lo, hi) = (
                quantile(value, 0.0001, false),
                quantile(value, 0.9999, true),
            );
            (lo.clamp(min, max), hi.clamp(min, max))
        }
        Calibration::Kl if schema.is_symmetric((min, max)) => {
            let (counts, limit) = magnitudes(value);
            let threshold = kl_threshold(&counts, limit, 127);
            (min.max(-threshold), max.min(threshold))
        }
        Calibration::Kl => {
            let (lo, hi) = kl_window(value, 255);
            (lo.clamp(min, max), hi.clamp(min, max))
        }
    }
}

/// The value of the histogram at quantile `q` (0..1): the upper edge of the bin that
/// reaches it, or its lower edge for a lower quantile (`upper` false).
fn quantile(value: &ValueProfile, q: f64, upper: bool) -> f64 {
    let total: u64 = value.histogram.iter().sum();
    let bins = value.histogram.len();
    let width = (value.histogram_max - value.histogram_min) / bins as f64;
    let target = q * total as f64;
    let mut seen = 0f64;
    for (i, count) in value.histogram.iter().enumerate() {
        seen += *count as f64;
        if seen >= target && *count > 0 {
            return value.histogram_min + (i as f64 + if upper { 1.0 } else { 0.0 }) * width;
        }
    }
    value.histogram_max
}

/// `value`'s histogram without the bin holding 0: values within one histogram bin of
/// zero are represented by the zero point to less than a quantization step whatever
/// the range, and a spike of exact zeros (after a ReLU, a third to a half of the
/// values) would otherwise dominate the divergence and pull the range far inside the
/// real values.
fn counts_without_zero(value: &ValueProfile) -> Vec<f64> {
    let bins = value.histogram.len();
    let width = (value.histogram_max - value.histogram_min) / bins as f64;
    let mut counts: Vec<f64> = value.histogram.iter().map(|c| *c as f64).collect();
    if value.histogram_min <= 0.0 && value.histogram_max >= 0.0 && width > 0.0 {
        let zero = ((-value.histogram_min / width) as usize).min(bins - 1);
        counts[zero] = 0.0;
    }
    counts
}

/// The counts of |x| on [0, max |x|], folded from the value histogram (the bin of 0
/// excluded, as in [`counts_without_zero`]).
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
    out[0] = 0.0;
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

/// The divergence between `window` with the mass outside it (`below`, `above`) added
/// to its edge bins, and its quantization to `levels` levels (each level's mass spread
/// evenly over its non-empty bins).
fn window_divergence(window: &[f64], below: f64, above: f64, levels: usize) -> f64 {
    let size = window.len();
    let mut reference = window.to_vec();
    reference[0] += below;
    reference[size - 1] += above;
    let mut candidate = vec![0f64; size];
    for level in 0..levels {
        let start = level * size / levels;
        let stop = ((level + 1) * size / levels).max(start + 1).min(size);
        let group = &window[start..stop];
        let total: f64 = group.iter().sum();
        let used = group.iter().filter(|c| **c > 0.0).count();
        if used > 0 {
            for (i, c) in group.iter().enumerate() {
                if *c > 0.0 {
                    candidate[start + i] = total / used as f64;
                }
            }
        }
    }
    kl_divergence(&reference, &candidate)
}

/// The |x| threshold with the least KL divergence between the clipped magnitude
/// histogram and its quantization to `levels` levels (the whole range included).
fn kl_threshold(counts: &[f64], limit: f64, levels: usize) -> f64 {
    let bins = counts.len();
    if bins <= levels {
        return limit;
    }
    let step = (bins / 256).max(1);
    let ends = (levels..bins).step_by(step).chain(std::iter::once(bins));
    let mut best = (f64::INFINITY, bins);
    for end in ends {
        let divergence = window_divergence(&counts[..end], 0.0, counts[end..].iter().sum(), levels);
        if divergence < best.0 {
            best = (divergence, end);
        }
    }
    limit * best.1 as f64 / bins as f64
}

/// The [lo, hi] window of `value`'s histogram with the least KL divergence from its
/// quantization to `levels` levels (Glow's KL minimization for asymmetric schemas):
/// from the whole histogram, the window shrinks by two bins per step on the side
/// (left, right or one each) that clips the fewest values.
fn kl_window(value: &ValueProfile, levels: usize) -> (f64, f64) {
    let counts = counts_without_zero(value);
    let bins = counts.len();
    let width = (value.histogram_max - value.histogram_min) / bins as f64;
    let whole = (value.histogram_min, value.histogram_max);
    if bins <= levels || width <= 0.0 {
        return whole;
    }
    let (mut start, mut stop) = (0usize, bins - 1);
    let (mut below, mut above) = (0f64, 0f64);
    let mut best = (f64::INFINITY, whole);
    while stop + 1 - start >= levels {
        let divergence = window_divergence(&counts[start..=stop], below, above, levels);
        if divergence < best.0 {
            let edges = (
                value.histogram_min + start as f64 * width,
                value.histogram_min + (stop + 1) as f64 * width,
            );
            best = (divergence, edges);
        }
        let both = counts[start] + counts[stop];
        let left = counts[start] + counts[start + 1];
        let right = counts[stop] + counts[stop - 1];
        if both <= left && both <= right {
            below += counts[start];
            above += counts[stop];
            start += 1;
            stop -= 1;
        } else if left <= right {
            below += left;
            start += 2;
        } else {
            above += right;
            stop -= 2;
        }
    }
    best.1
}
