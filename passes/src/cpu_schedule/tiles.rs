//! Tile sizes for the CPU kernels, chosen from static shapes so every tile divides its
//! dimension (no partial tiles: the vectorizer then sees static shapes, with no peeling
//! or masking): the register tile keeps its accumulators in the 32 AVX-512 registers,
//! the vector lane dimension is the contiguous one (output channels, channels, columns)
//! in widths of 8 to 64 lanes, and each reduction step is one outer product (one input
//! channel / one k), so no vector transposes are needed. Filters larger than half the
//! L2 cache run their filter tiles outermost. Measured rationale (this machine, per
//! kernel GFLOP/s): README's "CPU code generation" section and ../shared/CPU-CODEGEN.md.

/// The linalg ops the CPU schedule tiles and vectorizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `linalg.conv_2d_nhwc_hwcf`: loops (n, oh, ow, f, kh, kw, c).
    Conv2dNhwcHwcf,
    /// `linalg.depthwise_conv_2d_nhwc_hwc`: loops (n, oh, ow, c, kh, kw).
    DepthwiseConv2dNhwcHwc,
    /// `linalg.matmul`: loops (m, n, k).
    Matmul,
    /// `linalg.batch_matmul`: loops (b, m, n, k).
    BatchMatmul,
    /// `linalg.pooling_nhwc_max` / `linalg.pooling_nhwc_sum` (max and average pools):
    /// loops (n, oh, ow, c, kh, kw), tiled as a depthwise convolution.
    PoolingNhwc,
}

impl Kernel {
    /// The kernel of a linalg op name.
    pub fn of(name: &str) -> Option<Self> {
        Some(match name {
            "linalg.conv_2d_nhwc_hwcf" => Self::Conv2dNhwcHwcf,
            "linalg.depthwise_conv_2d_nhwc_hwc" => Self::DepthwiseConv2dNhwcHwc,
            "linalg.matmul" => Self::Matmul,
            "linalg.batch_matmul" => Self::BatchMatmul,
            "linalg.pooling_nhwc_max" | "linalg.pooling_nhwc_sum" => Self::PoolingNhwc,
            _ => return None,
        })
    }
}

/// How one op is tiled: an outer tiling of the parallel loops (the register tile), an
/// inner tiling of the reduction loops, and whether the tile is then decomposed from a
/// 2-D to a 1-D convolution (which is what linalg's vectorizer handles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// One size per loop, 0 for the reduction loops.
    pub parallel: Vec<i64>,
    /// One size per loop, 0 for the parallel loops.
    pub reduction: Vec<i64>,
    /// Order of the parallel tile loops, outermost first (empty: the op's order).
    pub interchange: Vec<i64>,
    /// An outer tiling of the reduction loops, outside the register-tile loops (empty:
    /// none): blocks of k whose weight panel stays in L1 while every row tile reads
    /// it (the accumulators then start from memory once per block).
    pub reduction_block: Vec<i64>,
    /// Decompose the tiled convolution to its 1-D form before vectorizing.
    pub decompose: bool,
}

/// Vector registers the accumulators of one register tile may take.
const ACCUMULATOR_REGISTERS: i64 = 24;
/// L2 cache per core on this machine kind.
pub const L2_BYTES: i64 = 1 << 20;
/// The part of the 48 KB L1 data cache a weight panel may take.
const L1_PANEL_BYTES: i64 = 32 << 10;
/// f32 lanes of one AVX-512 register.
const LANES: i64 = 16;

/// The largest divisor of `n` that is at most `cap` (at least 1).
pub fn largest_divisor_at_most(n: i64, cap: i64) -> i64 {
    (1..=cap.min(n).max(1))
        .rev()
        .find(|d| n % d == 0)
        .unwrap_or(1)
}

/// The vector width for a contiguous dimension of size `n`: the first of `widths` that
/// divides it, else the whole dimension when it is short, else its largest divisor of
/// at most the widest width.
pub fn lane_tile(n: i64, widths: &[i64]) -> i64 {
    if let Some(w) = widths.iter().copied().find(|w| n % w == 0) {
        return w;
    }
    let widest = widths.iter().copied().max().unwrap_or(LANES);
    if n <= widest {
        n
    } else {
        largest_divisor_at_most(n, widest)
    }
}

/// Registers one row of `lanes` lanes takes.
fn registers(lanes: i64) -> i64 {
    (lanes + LANES - 1) / LANES
}

/// The most rows a matmul register tile of `n_tile` lanes per row takes (its
/// accumulators must fit the registers; at most 6 rows).
pub fn row_tile_cap(n_tile: i64) -> i64 {
    (ACCUMULATOR_REGISTERS / registers(n_tile)).clamp(1, 6)
}

/// The register tile (output columns x output channels) of a convolution whose output
/// rows are `ow` wide with `f` channels: of the channel widths that divide `f` (32, 16,
/// 8 lanes), the one whose tile holds the most accumulator lanes, as rows of at most 14
/// columns that divide `ow` must fit the accumulator registers (a 13-wide row with 256
/// channels: 13 x 16, not 1 x 32). Ties go to the wider channel tile (fewer input
/// broadcasts per filter load).
pub fn conv_register_tile(ow: i64, f: i64) -> (i64, i64) {
    let mut candidates: Vec<i64> = [32, 16, 8].into_iter().filter(|w| f % w == 0).collect();
    if candidates.is_empty() {
        candidates.push(lane_tile(f, &[32, 16, 8]));
    }
    candidates
        .into_iter()
        .map(|f_tile| {
            let cap = 14.min(ACCUMULATOR_REGISTERS / registers(f_tile)).max(1);
            (largest_divisor_at_most(ow, cap), f_tile)
        })
        .max_by_key(|(w_tile, f_tile)| (w_tile * f_tile, *f_tile))
        .expect("at least one candidate")
}

/// The k block of a matmul whose `k x n_tile` weight panel is larger than a quarter of
/// the L2 cache and is read by at least four row tiles: the largest divisor of `k`
/// whose panel fits the L1 share, if it leaves at least two blocks. A smaller panel
/// stays in L2 while each register tile runs the whole `k` with its accumulators in
/// registers: blocking it (128 x 64 panels in L1) stored and reloaded the accumulators
/// per block and ran slower, one thread, same run (m x k x n): 256 x 256 x 1024
/// 0.604 -> 0.566 ms (onnxruntime 0.53), 128 x 512 x 2048 1.10 -> 1.06, 197 x 768 x
/// 3072 4.07 -> 3.80 (onnxruntime 3.98); deeper panels keep the blocks (197 x 3072 x
/// 768 3.93 blocked, 4.05 not; 256 x 4096 x 256 2.11 against 2.34).
fn k_block(m: i64, m_tile: i64, n_tile: i64, k: i64) -> Option<i64> {
    if m < 4 * m_tile || k * n_tile * 4 <= L2_BYTES / 4 {
        return None;
    }
    let kc = largest_divisor_at_most(k, L1_PANEL_BYTES / (n_tile * 4));
    (kc >= 16 && k / kc >= 2).then_some(kc)
}

/// The tiling of `kernel` with static output shape `output` and reduction sizes
/// `reduction` (conv: [kh, kw, c]; depthwise: [kh, kw]; matmul: [k]), or `None` when
/// the shapes do not fit the kernel.
pub fn tiling(kernel: Kernel, output: &[i64], reduction: &[i64]) -> Option<Tiling> {
    if output.iter().chain(reduction).any(|d| *d <= 0) {
        return None;
    }
    match (kernel, output, reduction) {
        (Kernel::Conv2dNhwcHwcf, [_, _, ow, f], [kh, kw, c]) => {
            let (w_tile, f_tile) = conv_register_tile(*ow, *f);
            // Filters larger than half the L2 cache: run the filter tiles outermost, so
            // one tile's filter slice stays cached across the output positions.
            let filter_bytes = kh * kw * c * f * 4;
            let interchange = if filter_bytes > L2_BYTES / 2 {
                vec![3, 0, 1, 2, 4, 5, 6]
            } else {
                vec![]
            };
            Some(Tiling {
                parallel: vec![1, 1, w_tile, f_tile, 0, 0, 0],
                reduction: vec![0, 0, 0, 0, 1, 1, 1],
                interchange,
                reduction_block: vec![],
                decompose: true,
            })
        }
        (Kernel::DepthwiseConv2dNhwcHwc | Kernel::PoolingNhwc, [_, _, ow, c], [_, _]) => {
            let c_tile = lane_tile(*c, &[16, 8]);
            let w_tile = largest_divisor_at_most(*ow, 8);
            Some(Tiling {
                parallel: vec![1, 1, w_tile, c_tile, 0, 0],
                reduction: vec![0, 0, 0, 0, 1, 1],
                interchange: vec![],
                reduction_block: vec![],
                decompose: true,
            })
        }
        (Kernel::Matmul, [m, n], [k]) => {
            let n_tile = lane_tile(*n, &[64, 32, 16, 8]);
            let m_tile = largest_divisor_at_most(*m, row_tile_cap(n_tile));
            // Weights larger than half the L2 cache: column tiles outermost, so one
            // tile's weight columns stay cached across the row tiles (otherwise every
            // row tile streams all the weights again).
            let interchange = if k * n * 4 > L2_BYTES / 2 && *m > m_tile {
                vec![1, 0, 2]
            } else {
                vec![]
            };
            Some(Tiling {
                parallel: vec![m_tile, n_tile, 0],
                reduction: vec![0, 0, 1],
                reduction_block: k_block(*m, m_tile, n_tile, *k)
                    .map_or_else(Vec::new, |kc| vec![0, 0, kc]),
                interchange,
                decompose: false,
            })
        }
        (Kernel::BatchMatmul, [_, m, n], [_]) => {
            let n_tile = lane_tile(*n, &[64, 32, 16, 8]);
            let m_tile = largest_divisor_at_most(*m, row_tile_cap(n_tile));
            Some(Tiling {
                parallel: vec![1, m_tile, n_tile, 0],
                reduction: vec![0, 0, 0, 1],
                interchange: vec![],
                reduction_block: vec![],
                decompose: false,
            })
        }
        _ => None,
    }
}
