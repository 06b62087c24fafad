//! The AMX int8 convolution kernel (`tdpbusd` / `tdpbssd` on 16x64-byte tiles), as MLIR
//! text: a direct convolution whose A tiles are read straight from the padded NHWC
//! input (one output pixel per tile row, 64 input channels of one kernel tap per
//! row), B tiles from the filter packed `[F/16][K/4][16][4]` exactly as the VNNI
//! kernel's (16 reduction quads x 16 channels x 4 bytes: one tile), and C tiles of
//! rows x 16 int32 accumulators carried through the reduction loops
//! (CPU-CODEGEN.md's AMX recipe).
//!
//! Output pixels are grouped into tile rows one of two ways:
//! - flat (stride 1): the output seen with the padded input's width, so that pixel
//!   m = oh * Wp + ow reads its window at m * C plus a per-tap offset and 16
//!   consecutive m are one strided tile load; columns ow >= OW are computed and
//!   dropped (none for 1x1 convolutions, 2 of 9 on a 7x7 map with a 3x3 kernel);
//! - by rows (strided convolutions): tiles of `rows` pixels along one output row,
//!   stride sw * C.
//!
//! Tiles that would run past the end are moved back to end at the last pixel, and
//! their rows already written by another tile are skipped, so every output byte is
//! written once and every read stays inside the input. Up to 2 x 2 C tiles (two
//! pixel tiles, two 16-channel filter blocks) use all 8 tile registers.
//!
//! The kernel needs input channels in multiples of 64 (one tile row is 64 bytes of
//! one tap); the planner gives other layers to the VNNI kernel. Every tile in a
//! kernel has one shape, and kernels stay functions of their own (`no_inline`), as
//! LLVM's tile register allocation wants one configuration per function.
//!
//! The tile operations themselves are [`super::amx_tiles`]'s, spelled for AMX or, to
//! execute and check the kernels' tiling and addressing on CPUs without AMX, as
//! vector code with the same semantics.

use super::{
    amx_tiles::{TileIsa, TileOps},
    kernel_text::{tensor, Requantizer, Text},
};

/// How output pixels map to tile rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// Pixels m = oh * Wp + ow of the output on the padded width (stride 1).
    Flat {
        /// The padded input width.
        width: i64,
        /// Pixels computed: (OH - 1) * Wp + OW.
        pixels: i64,
    },
    /// Tiles of `rows` pixels along each output row, `per_row` of them.
    Rows {
        /// Tiles per output row.
        per_row: i64,
    },
}

/// The geometry and constants of one AMX kernel.
#[derive(Clone, Debug)]
pub struct AmxKernel {
    /// Function name.
    pub name: String,
    /// Input N, H, W, C (unpadded).
    pub input: [i64; 4],
    /// Channels padded (a multiple of 64).
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
    /// Filters padded to a multiple of 16.
    pub padded_filters: i64,
    /// Whether the input storage is signed (`tdpbssd`) rather than unsigned
    /// (`tdpbusd`).
    pub signed_input: bool,
    /// The input zero point as stored (the padding value).
    pub input_zero: i64,
    /// Output zero point (storage value).
    pub output_zero: i64,
    /// Lower clamp bound.
    pub low: i64,
    /// Upper clamp bound.
    pub high: i64,
    /// How tile operations are spelled.
    pub isa: TileIsa,
}

/// The tiling of one kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// How pixels map to tile rows.
    pub grouping: Grouping,
    /// Rows per tile (pixels).
    pub rows: i64,
    /// Pixel tiles per block (1 or 2).
    pub pixel_tiles: i64,
    /// 16-channel filter blocks per block (1 or 2).
    pub filter_tiles: i64,
}

impl AmxKernel {
    fn padded_width(&self) -> i64 {
        self.input[2] + self.pads[1] + self.pads[3]
    }

    fn padded_height(&self) -> i64 {
        self.input[1] + self.pads[0] + self.pads[2]
    }

    /// The tiling, or None when the layer does not suit AMX (channels not in
    /// multiples of 64, or fewer than 4 pixels per tile).
    pub fn tiling(&self) -> Option<Tiling> {
        if self.padded_channels % 64 != 0 || self.padded_filters % 16 != 0 {
            return None;
        }
        let [oh, ow] = self.output;
        let filter_tiles = if (self.padded_filters / 16) % 2 == 0 {
            2
        } else {
            1
        };
        let width = self.padded_width();
        let pixels = (oh - 1) * width + ow;
        if self.strides == [1, 1] && pixels >= 16 {
            return Some(Tiling {
                grouping: Grouping::Flat { width, pixels },
                rows: 16,
                pixel_tiles: if pixels >= 32 { 2 } else { 1 },
                filter_tiles,
            });
        }
        let per_row = (ow + 15) / 16;
        let rows = (ow + per_row - 1) / per_row;
        (rows >= 4).then_some(Tiling {
            grouping: Grouping::Rows { per_row },
            rows,
            pixel_tiles: if oh >= 2 { 2 } else { 1 },
            filter_tiles,
        })
    }

    fn output_type(&self) -> String {
        tensor(
            &[
                self.input[0],
                self.output[0],
                self.output[1],
                self.padded_filters,
            ],
            "i8",
        )
    }

    fn output_memref(&self) -> String {
        format!(
            "memref<{}x{}x{}x{}xi8>",
            self.input[0], self.output[0], self.output[1], self.padded_filters
        )
    }

    /// The function padding the kernel's input (spatial pads, channels to a multiple
    /// of 64), which the call site calls first; `None` when no padding is needed.
    pub fn pad_function(&self) -> Option<String> {
        (self.pads.iter().any(|p| *p != 0) || self.padded_channels != self.input[3])
            .then(|| format!("{}_pad", self.name))
    }

    /// The shape of the kernel's (padded) input.
    pub fn padded_input(&self) -> [i64; 4] {
        [
            self.input[0],
            self.padded_height(),
            self.padded_width(),
            self.padded_channels,
        ]
    }

    /// The packed filter, `[F/16][K/4][16 * 4]`.
    fn filter_shape(&self) -> [i64; 3] {
        let quads = self.kernel[0] * self.kernel[1] * self.padded_channels / 4;
        [self.padded_filters / 16, quads, 64]
    }

    /// The kernel's `func.func private` text, with the operands of the VNNI kernel's:
    /// input (storage), packed filter, int32 bias, f32 multipliers, output init
    /// (unused: the output is written in place); or None when [`Self::tiling`] is None.
    pub fn text(&self) -> Option<String> {
        let tiling = self.tiling()?;
        let mut t = Text::default();
        let [n, h, w, c] = self.input;
        let input = tensor(&self.input, "i8");
        let filter_shape = self.filter_shape();
        let filter = tensor(&filter_shape, "i8");
        let filter_memref = format!(
            "memref<{}x{}x{}xi8>",
            filter_shape[0], filter_shape[1], filter_shape[2]
        );
        let (output, output_memref) = (self.output_type(), self.output_memref());
        let fp = self.padded_filters;
        // The padded input, flat. The padding is its own (inlinable) function that the
        // call site calls first: inlined into the model's function, its buffer is
        // planned with the other activations instead of allocated on every call.
        let (hp, wp, cp) = (
            self.padded_height(),
            self.padded_width(),
            self.padded_channels,
        );
        let padded_type = tensor(&[n, hp, wp, cp], "i8");
        let channel_pad = cp - c;
        let kernel_input = if let Some(pad) = self.pad_function() {
            t.line(
                0,
                &format!("func.func private @{pad}(%x: {input}) -> {padded_type} {{"),
            );
            let zero_byte = t.let_(
                2,
                &format!("arith.constant {} : i8", self.input_zero as u8 as i8),
            );
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
            t.line(2, &format!("return {name} : {padded_type}"));
            t.line(0, "}");
            padded_type.clone()
        } else {
            input.clone()
        };
        t.line(
            0,
            &format!(
                "func.func private @{}(%x: {kernel_input}, %w: {filter}, %bias: tensor<{fp}xi32>, %mult: tensor<{fp}xf32>, %init: {output}) -> {output} attributes {{no_inline, passthrough = [\"noinline\"]}} {{",
                self.name
            ),
        );
        if self.isa == TileIsa::Amx {
            t.line(2, "func.call @glow_request_amx() : () -> ()");
        }
        let padded = "%x".to_string();
        let padded_memref = format!("memref<{n}x{hp}x{wp}x{cp}xi8>");
        let buffer = t.let_(
            2,
            &format!(
                "bufferization.to_buffer {padded} read_only : {padded_type} to {padded_memref}"
            ),
        );
        let length = n * hp * wp * cp;
        let flat = t.let_(
            2,
            &format!(
                "memref.collapse_shape {buffer} [[0, 1, 2, 3]] : {padded_memref} into memref<{length}xi8>"
            ),
        );
        let weights = t.let_(
            2,
            &format!("bufferization.to_buffer %w read_only : {filter} to {filter_memref}"),
        );
        let out = t.let_(
            2,
            &format!("memref.alloc() {{alignment = 64 : i64}} : {output_memref}"),
        );
        let _ = (h, w);
        let spec = Spec {
            flat,
            weights,
            filter_memref,
            out,
            tiling,
        };
        self.block_loop(&mut t, &spec);
        let result = t.let_(
            2,
            &format!(
                "bufferization.to_tensor {} restrict writable : {output_memref} to {output}",
                spec.out
            ),
        );
        t.line(2, &format!("return {result} : {output}"));
        t.line(0, "}");
        Some(t.out)
    }

    /// The scf.forall over blocks of pixel tiles x filter tiles, each reducing over
    /// the taps and 64-channel chunks, then requantizing its C tiles into the output.
    fn block_loop(&self, t: &mut Text, spec: &Spec) {
        let tiling = spec.tiling;
        let (rows, mt_count, nt_count) = (tiling.rows, tiling.pixel_tiles, tiling.filter_tiles);
        let [oh_count, ow_count] = self.output;
        let (wp, hp, cp) = (
            self.padded_width(),
            self.padded_height(),
            self.padded_channels,
        );
        let image = hp * wp * cp;
        let filter_blocks = self.padded_filters / 16 / nt_count;
        let i = 4;
        // Iteration space and, per block, the element offset of each pixel tile's
        // first row, the row stride, and the nominal start (rows before it are
        // another block's).
        let (space, names) = match tiling.grouping {
            Grouping::Flat { pixels, .. } => {
                let span = 16 * mt_count;
                (
                    format!(
                        "({filter_blocks}, {}, {})",
                        self.input[0],
                        ceil(pixels, span)
                    ),
                    "(%j, %n, %p)",
                )
            }
            Grouping::Rows { per_row } => (
                format!(
                    "({filter_blocks}, {}, {}, {per_row})",
                    self.input[0],
                    ceil(oh_count, mt_count)
                ),
                "(%j, %n, %p, %t)",
            ),
        };
        t.line(2, &format!("scf.forall {names} in {space} {{"));
        let c0 = t.let_(i, "arith.constant 0 : index");
        let c1 = t.let_(i, "arith.constant 1 : index");
        let image_offset = t.let_(
            i,
            &format!("affine.apply affine_map<(d0) -> (d0 * {image})>(%n)"),
        );
        // Pixel tiles: (offset of row 0 for tap (0, 0), row stride in elements).
        let mut starts = Vec::new();
        let mut first_column = String::new();
        let stride;
        match tiling.grouping {
            Grouping::Flat { pixels, .. } => {
                let span = 16 * mt_count;
                let base = t.let_(
                    i,
                    &format!(
                        "affine.min affine_map<(d0) -> (d0 * {span}, {})>(%p)",
                        pixels - span
                    ),
                );
                for mt in 0..mt_count {
                    let first = t.let_(
                        i,
                        &format!(
                            "affine.apply affine_map<(d0) -> (d0 + {})>({base})",
                            mt * 16
                        ),
                    );
                    let offset = t.let_(
                        i,
                        &format!(
                            "affine.apply affine_map<(d0, d1) -> (d0 + d1 * {cp})>({image_offset}, {first})"
                        ),
                    );
                    starts.push((offset, first));
                }
                stride = cp;
            }
            Grouping::Rows { .. } => {
                let [sh, sw] = self.strides;
                let base_oh = t.let_(
                    i,
                    &format!(
                        "affine.min affine_map<(d0) -> (d0 * {mt_count}, {})>(%p)",
                        oh_count - mt_count
                    ),
                );
                let ow0 = t.let_(
                    i,
                    &format!(
                        "affine.min affine_map<(d0) -> (d0 * {rows}, {})>(%t)",
                        ow_count - rows
                    ),
                );
                first_column = ow0.clone();
                for mt in 0..mt_count {
                    let oh = t.let_(
                        i,
                        &format!("affine.apply affine_map<(d0) -> (d0 + {mt})>({base_oh})"),
                    );
                    let offset = t.let_(
                        i,
                        &format!(
                            "affine.apply affine_map<(d0, d1, d2) -> (d0 + (d1 * {} * {wp} + d2 * {sw}) * {cp})>({image_offset}, {oh}, {ow0})",
                            sh
                        ),
                    );
                    starts.push((offset, oh));
                }
                stride = sw * cp;
            }
        }
        let stride_value = t.let_(i, &format!("arith.constant {stride} : index"));
        // Reduction: taps x 64-channel chunks.
        let taps = self.kernel[0] * self.kernel[1];
        let chunks = cp / 64;
        let accumulators = (mt_count * nt_count) as usize;
        let tiles = TileOps {
            isa: self.isa,
            rows,
            signed_input: self.signed_input,
            flat: &spec.flat,
            flat_length: self.input[0] * hp * wp * cp,
            row_stride: stride,
            weights: &spec.weights,
            filter_memref: &spec.filter_memref,
        };
        let c_type = tiles.c_type();
        let types = vec![c_type.clone(); accumulators].join(", ");
        // One zero tile per accumulator (a shared one is copied through memory).
        let zeros: Vec<String> = (0..accumulators).map(|_| tiles.zero(t, i)).collect();
        let taps_bound = t.let_(i, &format!("arith.constant {taps} : index"));
        let chunk_bound = t.let_(i, &format!("arith.constant {chunks} : index"));
        let outer = t.fresh();
        let init: Vec<String> = zeros
            .iter()
            .enumerate()
            .map(|(k, zero)| format!("%a{k} = {zero}"))
            .collect();
        t.line(
            i,
            &format!(
                "{outer}:{accumulators} = scf.for %tap = {c0} to {taps_bound} step {c1} iter_args({}) -> ({types}) {{",
                init.join(", ")
            ),
        );
        let j = i + 2;
        let (kw, dh, dw) = (self.kernel[1], self.dilations[0], self.dilations[1]);
        let tap_offset = t.let_(
            j,
            &format!(
                "affine.apply affine_map<(d0) -> ((d0 floordiv {kw}) * {} + (d0 mod {kw}) * {})>(%tap)",
                dh * wp * cp,
                dw * cp
            ),
        );
        let inner = t.fresh();
        let carried: Vec<String> = (0..accumulators)
            .map(|k| format!("%b{k} = %a{k}"))
            .collect();
        t.line(
            j,
            &format!(
                "{inner}:{accumulators} = scf.for %q = {c0} to {chunk_bound} step {c1} iter_args({}) -> ({types}) {{",
                carried.join(", ")
            ),
        );
        let k = j + 2;
        let chunk_offset = t.let_(
            k,
            &format!("affine.apply affine_map<(d0, d1) -> (d0 + d1 * 64)>({tap_offset}, %q)"),
        );
        let a_tiles: Vec<_> = starts
            .iter()
            .map(|(offset, _)| {
                let at = t.let_(k, &format!("arith.addi {offset}, {chunk_offset} : index"));
                tiles.load_a(t, k, &at, &stride_value)
            })
            .collect();
        let quad = t.let_(
            k,
            &format!(
                "affine.apply affine_map<(d0, d1) -> (d0 * {} + d1 * 16)>(%tap, %q)",
                cp / 4
            ),
        );
        let b_tiles: Vec<_> = (0..nt_count)
            .map(|nt| {
                let block = t.let_(
                    k,
                    &format!("affine.apply affine_map<(d0) -> (d0 * {nt_count} + {nt})>(%j)"),
                );
                tiles.load_b(t, k, &block, &quad, &c0)
            })
            .collect();
        let mut updated = Vec::new();
        for (mt, a) in a_tiles.iter().enumerate() {
            for (nt, b) in b_tiles.iter().enumerate() {
                let acc = format!("%b{}", mt * nt_count as usize + nt);
                updated.push(tiles.multiply(t, k, a, b, &acc));
            }
        }
        t.line(k, &format!("scf.yield {} : {types}", updated.join(", ")));
        t.line(j, "}");
        let inner_values: Vec<String> = (0..accumulators).map(|k| format!("{inner}#{k}")).collect();
        t.line(
            j,
            &format!("scf.yield {} : {types}", inner_values.join(", ")),
        );
        t.line(i, "}");
        // Epilogue, in an alloca scope (the scratch tile is per block).
        t.line(i, "memref.alloca_scope {");
        let e = i + 2;
        let scratch = t.let_(
            e,
            "memref.alloca() {alignment = 64 : i64} : memref<16x16xi32>",
        );
        let requantizer = Requantizer::new(t, e, self.output_zero, self.low, self.high);
        let zero_i32 = t.let_(e, "arith.constant 0 : i32");
        let zero_f32 = t.let_(e, "arith.constant 0.0 : f32");
        for nt in 0..nt_count {
            let channel = t.let_(
                e,
                &format!(
                    "affine.apply affine_map<(d0) -> (d0 * {} + {})>(%j)",
                    nt_count * 16,
                    nt * 16
                ),
            );
            let bias = t.let_(
                e,
                &format!("vector.transfer_read %bias[{channel}], {zero_i32} {{in_bounds = [true]}} : tensor<{}xi32>, vector<16xi32>", self.padded_filters),
            );
            let mult = t.let_(
                e,
                &format!("vector.transfer_read %mult[{channel}], {zero_f32} {{in_bounds = [true]}} : tensor<{}xf32>, vector<16xf32>", self.padded_filters),
            );
            for (mt, (_, first)) in starts.iter().enumerate() {
                let acc = format!("{outer}#{}", mt * nt_count as usize + nt as usize);
                tiles.store_c(t, e, &acc, &scratch, &c0);
                for r in 0..rows {
                    let (write, oh, ow) = self.row_place(t, e, tiling, first, &first_column, r);
                    t.line(e, &format!("scf.if {write} {{"));
                    let row = t.let_(e + 2, &format!("arith.constant {r} : index"));
                    let sums = t.let_(
                        e + 2,
                        &format!("vector.load {scratch}[{row}, {c0}] : memref<16x16xi32>, vector<16xi32>"),
                    );
                    let bytes = requantizer.bytes(t, e + 2, &sums, &bias, &mult);
                    t.line(
                        e + 2,
                        &format!(
                            "vector.store {bytes}, {}[%n, {oh}, {ow}, {channel}] : {}, vector<16xi8>",
                            spec.out,
                            self.output_memref()
                        ),
                    );
                    t.line(e, "}");
                }
            }
        }
        t.line(i, "}");
        t.line(2, "}");
    }

    /// Whether row `r` of the pixel tile starting at `first` (a flat pixel, or an
    /// output row whose tile starts at column `first_column`) is written by this block,
    /// and its (oh, ow).
    fn row_place(
        &self,
        t: &mut Text,
        i: usize,
        tiling: Tiling,
        first: &str,
        first_column: &str,
        r: i64,
    ) -> (String, String, String) {
        let ow_count = self.output[1];
        match tiling.grouping {
            Grouping::Flat { width, .. } => {
                // Pixel m = first + r: written when it is a real column and no earlier
                // block covered it (m >= p * span).
                let span = 16 * tiling.pixel_tiles;
                let m = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 + {r})>({first})"),
                );
                let oh = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 floordiv {width})>({m})"),
                );
                let ow = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 mod {width})>({m})"),
                );
                let columns = t.let_(i, &format!("arith.constant {ow_count} : index"));
                let real = t.let_(i, &format!("arith.cmpi ult, {ow}, {columns} : index"));
                let nominal = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 * {span})>(%p)"),
                );
                let fresh = t.let_(i, &format!("arith.cmpi uge, {m}, {nominal} : index"));
                let write = t.let_(i, &format!("arith.andi {real}, {fresh} : i1"));
                (write, oh, ow)
            }
            Grouping::Rows { .. } => {
                // Output row `first`, column first_column + r: written when the row is
                // at or after this block's nominal first row and the column at or after
                // its tile's nominal first column.
                let ow = t.let_(
                    i,
                    &format!("affine.apply affine_map<(d0) -> (d0 + {r})>({first_column})"),
                );
                let nominal_row = t.let_(
                    i,
                    &format!(
                        "affine.apply affine_map<(d0) -> (d0 * {})>(%p)",
                        tiling.pixel_tiles
                    ),
                );
                let row_ok = t.let_(
                    i,
                    &format!("arith.cmpi uge, {first}, {nominal_row} : index"),
                );
                let nominal_column = t.let_(
                    i,
                    &format!(
                        "affine.apply affine_map<(d0) -> (d0 * {})>(%t)",
                        tiling.rows
                    ),
                );
                let column_ok = t.let_(
                    i,
                    &format!("arith.cmpi uge, {ow}, {nominal_column} : index"),
                );
                let write = t.let_(i, &format!("arith.andi {row_ok}, {column_ok} : i1"));
                (write, first.to_string(), ow)
            }
        }
    }
}

/// Values shared by a kernel's loops.
struct Spec {
    flat: String,
    weights: String,
    filter_memref: String,
    out: String,
    tiling: Tiling,
}

fn ceil(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}
