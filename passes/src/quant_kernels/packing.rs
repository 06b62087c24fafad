//! Compile-time data of an int8 micro-kernel: the filter packed in the order the
//! kernel reads it, and the per-channel integer bias and f32 multiplier of its
//! requantization.
//!
//! Layout `[F/16][K/4][16][4]` (CPU-CODEGEN.md's VNNI recipe): one 64-byte load holds,
//! for 16 output channels, 4 consecutive reduction elements each, which is what one
//! `vpdpbusd` multiplies with 4 activation bytes broadcast to every channel. The
//! reduction index runs over (kh, kw, c) with the channels padded to a multiple of 4;
//! padded channels and filters hold 0.

/// A convolution's filter: F x C x KH x KW int8 values (row-major).
pub struct Filter<'d> {
    /// The values.
    pub values: &'d [i64],
    /// Output channels.
    pub filters: usize,
    /// Input channels.
    pub channels: usize,
    /// Kernel height.
    pub kernel_h: usize,
    /// Kernel width.
    pub kernel_w: usize,
}

impl Filter<'_> {
    /// Input channels padded to a multiple of 4.
    pub fn padded_channels(&self) -> usize {
        self.channels.div_ceil(4) * 4
    }

    /// Output channels padded to a multiple of 16.
    pub fn padded_filters(&self) -> usize {
        self.filters.div_ceil(16) * 16
    }

    /// The reduction length in groups of 4 bytes: KH * KW * padded C / 4.
    pub fn reduction_quads(&self) -> usize {
        self.kernel_h * self.kernel_w * self.padded_channels() / 4
    }

    fn at(&self, f: usize, c: usize, kh: usize, kw: usize) -> i64 {
        self.values[((f * self.channels + c) * self.kernel_h + kh) * self.kernel_w + kw]
    }

    /// The packed bytes, `[F/16][K/4][16][4]`.
    pub fn packed(&self) -> Vec<u8> {
        let (blocks, quads) = (self.padded_filters() / 16, self.reduction_quads());
        let cp = self.padded_channels();
        let mut out = vec![0u8; blocks * quads * 64];
        for f in 0..self.filters {
            let (block, lane) = (f / 16, f % 16);
            for kh in 0..self.kernel_h {
                for kw in 0..self.kernel_w {
                    for c in 0..self.channels {
                        let k = (kh * self.kernel_w + kw) * cp + c;
                        let index = ((block * quads + k / 4) * 16 + lane) * 4 + k % 4;
                        out[index] = self.at(f, c, kh, kw) as i8 as u8;
                    }
                }
            }
        }
        out
    }
}

/// Depthwise weights centred on their zero points (`w - zw[c]`), as the int8 values
/// the depthwise kernel multiplies: the centred values themselves (one part) when they fit int8, else
/// two int8 halves `floor(c / 2)` and `c - floor(c / 2)` per value (two parts, whose
/// products sum to the centred one's), or None when even halves do not fit (centred
/// values outside [-256, 254], i.e. uint8 weights of 255 with zero point 0).
/// `per_filter` is the number of values per output channel.
pub fn split_weights(
    values: &[i64],
    zero_points: &[i64],
    per_filter: usize,
) -> Option<Vec<Vec<i64>>> {
    let centred: Vec<i64> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v - zero_points[if zero_points.len() == 1 {
                0
            } else {
                i / per_filter
            }]
        })
        .collect();
    if centred.iter().all(|c| (-128..=127).contains(c)) {
        return Some(vec![centred]);
    }
    if !centred.iter().all(|c| (-256..=254).contains(c)) {
        return None;
    }
    let low: Vec<i64> = centred.iter().map(|c| c.div_euclid(2)).collect();
    let high: Vec<i64> = centred.iter().zip(&low).map(|(c, l)| c - l).collect();
    Some(vec![low, high])
}

/// The int8 weights a dense or grouped VNNI kernel multiplies, F x C x KH x KW.
pub struct KernelWeights {
    /// The values packed: `w - zw[f]` when every centred value fits int8, else
    /// `w - offset` (offset 128 for uint8 storage, 0 for int8), which always fits.
    pub values: Vec<i64>,
    /// For offset weights, `offset - zw[f]` per filter: the kernel adds this factor
    /// times each output pixel's input window sum, since
    /// `sum x (w - zw) = sum x (w - offset) + (offset - zw) sum x`.
    pub window_factors: Option<Vec<i64>>,
    /// `sum (w - zw[f])` per filter (the input zero point's correction factor).
    pub centred_sums: Vec<i64>,
}

/// The weights of a dense or grouped kernel from the stored `values` (`signed`
/// storage or not) and their zero points (one, or one per filter of `per_filter`
/// values). Centring uint8 weights whose zero point is not 128 leaves int8; rather
/// than multiplying two int8 halves (twice the dot products), such weights are offset
/// by 128 and corrected with one input window sum per output pixel.
pub fn kernel_weights(
    values: &[i64],
    zero_points: &[i64],
    per_filter: usize,
    signed: bool,
) -> KernelWeights {
    let zero = |f: usize| zero_points[if zero_points.len() == 1 { 0 } else { f }];
    let filters = values.len() / per_filter.max(1);
    let centred = |i: usize, v: &i64| v - zero(i / per_filter);
    let fits = values
        .iter()
        .enumerate()
        .all(|(i, v)| (-128..=127).contains(&centred(i, v)));
    let centred_sums: Vec<i64> = (0..filters)
        .map(|f| {
            let own = &values[f * per_filter..(f + 1) * per_filter];
            own.iter().sum::<i64>() - zero(f) * per_filter as i64
        })
        .collect();
    if fits {
        return KernelWeights {
            values: values
                .iter()
                .enumerate()
                .map(|(i, v)| centred(i, v))
                .collect(),
            window_factors: None,
            centred_sums,
        };
    }
    let offset = if signed { 0 } else { 128 };
    KernelWeights {
        values: values.iter().map(|v| v - offset).collect(),
        window_factors: Some((0..filters).map(|f| offset - zero(f)).collect()),
        centred_sums,
    }
}

/// The kernel's int32 per-channel operand: the corrected bias of each padded output
/// channel, followed, for offset weights, by the window factors (0 for padding).
pub fn bias_operand(bias: Vec<i32>, factors: Option<&[i64]>) -> Vec<i32> {
    let Some(factors) = factors else {
        return bias;
    };
    let padded = bias.len();
    let mut out = bias;
    out.extend((0..padded).map(|f| factors.get(f).map_or(0, |k| *k as i32)));
    out
}

/// The per-channel requantization of a kernel: acc + bias[c], times multiplier[c],
/// rounded, plus the output zero point, clamped to [low, high].
pub struct Requantization {
    /// int32 added to the accumulator (bias minus the zero-point correction).
    pub bias: Vec<i32>,
    /// f32 multiplier (scale_x * scale_w[c] / scale_y).
    pub multiplier: Vec<f32>,
    /// Output zero point.
    pub zero_point: i32,
    /// Clamp bounds, storage values.
    pub low: i32,
    /// Clamp bounds, storage values.
    pub high: i32,
}

/// The integer bias a VNNI kernel adds to sum(x_u8 * w): `bias` (already in
/// accumulator units) minus `input_zero * sums[c]`, where `input_zero` is the input's
/// zero point as an unsigned byte (a signed input is read with its sign bit flipped,
/// i.e. plus 128). Padded channels get 0.
pub fn corrected_bias(bias: &[i64], sums: &[i64], input_zero: i64, padded: usize) -> Vec<i32> {
    let mut out = vec![0i32; padded];
    for (c, slot) in out.iter_mut().enumerate().take(sums.len()) {
        let b = bias.get(c).copied().unwrap_or(0);
        *slot = (b - input_zero * sums[c]) as i32;
    }
    out
}
