//! The int8 depthwise convolution micro-kernel (MobileNet's 3x3 layers), as MLIR text
//! on tensors: NHWC activations, one filter per channel.
//!
//! `vpdpbusd` multiplies 4 bytes per 32-bit lane, so a lane holds one channel's inputs
//! from 4 kernel rows (kh) of one input column: for each column a tile needs, the
//! 16-channel rows are loaded and interleaved byte by byte (`vector.shuffle`, a
//! `vpermt2b` on AVX-512 VBMI) into one 64-byte vector, which then serves every output
//! pixel of the tile whose window covers the column, with the packed filter vector of
//! that kernel column: `[C/16][ceil(KH/4)][KW][16 x 4]`, unused kernel rows 0. A tile is
//! `rows` output pixels along W by 16 channels; the epilogue is the dense kernel's
//! (requantized bytes, or the exact int32 accumulator plus bias for ConvInteger).
//! Channel counts 16 does not divide (MobileNetV3's 72, 120, 184, 200) are padded to a
//! multiple of 16 with the input zero point (zero weights); the caller slices the
//! real channels out of the result.

use super::{
    conv_kernel::Isa,
    kernel_text::{dot4_generic, tensor, Requantizer, Text},
};
use std::fmt::Write;

/// The geometry and constants of one depthwise kernel.
#[derive(Clone, Debug)]
pub struct DepthwiseKernel {
    /// Function name.
    pub name: String,
    /// Input N, H, W, C.
    pub input: [i64; 4],
    /// C padded to a multiple of 16: the channels the kernel computes.
    pub channels: i64,
    /// Kernel height and width.
    pub kernel: [i64; 2],
    /// [top, left, bottom, right].
    pub pads: [i64; 4],
    /// [h, w].
    pub strides: [i64; 2],
    /// [h, w].
    pub dilations: [i64; 2],
    /// Output H, W.
    pub output: [i64; 2],
    /// Whether the input storage is signed (read with its sign bit flipped).
    pub signed_input: bool,
    /// The input zero point as stored (the padding value).
    pub input_zero: i64,
    /// Output zero point.
    pub output_zero: i64,
    /// Lower clamp bound (storage value).
    pub low: i64,
    /// Upper clamp bound (storage value).
    pub high: i64,
    /// How products are accumulated.
    pub isa: Isa,
    /// int8 filters per weight: 1, or 2 for split centred weights
    /// ([`super::packing::split_weights`]).
    pub weight_parts: i64,
    /// Whether the result is the exact int32 accumulator plus bias (ConvInteger's), not
    /// requantized bytes.
    pub exact_output: bool,
}

/// Packs the parts of a split depthwise filter as `[C/16][ceil(KH/4) * parts][KW][64]`
/// (each part as [`pack_depthwise`] lays it out, a group's parts in consecutive rows).
pub fn pack_depthwise_parts(parts: &[Vec<i64>], channels: usize, kh: usize, kw: usize) -> Vec<u8> {
    let packed: Vec<Vec<u8>> = parts
        .iter()
        .map(|values| pack_depthwise(values, channels, kh, kw))
        .collect();
    let (groups, row) = (kh.div_ceil(4), kw * 64);
    let mut out = Vec::with_capacity(packed.iter().map(Vec::len).sum());
    for block in 0..channels.div_ceil(16) {
        for group in 0..groups {
            for part in &packed {
                let start = (block * groups + group) * row;
                out.extend_from_slice(&part[start..start + row]);
            }
        }
    }
    out
}

/// Packs a C x 1 x KH x KW depthwise filter as `[ceil(C/16)][ceil(KH/4)][KW][16][4]`
/// (channels past C hold 0).
pub fn pack_depthwise(values: &[i64], channels: usize, kh: usize, kw: usize) -> Vec<u8> {
    let groups = kh.div_ceil(4);
    let mut out = vec![0u8; channels.div_ceil(16) * groups * kw * 64];
    for c in 0..channels {
        for row in 0..kh {
            for col in 0..kw {
                let (block, lane, group, slot) = (c / 16, c % 16, row / 4, row % 4);
                let index = (((block * groups + group) * kw + col) * 16 + lane) * 4 + slot;
                out[index] = values[(c * kh + row) * kw + col] as i8 as u8;
            }
        }
    }
    out
}

/// Output pixels per tile.
fn tile_rows(width: i64) -> i64 {
    [8, 7, 6, 5, 4]
        .into_iter()
        .find(|r| width % r == 0)
        .unwrap_or(8.min(width))
}

impl DepthwiseKernel {
    fn groups(&self) -> i64 {
        (self.kernel[0] + 3) / 4
    }

    fn filter_type(&self) -> String {
        tensor(
            &[
                self.channels / 16,
                self.groups() * self.weight_parts,
                self.kernel[1],
                64,
            ],
            "i8",
        )
    }

    /// The result's storage element: bytes, or int32 for an exact result.
    fn output_element(&self) -> &'static str {
        if self.exact_output {
            "i32"
        } else {
            "i8"
        }
    }

    fn output_type(&self) -> String {
        tensor(
            &[self.input[0], self.output[0], self.output[1], self.channels],
            self.output_element(),
        )
    }

    /// The kernel's `func.func private` text. Operands: input (storage), packed filter,
    /// int32 bias (padded C), f32 multipliers (padded C), output init.
    pub fn text(&self) -> String {
        let mut t = Text::default();
        let c = self.channels;
        let input = tensor(&self.input, "i8");
        let (filter, output) = (self.filter_type(), self.output_type());
        let _ = writeln!(
            t.out,
            "func.func private @{}(%x: {input}, %w: {filter}, %bias: tensor<{c}xi32>, %mult: tensor<{c}xf32>, %init: {output}) -> {output} {{",
            self.name
        );
        let padded_shape = [
            self.input[0],
            self.input[1] + self.pads[0] + self.pads[2],
            self.input[2] + self.pads[1] + self.pads[3],
            c,
        ];
        let padded_type = tensor(&padded_shape, "i8");
        let zero_byte = t.let_(
            2,
            &format!("arith.constant {} : i8", self.input_zero as u8 as i8),
        );
        let channel_pad = c - self.input[3];
        let padded = if self.pads.iter().any(|p| *p != 0) || channel_pad != 0 {
            let name = t.fresh();
            t.line(
                2,
                &format!(
                    "{name} = tensor.pad %x low[0, {}, {}, 0] high[0, {}, {}, {channel_pad}] {{",
                    self.pads[0], self.pads[1], self.pads[2], self.pads[3]
                ),
            );
            t.line(2, "^bb0(%i0: index, %i1: index, %i2: index, %i3: index):");
            t.line(4, &format!("tensor.yield {zero_byte} : i8"));
            t.line(2, &format!("}} : {input} to {padded_type}"));
            name
        } else {
            "%x".to_string()
        };
        let rows = tile_rows(self.output[1]);
        let (full, remainder) = (self.output[1] / rows, self.output[1] % rows);
        let mut current = "%init".to_string();
        if full > 0 {
            current = self.tile_loop(&mut t, &padded, &padded_type, &current, rows, full, 0);
        }
        if remainder > 0 {
            current = self.tile_loop(
                &mut t,
                &padded,
                &padded_type,
                &current,
                remainder,
                1,
                full * rows,
            );
        }
        t.line(2, &format!("return {current} : {output}"));
        t.line(0, "}");
        t.out
    }

    #[allow(clippy::too_many_arguments)]
    fn tile_loop(
        &self,
        t: &mut Text,
        padded: &str,
        padded_type: &str,
        destination: &str,
        rows: i64,
        tiles: i64,
        offset: i64,
    ) -> String {
        let output = self.output_type();
        let (n, oh, c) = (self.input[0], self.output[0], self.channels);
        let blocks = c / 16;
        let result = t.fresh();
        t.line(
            2,
            &format!(
                "{result} = scf.forall (%j, %n, %oh, %t) in ({blocks}, {n}, {oh}, {tiles}) shared_outs(%out = {destination}) -> ({output}) {{"
            ),
        );
        let i = 4;
        let c0 = t.let_(i, "arith.constant 0 : index");
        let ow0 = t.let_(
            i,
            &format!("affine.apply affine_map<(d0) -> (d0 * {rows} + {offset})>(%t)"),
        );
        let channel = t.let_(i, "affine.apply affine_map<(d0) -> (d0 * 16)>(%j)");
        let zero_i8 = t.let_(i, "arith.constant 0 : i8");
        let zero16 = t.let_(i, "arith.constant dense<0> : vector<16xi8>");
        let sign = self
            .signed_input
            .then(|| t.let_(i, "arith.constant dense<-128> : vector<16xi8>"));
        let mut acc: Vec<String> = (0..rows)
            .map(|_| t.let_(i, "arith.constant dense<0> : vector<16xi32>"))
            .collect();
        let (sh, sw) = (self.strides[0], self.strides[1]);
        let (dh, dw) = (self.dilations[0], self.dilations[1]);
        let columns = (rows - 1) * sw + (self.kernel[1] - 1) * dw + 1;
        let filter_type = self.filter_type();
        // Interleaving pattern: out[4i + j] = row_j[i].
        let pairs: Vec<String> = (0..16)
            .flat_map(|k| [k, k + 16])
            .map(|k| k.to_string())
            .collect();
        let quads: Vec<String> = (0..16)
            .flat_map(|k| [2 * k, 2 * k + 1, 2 * k + 32, 2 * k + 33])
            .map(|k| k.to_string())
            .collect();
        for group in 0..self.groups() {
            let kernel_rows: Vec<i64> = (group * 4..(group * 4 + 4).min(self.kernel[0])).collect();
            let row_index: Vec<String> = kernel_rows
                .iter()
                .map(|kh| {
                    t.let_(
                        i,
                        &format!(
                            "affine.apply affine_map<(d0) -> (d0 * {sh} + {})>(%oh)",
                            kh * dh
                        ),
                    )
                })
                .collect();
            let weights: Vec<Vec<String>> = (0..self.kernel[1])
                .map(|kw| {
                    let col = t.let_(i, &format!("arith.constant {kw} : index"));
                    (0..self.weight_parts)
                        .map(|part| {
                            let g = t.let_(
                                i,
                                &format!(
                                    "arith.constant {} : index",
                                    group * self.weight_parts + part
                                ),
                            );
                            t.let_(
                                i,
                                &format!(
                                    "vector.transfer_read %w[%j, {g}, {col}, {c0}], {zero_i8} {{in_bounds = [true]}} : {filter_type}, vector<64xi8>"
                                ),
                            )
                        })
                        .collect()
                })
                .collect();
            for column in 0..columns {
                let col = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 * {sw} + {column})>({ow0})"),
                );
                let mut lanes: Vec<String> = row_index
                    .iter()
                    .map(|row| {
                        let bytes = t.let_(
                            i,
                            &format!(
                                "vector.transfer_read {padded}[%n, {row}, {col}, {channel}], {zero_i8} {{in_bounds = [true]}} : {padded_type}, vector<16xi8>"
                            ),
                        );
                        match &sign {
                            Some(flip) => t.let_(i, &format!("arith.xori {bytes}, {flip} : vector<16xi8>")),
                            None => bytes,
                        }
                    })
                    .collect();
                lanes.resize(4, zero16.clone());
                let low = t.let_(
                    i,
                    &format!(
                        "vector.shuffle {}, {} [{}] : vector<16xi8>, vector<16xi8>",
                        lanes[0],
                        lanes[1],
                        pairs.join(", ")
                    ),
                );
                let high = t.let_(
                    i,
                    &format!(
                        "vector.shuffle {}, {} [{}] : vector<16xi8>, vector<16xi8>",
                        lanes[2],
                        lanes[3],
                        pairs.join(", ")
                    ),
                );
                let assembled = t.let_(
                    i,
                    &format!(
                        "vector.shuffle {low}, {high} [{}] : vector<32xi8>, vector<32xi8>",
                        quads.join(", ")
                    ),
                );
                // Output m reads this column with kernel column kw when m*sw + kw*dw == column.
                for (m, a) in acc.iter_mut().enumerate() {
                    let m = m as i64;
                    for kw in 0..self.kernel[1] {
                        if m * sw + kw * dw == column {
                            for part in &weights[kw as usize] {
                                *a = self.dot4(t, i, a, &assembled, part);
                            }
                        }
                    }
                }
            }
        }
        // Epilogue: requantize (or add the bias of an exact result) and store.
        let element = self.output_element();
        let tile_type = format!("tensor<1x1x{rows}x16x{element}>");
        let mut tile = t.let_(i, &format!("tensor.empty() : {tile_type}"));
        let zero_i32 = t.let_(i, "arith.constant 0 : i32");
        let zero_f32 = t.let_(i, "arith.constant 0.0 : f32");
        let requantizer = Requantizer::new(t, i, self.output_zero, self.low, self.high);
        let bias = t.let_(
            i,
            &format!("vector.transfer_read %bias[{channel}], {zero_i32} {{in_bounds = [true]}} : tensor<{c}xi32>, vector<16xi32>"),
        );
        let mult = t.let_(
            i,
            &format!("vector.transfer_read %mult[{channel}], {zero_f32} {{in_bounds = [true]}} : tensor<{c}xf32>, vector<16xf32>"),
        );
        for (m, a) in acc.iter().enumerate() {
            let stored = if self.exact_output {
                t.let_(i, &format!("arith.addi {a}, {bias} : vector<16xi32>"))
            } else {
                requantizer.bytes(t, i, a, &bias, &mult)
            };
            let row = t.let_(i, &format!("arith.constant {m} : index"));
            tile = t.let_(
                i,
                &format!(
                    "vector.transfer_write {stored}, {tile}[{c0}, {c0}, {row}, {c0}] {{in_bounds = [true]}} : vector<16x{element}>, {tile_type}"
                ),
            );
        }
        t.end_forall(
            i,
            &format!(
                "{tile} into %out[%n, %oh, {ow0}, {channel}] [1, 1, {rows}, 16] [1, 1, 1, 1] : {tile_type} into {output}"
            ),
        );
        result
    }

    fn dot4(&self, t: &mut Text, indent: usize, acc: &str, a: &str, w: &str) -> String {
        match self.isa {
            Isa::Avx512Vnni => t.let_(
                indent,
                &format!("glow.quant.dot4 {acc}, {a}, {w} : vector<64xi8> into vector<16xi32>"),
            ),
            Isa::Generic => dot4_generic(t, indent, acc, a, w, false),
        }
    }
}
