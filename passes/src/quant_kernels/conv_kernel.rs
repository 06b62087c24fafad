//! The int8 convolution micro-kernel, as MLIR text on tensors: NHWC activations
//! (uint8, or int8 read with the sign bit flipped), the filter packed
//! `[F/16][K/4][16][4]` ([`super::packing`]), int32 accumulators in registers.
//!
//! One `scf.forall` iterates over tiles of `rows` output pixels along W times `vectors`
//! x 16 output channels (filter blocks outermost, so a block's weights stay in cache
//! while the pixels stream). Per tile, loops over kh, kw and the input channels in
//! groups of 4 carry rows x vectors `vector<16xi32>` accumulators; each step
//! broadcasts 4 input bytes per row, loads 64 packed weight bytes per vector and
//! multiply-accumulates with `glow.quant.dot4` (`vpdpbusd` once glow-lower-dot4 has
//! run), or with its plain-vector equivalent (extend, multiply, add groups of 4) on
//! CPUs without VNNI.
//! The epilogue adds the corrected bias, scales in f32, rounds to even, clamps,
//! adds the zero point and stores 16 bytes per vector; for an exact int32 result
//! (ONNX's ConvInteger / MatMulInteger) it stores the biased accumulators as they are. Output widths that the row
//! count does not divide get a second forall for the last tile.

use super::{
    kernel_text::{dot4_generic, tensor, Requantizer, Text},
    window_sums::{self, WindowSums},
};
use std::fmt::Write;

/// How four u8 x s8 products are accumulated into each of 16 int32 lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// `vpdpbusd` on 512-bit vectors (AVX-512 VNNI).
    Avx512Vnni,
    /// Extend to i32, multiply, sum groups of 4: any vector ISA.
    Generic,
}

/// The geometry and constants of one kernel.
#[derive(Clone, Debug)]
pub struct ConvKernel {
    /// Function name.
    pub name: String,
    /// Input N, H, W, C (unpadded).
    pub input: [i64; 4],
    /// Channels padded to a multiple of 4.
    pub padded_channels: i64,
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
    /// Filters padded to a multiple of 16 (the kernel's output channels).
    pub padded_filters: i64,
    /// Whether the input storage is signed (read with its sign bit flipped).
    pub signed_input: bool,
    /// The input zero point as stored (the padding value).
    pub input_zero: i64,
    /// Output zero point and clamp bounds (storage values).
    pub output_zero: i64,
    /// Lower clamp bound.
    pub low: i64,
    /// Upper clamp bound.
    pub high: i64,
    /// How products are accumulated.
    pub isa: Isa,
    /// Whether the result is the exact int32 accumulator plus bias (no requantization).
    pub exact_output: bool,
    /// Whether the filter holds offset weights ([`super::packing::kernel_weights`]):
    /// the epilogue then adds each filter's window factor (the int32 operand's second
    /// half) times the output pixel's input window sum ([`super::window_sums`]).
    pub window_sums: WindowSums,
}

/// Output pixels per tile (rows) and 16-channel vectors per tile.
pub fn tile_shape(output_width: i64, blocks: i64) -> (i64, i64) {
    let vectors = if blocks % 2 == 0 { 2 } else { 1 };
    let rows = [7, 8, 6, 5, 4]
        .into_iter()
        .find(|r| output_width % r == 0)
        .unwrap_or(7.min(output_width));
    (rows, vectors)
}

impl ConvKernel {
    pub(super) fn padded_input(&self) -> [i64; 4] {
        let [n, h, w, _] = self.input;
        [
            n,
            h + self.pads[0] + self.pads[2],
            w + self.pads[1] + self.pads[3],
            self.padded_channels,
        ]
    }

    fn input_type(&self) -> String {
        tensor(&self.input, "i8")
    }

    /// The packed filter, `[F/16][K/4][16 * 4]`: one 64-byte row per vector load.
    fn filter_type(&self) -> String {
        let quads = self.kernel[0] * self.kernel[1] * self.padded_channels / 4;
        tensor(&[self.padded_filters / 16, quads, 64], "i8")
    }

    /// Length of the int32 operand: the bias, then the window factors if any.
    fn bias_length(&self) -> i64 {
        if self.window_sums != WindowSums::None {
            2 * self.padded_filters
        } else {
            self.padded_filters
        }
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
            &[
                self.input[0],
                self.output[0],
                self.output[1],
                self.padded_filters,
            ],
            self.output_element(),
        )
    }

    /// The kernel's `func.func private` text. Operands: input (storage), packed filter,
    /// int32 bias (padded_filters, then as many window factors for offset weights),
    /// f32 multipliers (padded_filters), the window sums if an operand, output init.
    pub fn text(&self) -> String {
        let mut t = Text::default();
        let (input, filter, output) = (self.input_type(), self.filter_type(), self.output_type());
        let (fp, bias_length) = (self.padded_filters, self.bias_length());
        let sums_operand = if self.window_sums == WindowSums::Operand {
            format!("%sums: {}, ", window_sums::sums_type(self))
        } else {
            String::new()
        };
        let _ = writeln!(
            t.out,
            "func.func private @{}(%x: {input}, %w: {filter}, %bias: tensor<{bias_length}xi32>, %mult: tensor<{fp}xf32>, {sums_operand}%init: {output}) -> {output} {{",
            self.name
        );
        let padded_shape = self.padded_input();
        let padded_type = tensor(&padded_shape, "i8");
        let channel_pad = self.padded_channels - self.input[3];
        let needs_pad = self.pads.iter().any(|p| *p != 0) || channel_pad != 0;
        let zero_byte = t.let_(
            2,
            &format!("arith.constant {} : i8", self.input_zero as u8 as i8),
        );
        let padded = if needs_pad {
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
        let sums = match self.window_sums {
            WindowSums::None => None,
            WindowSums::Operand => Some("%sums".to_string()),
            WindowSums::InKernel => {
                let all = window_sums::window_sums(&mut t, self, 1, &padded, &padded_type);
                Some(t.let_(
                    2,
                    &format!(
                        "tensor.collapse_shape {all} [[0, 1], [2], [3]] : {} into {}",
                        window_sums::group_sums_type(self, 1),
                        window_sums::sums_type(self)
                    ),
                ))
            }
        };
        let blocks = fp / 16;
        let (rows, vectors) = tile_shape(self.output[1], blocks);
        let full_tiles = self.output[1] / rows;
        let remainder = self.output[1] % rows;
        let mut current = "%init".to_string();
        if full_tiles > 0 {
            current = self.tile_loop(
                &mut t,
                &padded,
                &padded_type,
                sums.as_deref(),
                &current,
                rows,
                vectors,
                full_tiles,
                0,
            );
        }
        if remainder > 0 {
            current = self.tile_loop(
                &mut t,
                &padded,
                &padded_type,
                sums.as_deref(),
                &current,
                remainder,
                vectors,
                1,
                full_tiles * rows,
            );
        }
        t.line(2, &format!("return {current} : {output}"));
        t.line(0, "}");
        t.out
    }

    /// One scf.forall over `tiles` tiles of `rows` pixels starting at column `offset`,
    /// writing into `destination`; returns the forall's result. `sums`: the output
    /// pixels' window sums (N x OH x OW int32) for offset weights.
    #[allow(clippy::too_many_arguments)]
    fn tile_loop(
        &self,
        t: &mut Text,
        padded: &str,
        padded_type: &str,
        sums: Option<&str>,
        destination: &str,
        rows: i64,
        vectors: i64,
        tiles: i64,
        offset: i64,
    ) -> String {
        let output = self.output_type();
        let blocks = self.padded_filters / 16;
        let filter_tiles = blocks / vectors;
        let [n, oh, _] = [self.input[0], self.output[0], 0];
        let result = t.fresh();
        t.line(
            2,
            &format!(
                "{result} = scf.forall (%j, %n, %oh, %t) in ({filter_tiles}, {n}, {oh}, {tiles}) shared_outs(%out = {destination}) -> ({output}) {{"
            ),
        );
        let i = 4;
        let c0 = t.let_(i, "arith.constant 0 : index");
        let c1 = t.let_(i, "arith.constant 1 : index");
        let ow0 = t.let_(
            i,
            &format!("affine.apply affine_map<(d0) -> (d0 * {rows} + {offset})>(%t)"),
        );
        let nb0 = t.let_(
            i,
            &format!("affine.apply affine_map<(d0) -> (d0 * {vectors})>(%j)"),
        );
        let f0 = t.let_(
            i,
            &format!(
                "affine.apply affine_map<(d0) -> (d0 * {})>(%j)",
                vectors * 16
            ),
        );
        let zero = t.let_(i, "arith.constant dense<0> : vector<16xi32>");
        let count = (rows * vectors) as usize;
        let acc_types = vec!["vector<16xi32>"; count].join(", ");
        let kh_bound = t.let_(i, &format!("arith.constant {} : index", self.kernel[0]));
        let kw_bound = t.let_(i, &format!("arith.constant {} : index", self.kernel[1]));
        let quads = self.padded_channels / 4;
        let cq_bound = t.let_(i, &format!("arith.constant {quads} : index"));
        let iter = |prefix: &str, from: &[String]| -> String {
            from.iter()
                .enumerate()
                .map(|(k, v)| format!("%{prefix}{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let names =
            |prefix: &str| -> Vec<String> { (0..count).map(|k| format!("%{prefix}{k}")).collect() };
        let zeros = vec![zero.clone(); count];
        let r1 = t.fresh();
        t.line(
            i,
            &format!(
                "{r1}:{count} = scf.for %kh = {c0} to {kh_bound} step {c1} iter_args({}) -> ({acc_types}) {{",
                iter("a", &zeros)
            ),
        );
        let ih = t.let_(
            i + 2,
            &format!(
                "affine.apply affine_map<(d0, d1) -> (d0 * {} + d1 * {})>(%oh, %kh)",
                self.strides[0], self.dilations[0]
            ),
        );
        let r2 = t.fresh();
        t.line(
            i + 2,
            &format!(
                "{r2}:{count} = scf.for %kw = {c0} to {kw_bound} step {c1} iter_args({}) -> ({acc_types}) {{",
                iter("b", &names("a"))
            ),
        );
        let k_base = t.let_(
            i + 4,
            &format!(
                "affine.apply affine_map<(d0, d1) -> ((d0 * {} + d1) * {quads})>(%kh, %kw)",
                self.kernel[1]
            ),
        );
        let columns: Vec<String> = (0..rows)
            .map(|m| {
                t.let_(
                    i + 4,
                    &format!(
                        "affine.apply affine_map<(d0, d1) -> (d0 * {sw} + d1 * {dw} + {})>({ow0}, %kw)",
                        m * self.strides[1],
                        sw = self.strides[1],
                        dw = self.dilations[1]
                    ),
                )
            })
            .collect();
        let r3 = t.fresh();
        t.line(
            i + 4,
            &format!(
                "{r3}:{count} = scf.for %cq = {c0} to {cq_bound} step {c1} iter_args({}) -> ({acc_types}) {{",
                iter("c", &names("b"))
            ),
        );
        let j = i + 6;
        let channel = t.let_(j, "affine.apply affine_map<(d0) -> (d0 * 4)>(%cq)");
        let k = t.let_(j, &format!("arith.addi {k_base}, %cq : index"));
        let zero_i8 = t.let_(j, "arith.constant 0 : i8");
        let mut activations = Vec::new();
        for column in &columns {
            let bytes = t.let_(
                j,
                &format!(
                    "vector.transfer_read {padded}[%n, {ih}, {column}, {channel}], {zero_i8} {{in_bounds = [true]}} : {padded_type}, vector<4xi8>"
                ),
            );
            let word = t.let_(
                j,
                &format!("vector.bitcast {bytes} : vector<4xi8> to vector<1xi32>"),
            );
            let mut scalar = t.let_(
                j,
                &format!("vector.extract {word}[0] : i32 from vector<1xi32>"),
            );
            if self.signed_input {
                let flip = t.let_(j, "arith.constant -2139062144 : i32");
                scalar = t.let_(j, &format!("arith.xori {scalar}, {flip} : i32"));
            }
            let wide = t.let_(
                j,
                &format!("vector.broadcast {scalar} : i32 to vector<16xi32>"),
            );
            activations.push(t.let_(
                j,
                &format!("vector.bitcast {wide} : vector<16xi32> to vector<64xi8>"),
            ));
        }
        let filter_type = self.filter_type();
        let mut weights = Vec::new();
        for v in 0..vectors {
            let block = t.let_(
                j,
                &format!("affine.apply affine_map<(d0) -> (d0 + {v})>({nb0})"),
            );
            weights.push(t.let_(
                j,
                &format!(
                    "vector.transfer_read %w[{block}, {k}, {c0}], {zero_i8} {{in_bounds = [true]}} : {filter_type}, vector<64xi8>"
                ),
            ));
        }
        let mut updated = Vec::new();
        for (m, a) in activations.iter().enumerate() {
            for (v, w) in weights.iter().enumerate() {
                let acc = format!("%c{}", m * vectors as usize + v);
                updated.push(self.dot4(t, j, &acc, a, w));
            }
        }
        t.line(
            j,
            &format!("scf.yield {} : {acc_types}", updated.join(", ")),
        );
        t.line(i + 4, "}");
        let r3_values: Vec<String> = (0..count).map(|k| format!("{r3}#{k}")).collect();
        t.line(
            i + 4,
            &format!("scf.yield {} : {acc_types}", r3_values.join(", ")),
        );
        t.line(i + 2, "}");
        let r2_values: Vec<String> = (0..count).map(|k| format!("{r2}#{k}")).collect();
        t.line(
            i + 2,
            &format!("scf.yield {} : {acc_types}", r2_values.join(", ")),
        );
        t.line(i, "}");
        // Epilogue: requantize and store the tile.
        let width = vectors * 16;
        let element = self.output_element();
        let tile_type = format!("tensor<1x1x{rows}x{width}x{element}>");
        let mut tile = t.let_(i, &format!("tensor.empty() : {tile_type}"));
        let zero_i32 = t.let_(i, "arith.constant 0 : i32");
        let zero_f32 = t.let_(i, "arith.constant 0.0 : f32");
        let (fp, bias_length) = (self.padded_filters, self.bias_length());
        let requantizer = Requantizer::new(t, i, self.output_zero, self.low, self.high);
        let mut biases = Vec::new();
        let mut multipliers = Vec::new();
        let mut factors = Vec::new();
        for v in 0..vectors {
            let channel = t.let_(
                i,
                &format!("affine.apply affine_map<(d0) -> (d0 + {})>({f0})", v * 16),
            );
            biases.push(t.let_(
                i,
                &format!("vector.transfer_read %bias[{channel}], {zero_i32} {{in_bounds = [true]}} : tensor<{bias_length}xi32>, vector<16xi32>"),
            ));
            if sums.is_some() {
                let lane = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 + {fp})>({channel})"),
                );
                factors.push(t.let_(
                    i,
                    &format!("vector.transfer_read %bias[{lane}], {zero_i32} {{in_bounds = [true]}} : tensor<{bias_length}xi32>, vector<16xi32>"),
                ));
            }
            multipliers.push(t.let_(
                i,
                &format!("vector.transfer_read %mult[{channel}], {zero_f32} {{in_bounds = [true]}} : tensor<{fp}xf32>, vector<16xf32>"),
            ));
        }
        for m in 0..rows as usize {
            let row = t.let_(i, &format!("arith.constant {m} : index"));
            // acc + factor x the pixel's window sum, for offset weights.
            let window = sums.map(|sums| {
                let column = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 + {m})>({ow0})"),
                );
                let sum = t.let_(
                    i,
                    &format!(
                        "tensor.extract {sums}[%n, %oh, {column}] : {}",
                        window_sums::sums_type(self)
                    ),
                );
                t.let_(
                    i,
                    &format!("vector.broadcast {sum} : i32 to vector<16xi32>"),
                )
            });
            for v in 0..vectors as usize {
                let mut acc = format!("{r1}#{}", m * vectors as usize + v);
                if let Some(window) = &window {
                    let term = t.let_(
                        i,
                        &format!("arith.muli {window}, {} : vector<16xi32>", factors[v]),
                    );
                    acc = t.let_(i, &format!("arith.addi {acc}, {term} : vector<16xi32>"));
                }
                let stored = if self.exact_output {
                    t.let_(
                        i,
                        &format!("arith.addi {acc}, {} : vector<16xi32>", biases[v]),
                    )
                } else {
                    requantizer.bytes(t, i, &acc, &biases[v], &multipliers[v])
                };
                let lane = t.let_(i, &format!("arith.constant {} : index", v * 16));
                tile = t.let_(
                    i,
                    &format!(
                        "vector.transfer_write {stored}, {tile}[{c0}, {c0}, {row}, {lane}] {{in_bounds = [true]}} : vector<16x{element}>, {tile_type}"
                    ),
                );
            }
        }
        t.end_forall(
            i,
            &format!(
                "{tile} into %out[%n, %oh, {ow0}, {f0}] [1, 1, {rows}, {width}] [1, 1, 1, 1] : {tile_type} into {output}"
            ),
        );
        result
    }

    /// acc + 4-byte dot products of `a` (u8) and `w` (s8) per int32 lane.
    pub(super) fn dot4(&self, t: &mut Text, indent: usize, acc: &str, a: &str, w: &str) -> String {
        match self.isa {
            Isa::Avx512Vnni => t.let_(
                indent,
                &format!("glow.quant.dot4 {acc}, {a}, {w} : vector<64xi8> into vector<16xi32>"),
            ),
            Isa::Generic => dot4_generic(t, indent, acc, a, w, false),
        }
    }
}
