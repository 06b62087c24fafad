//! The Winograd F(2x2, 3x3) convolution kernel, as MLIR text on tensors (NHWC f32
//! activations, the filter transformed at compile time, [`super::filter`]).
//!
//! Each 2x2 block of output pixels (a tile) is computed from the 4x4 input patch that
//! covers it: `Y = Aᵀ [ (G g Gᵀ) ⊙ (Bᵀ d B) ] A`, 16 multiplications per output
//! channel and input channel where the direct convolution does 36. Three stages:
//!
//! 1. Input transform: one `scf.forall` over (tile, 16 input channels) reads the 16
//!    vectors of the patch and writes `V = Bᵀ d B` into `V[16][P][C]` (P tiles).
//! 2. One `scf.forall` iteration per (image, block of output channels) runs the tile
//!    rows in sequence (so the block's transformed filter stays in the L2 cache), and
//!    each row in groups of `T` consecutive tiles: for each of the 16 transform
//!    positions, a loop over the input channels multiplies `V[ab][tile][c]`
//!    (broadcast) by a row of `U[ab][c][block]` into `T x block / 16` accumulators
//!    (a matmul micro-kernel's register tile), stored to a scratch buffer of the
//!    iteration's own (`[16][slots][16]`, in L1) ([`super::products`]).
//! 3. Output transform of each tile's 16 products from the scratch, bias, optional
//!    ReLU, one `2 x 2 x block` vector written into the output.
//!
//! Rows whose tile count the group size does not divide end in a smaller group. An
//! odd output height or width is tiled as the next even one, from one more row or
//! column of zero padding, and sliced.

use crate::quant_kernels::kernel_text::{tensor, Text};
use std::fmt::Write;

/// The geometry of one kernel.
#[derive(Clone, Debug)]
pub struct WinogradKernel {
    /// Function name.
    pub name: String,
    /// Input N, H, W, C (unpadded).
    pub input: [i64; 4],
    /// [top, left, bottom, right].
    pub pads: [i64; 4],
    /// Output channels.
    pub filters: i64,
    /// Output channels per register tile (a multiple of 16 dividing `filters`).
    pub block: i64,
    /// Tiles per register tile (consecutive tiles of a tile row).
    pub group: i64,
    /// Clamp the output at zero (a fused ReLU).
    pub relu: bool,
}

/// The register tile for `columns` tiles per tile row and `filters` output channels:
/// `(tiles per group, channels per block)`. Two vectors (32 channels) per tile when
/// the channels allow, measured best here (ResNet-50's 14x14 layer: 7 x 32 0.45 ms,
/// 6 x 64 0.63 ms, 12 x 32 0.46 ms; a block's transformed filter is half as large),
/// and the largest group of at most 24 / vectors tiles that divides the row, so that
/// no row ends in a small group whose weights stream for little work; rows without
/// such a divisor (at least 4) take the largest group and a smaller last one.
pub fn register_tile(columns: i64, filters: i64) -> (i64, i64) {
    let vectors = [2, 4, 1]
        .into_iter()
        .find(|v| filters % (16 * v) == 0)
        .unwrap_or(1);
    let widest = (24 / vectors).min(columns);
    let group = (1..=widest)
        .rev()
        .find(|g| columns % g == 0)
        .filter(|g| *g >= 4 || *g == columns)
        .unwrap_or(widest);
    (group, 16 * vectors)
}

/// `Bᵀ` of F(2x2, 3x3): the input transform's rows.
const BT: [[i64; 4]; 4] = [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]];
/// `Aᵀ` of F(2x2, 3x3): the output transform's rows.
pub(super) const AT: [[i64; 4]; 2] = [[1, 1, 1, 0], [0, 1, -1, -1]];

impl WinogradKernel {
    /// Output height and width.
    pub fn output(&self) -> [i64; 2] {
        let [_, h, w, _] = self.input;
        [
            h + self.pads[0] + self.pads[2] - 2,
            w + self.pads[1] + self.pads[3] - 2,
        ]
    }

    /// The output the tiles cover: the output rounded up to even sizes (an odd
    /// output's last tile row and column compute one row or column more, from one
    /// more row or column of zero padding, and are sliced off).
    pub(super) fn tiled_output(&self) -> [i64; 2] {
        let [oh, ow] = self.output();
        [oh + oh % 2, ow + ow % 2]
    }

    /// Tile rows, tile columns and tiles in all.
    pub(super) fn tiles(&self) -> (i64, i64, i64) {
        let [oh, ow] = self.tiled_output();
        (oh / 2, ow / 2, self.input[0] * (oh / 2) * (ow / 2))
    }

    /// The transformed filter's shape: `[filters / block][16][C][block]`.
    pub fn filter_shape(&self) -> [i64; 4] {
        [self.filters / self.block, 16, self.input[3], self.block]
    }

    fn output_type(&self) -> String {
        let [oh, ow] = self.output();
        tensor(&[self.input[0], oh, ow, self.filters], "f32")
    }

    pub(super) fn blocked_output_type(&self) -> String {
        let [oh, ow] = self.tiled_output();
        tensor(&[self.input[0], oh, ow, self.filters / 16, 16], "f32")
    }

    /// The kernel's `func.func private` text. Operands: input, transformed filter, bias.
    pub fn text(&self) -> String {
        let mut t = Text::default();
        let input = tensor(&self.input, "f32");
        let filter = tensor(&self.filter_shape(), "f32");
        let output = self.output_type();
        let k = self.filters;
        let _ = writeln!(
            t.out,
            "func.func private @{}(%x: {input}, %u: {filter}, %bias: tensor<{k}xf32>) -> {output} {{",
            self.name
        );
        let zero = t.let_(2, "arith.constant 0.0 : f32");
        let [n, h, w, c] = self.input;
        let [oh, ow] = self.output();
        let [tiled_h, tiled_w] = self.tiled_output();
        let (bottom, right) = (self.pads[2] + tiled_h - oh, self.pads[3] + tiled_w - ow);
        let padded_shape = [n, h + self.pads[0] + bottom, w + self.pads[1] + right, c];
        let padded_type = tensor(&padded_shape, "f32");
        let padded = if self.pads[..2].iter().any(|p| *p != 0) || bottom != 0 || right != 0 {
            let name = t.fresh();
            t.line(
                2,
                &format!(
                    "{name} = tensor.pad %x low[0, {}, {}, 0] high[0, {}, {}, 0] {{",
                    self.pads[0], self.pads[1], bottom, right
                ),
            );
            t.line(2, "^bb0(%i0: index, %i1: index, %i2: index, %i3: index):");
            t.line(4, &format!("tensor.yield {zero} : f32"));
            t.line(2, &format!("}} : {input} to {padded_type}"));
            name
        } else {
            "%x".to_string()
        };
        let transformed = self.input_transform(&mut t, &padded, &padded_type);
        // The output as [N, Ho, Wo, K / 16, 16] while the rows are written, so that a
        // tile's 2 x 2 x channels is one N-D vector of 16-lane rows.
        let tiled_type = tensor(&[n, tiled_h, tiled_w, self.filters], "f32");
        let empty = t.let_(2, &format!("tensor.empty() : {tiled_type}"));
        let blocked = t.let_(
            2,
            &format!(
                "tensor.expand_shape {empty} [[0], [1], [2], [3, 4]] output_shape [{n}, {tiled_h}, {tiled_w}, {}, 16] : {tiled_type} into {}",
                self.filters / 16,
                self.blocked_output_type()
            ),
        );
        let current = self.row_loop(&mut t, &transformed, &blocked);
        let mut result = t.let_(
            2,
            &format!(
                "tensor.collapse_shape {current} [[0], [1], [2], [3, 4]] : {} into {tiled_type}",
                self.blocked_output_type()
            ),
        );
        if [tiled_h, tiled_w] != [oh, ow] {
            result = t.let_(
                2,
                &format!(
                    "tensor.extract_slice {result}[0, 0, 0, 0] [{n}, {oh}, {ow}, {}] [1, 1, 1, 1] : {tiled_type} to {output}",
                    self.filters
                ),
            );
        }
        t.line(2, &format!("return {result} : {output}"));
        t.line(0, "}");
        t.out
    }

    /// The affine map text of tile `p`'s image, tile row and tile column.
    fn tile_position(&self, t: &mut Text, indent: usize, p: &str) -> [String; 3] {
        let (rows, columns, _) = self.tiles();
        let per_image = rows * columns;
        [
            t.let_(
                indent,
                &format!("affine.apply affine_map<(d0) -> (d0 floordiv {per_image})>({p})"),
            ),
            t.let_(
                indent,
                &format!(
                    "affine.apply affine_map<(d0) -> (((d0 floordiv {columns}) mod {rows}) * 2)>({p})"
                ),
            ),
            t.let_(
                indent,
                &format!("affine.apply affine_map<(d0) -> ((d0 mod {columns}) * 2)>({p})"),
            ),
        ]
    }

    /// Stage 1: `V[16][P][C]` from the padded input; returns its value.
    fn input_transform(&self, t: &mut Text, padded: &str, padded_type: &str) -> String {
        let (_, _, tiles) = self.tiles();
        let c = self.input[3];
        let v_type = tensor(&[16, tiles, c], "f32");
        let init = t.let_(2, &format!("tensor.empty() : {v_type}"));
        let result = t.fresh();
        t.line(
            2,
            &format!(
                "{result} = scf.forall (%p, %cv) in ({tiles}, {}) shared_outs(%vo = {init}) -> ({v_type}) {{",
                c / 16
            ),
        );
        let i = 4;
        let zero = t.let_(i, "arith.constant 0.0 : f32");
        let [image, row, column] = self.tile_position(t, i, "%p");
        let channel = t.let_(i, "affine.apply affine_map<(d0) -> (d0 * 16)>(%cv)");
        let mut d: Vec<Vec<String>> = Vec::new();
        for r in 0..4 {
            let ih = t.let_(
                i,
                &format!("affine.apply affine_map<(d0) -> (d0 + {r})>({row})"),
            );
            let mut line = Vec::new();
            for s in 0..4 {
                let iw = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 + {s})>({column})"),
                );
                line.push(t.let_(
                    i,
                    &format!(
                        "vector.transfer_read {padded}[{image}, {ih}, {iw}, {channel}], {zero} {{in_bounds = [true]}} : {padded_type}, vector<16xf32>"
                    ),
                ));
            }
            d.push(line);
        }
        // Bᵀ d (rows), then (Bᵀ d) B (columns).
        let rows: Vec<Vec<String>> = (0..4)
            .map(|a| {
                (0..4)
                    .map(|s| {
                        let column: Vec<String> = (0..4).map(|r| d[r][s].clone()).collect();
                        combine(t, i, &BT[a], &column)
                    })
                    .collect()
            })
            .collect();
        // The 16 vectors as one vector<16x16xf32>, written once: a chain of 16 tensor
        // writes would cost one-shot-bufferize's alias analysis quadratic time.
        let mut values = t.let_(i, "arith.constant dense<0.0> : vector<16x16xf32>");
        for (a, row) in rows.iter().enumerate() {
            for (b, coefficients) in BT.iter().enumerate() {
                let value = combine(t, i, coefficients, row);
                values = t.let_(
                    i,
                    &format!(
                        "vector.insert {value}, {values} [{}] : vector<16xf32> into vector<16x16xf32>",
                        a * 4 + b
                    ),
                );
            }
        }
        let block_type = "tensor<16x16xf32>";
        let c0 = t.let_(i, "arith.constant 0 : index");
        let empty = t.let_(i, &format!("tensor.empty() : {block_type}"));
        let block = t.let_(
            i,
            &format!(
                "vector.transfer_write {values}, {empty}[{c0}, {c0}] {{in_bounds = [true, true]}} : vector<16x16xf32>, {block_type}"
            ),
        );
        t.end_forall(
            i,
            &format!(
                "{block} into %vo[0, %p, {channel}] [16, 1, 16] [1, 1, 1] : {block_type} into {v_type}"
            ),
        );
        result
    }
}

/// `Σ coefficients[k] * values[k]` for coefficients in {-1, 0, 1}, as vector adds and
/// subtracts (the first nonzero coefficient is +1 in every row of Bᵀ and Aᵀ except
/// Bᵀ's third, which starts with -1 and is written as a subtraction).
pub(super) fn combine(
    t: &mut Text,
    indent: usize,
    coefficients: &[i64],
    values: &[String],
) -> String {
    let terms: Vec<(i64, &String)> = coefficients
        .iter()
        .copied()
        .zip(values)
        .filter(|(k, _)| *k != 0)
        .collect();
    let positive = terms.iter().position(|(k, _)| *k > 0).expect("a +1 term");
    let mut sum = terms[positive].1.clone();
    for (index, (k, value)) in terms.iter().enumerate() {
        if index == positive {
            continue;
        }
        let op = if *k > 0 { "arith.addf" } else { "arith.subf" };
        sum = t.let_(indent, &format!("{op} {sum}, {value} : vector<16xf32>"));
    }
    sum
}
