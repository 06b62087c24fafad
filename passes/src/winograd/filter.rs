//! The Winograd F(2x2, 3x3) filter transform at compile time: each 3x3 filter slice
//! `g` (one output channel, one input channel) becomes the 4x4 `U = G g Gᵀ`, laid out
//! `[F / block][16][C][block]` so that the kernel's loop over input channels reads, for
//! one transform position, `block` consecutive output channels per step.

/// `G` of F(2x2, 3x3).
const G: [[f64; 3]; 4] = [
    [1.0, 0.0, 0.0],
    [0.5, 0.5, 0.5],
    [0.5, -0.5, 0.5],
    [0.0, 0.0, 1.0],
];

/// `weights` as `[F][C][3][3]` (row-major) transformed and laid out as
/// `[F / block][16][C][block]`.
pub fn transform(weights: &[f32], filters: usize, channels: usize, block: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; filters * channels * 16];
    for f in 0..filters {
        let (f_block, lane) = (f / block, f % block);
        for c in 0..channels {
            let g = &weights[(f * channels + c) * 9..][..9];
            // G g: 4 x 3.
            let mut left = [[0.0f64; 3]; 4];
            for (a, row) in left.iter_mut().enumerate() {
                for (s, value) in row.iter_mut().enumerate() {
                    *value = (0..3).map(|r| G[a][r] * g[r * 3 + s] as f64).sum();
                }
            }
            for (a, row) in left.iter().enumerate() {
                for (b, g_row) in G.iter().enumerate() {
                    let u: f64 = row.iter().zip(g_row).map(|(x, y)| x * y).sum();
                    let position = a * 4 + b;
                    out[((f_block * 16 + position) * channels + c) * block + lane] = u as f32;
                }
            }
        }
    }
    out
}
