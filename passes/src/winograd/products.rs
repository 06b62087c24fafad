//! Stages 2 and 3 of the Winograd kernel ([`super::kernel`]): the 16 products of each
//! group of tiles (register-tile matmul loops over the input channels) into a scratch
//! buffer, then the output transform, bias and ReLU into the output.

use super::kernel::{combine, WinogradKernel, AT};
use crate::quant_kernels::kernel_text::{tensor, Text};

impl WinogradKernel {
    /// Products per register tile: `group` tiles x `block / 16` vectors.
    fn slots(&self) -> i64 {
        self.group * self.block / 16
    }

    /// Stages 2 and 3: one `scf.forall` iteration per (image, channel block, tile
    /// row) runs the row's groups in sequence, keeping the 16 products of a group in a
    /// scratch slice of its own (`[16][slots][16]`, in L1) between the multiplications
    /// and the output transform; returns the output.
    pub(super) fn row_loop(&self, t: &mut Text, transformed: &str, destination: &str) -> String {
        let output = self.blocked_output_type();
        let (rows, columns, _) = self.tiles();
        let [_, ow] = self.tiled_output();
        let blocks = self.filters / self.block;
        let vectors = self.block / 16;
        let images = self.input[0];
        let slots = self.slots();
        let iterations = blocks * images;
        // The scratch is a buffer, not a tensor: as a tensor it would be a value no
        // one uses, which canonicalization turns back into one allocation per
        // iteration (which bundles' memory plan cannot hold).
        let scratch_type = format!("memref<{iterations}x16x{slots}x16xf32>");
        let scratch_slice = format!(
            "memref<16x{slots}x16xf32, strided<[{}, 16, 1], offset: ?>>",
            slots * 16
        );
        let [oh, _] = self.tiled_output();
        let plane_type = tensor(&[1, oh, ow, vectors, 16], "f32");
        let scratch_buffer = t.let_(
            2,
            &format!("memref.alloc() {{alignment = 64 : i64}} : {scratch_type}"),
        );
        let result = t.fresh();
        t.line(
            2,
            &format!(
                "{result} = scf.forall (%n, %kb) in ({images}, {blocks}) shared_outs(%yo = {destination}) -> ({output}) {{"
            ),
        );
        let i = 4;
        let zero = t.let_(i, "arith.constant 0.0 : f32");
        let c0 = t.let_(i, "arith.constant 0 : index");
        let c1 = t.let_(i, "arith.constant 1 : index");
        let iteration = t.let_(
            i,
            &format!("affine.apply affine_map<(d0, d1) -> (d0 * {blocks} + d1)>(%n, %kb)"),
        );
        let block0 = t.let_(
            i,
            &format!("affine.apply affine_map<(d0) -> (d0 * {vectors})>(%kb)"),
        );
        let k = self.filters;
        let biases: Vec<String> = (0..vectors)
            .map(|v| {
                let channel = t.let_(
                    i,
                    &format!(
                        "affine.apply affine_map<(d0) -> (d0 * {} + {})>(%kb)",
                        self.block,
                        v * 16
                    ),
                );
                t.let_(
                    i,
                    &format!(
                        "vector.transfer_read %bias[{channel}], {zero} {{in_bounds = [true]}} : tensor<{k}xf32>, vector<16xf32>"
                    ),
                )
            })
            .collect();
        let plane = t.let_(
            i,
            &format!(
                "tensor.extract_slice %yo[%n, 0, 0, {block0}, 0] [1, {oh}, {ow}, {vectors}, 16] [1, 1, 1, 1, 1] : {output} to {plane_type}"
            ),
        );
        let scratch = t.let_(
            i,
            &format!(
                "memref.subview {scratch_buffer}[{iteration}, 0, 0, 0] [1, 16, {slots}, 16] [1, 1, 1, 1] : {scratch_type} to {scratch_slice}"
            ),
        );
        let groups = columns / self.group;
        let remainder = columns % self.group;
        // The rows in sequence, so that this block's transformed filter (read once per
        // row) stays in the L2 cache.
        let planes = t.fresh();
        let row_count = t.let_(i, &format!("arith.constant {rows} : index"));
        t.line(
            i,
            &format!(
                "{planes} = scf.for %th = {c0} to {row_count} step {c1} iter_args(%plane = {plane}) -> ({plane_type}) {{"
            ),
        );
        let i = i + 2;
        let row_tile = t.let_(
            i,
            &format!(
                "affine.apply affine_map<(d0, d1) -> ((d0 * {rows} + d1) * {columns})>(%n, %th)"
            ),
        );
        let oh0 = t.let_(i, "affine.apply affine_map<(d0) -> (d0 * 2)>(%th)");
        let mut row = "%plane".to_string();
        let shared = Shared {
            transformed,
            row_type: &plane_type,
            first_row: &oh0,
            scratch: &scratch,
            scratch_type: &scratch_slice,
            biases: &biases,
            row_tile: &row_tile,
            c0: &c0,
            c1: &c1,
        };
        if groups > 0 {
            let loop_result = t.fresh();
            let upper = t.let_(i, &format!("arith.constant {groups} : index"));
            t.line(
                i,
                &format!(
                    "{loop_result} = scf.for %g = {c0} to {upper} step {c1} iter_args(%row = {row}) -> ({plane_type}) {{"
                ),
            );
            let first = t.let_(
                i + 2,
                &format!("affine.apply affine_map<(d0) -> (d0 * {})>(%g)", self.group),
            );
            let new_row = self.group_body(t, i + 2, &shared, self.group, &first, "%row");
            t.line(i + 2, &format!("scf.yield {new_row} : {plane_type}"));
            t.line(i, "}");
            row = loop_result;
        }
        if remainder > 0 {
            let first = t.let_(
                i,
                &format!("arith.constant {} : index", groups * self.group),
            );
            row = self.group_body(t, i, &shared, remainder, &first, &row);
        }
        t.line(i, &format!("scf.yield {row} : {plane_type}"));
        let i = i - 2;
        t.line(i, "}");
        t.end_forall(
            i,
            &format!(
                "{planes} into %yo[%n, 0, 0, {block0}, 0] [1, {oh}, {ow}, {vectors}, 16] [1, 1, 1, 1, 1] : {plane_type} into {output}"
            ),
        );
        result
    }

    /// One group of `size` tiles starting at tile column `first` of the row: the 16
    /// products into `scratch` (a loop over the transform positions around the loop
    /// over input channels), then the output transform of each tile into `row`.
    /// Returns the updated row.
    fn group_body(
        &self,
        t: &mut Text,
        i: usize,
        shared: &Shared,
        size: i64,
        first: &str,
        row: &str,
    ) -> String {
        let (_, _, tiles) = self.tiles();
        let c = self.input[3];
        let v_type = tensor(&[16, tiles, c], "f32");
        let u_type = tensor(&self.filter_shape(), "f32");
        let vectors = self.block / 16;
        let (c0, c1) = (shared.c0, shared.c1);
        let zero = t.let_(i, "arith.constant 0.0 : f32");
        let zeros = t.let_(i, "arith.constant dense<0.0> : vector<16xf32>");
        let positions = t.let_(i, "arith.constant 16 : index");
        let channels = t.let_(i, &format!("arith.constant {c} : index"));
        let tile_ids: Vec<String> = (0..size)
            .map(|m| {
                t.let_(
                    i,
                    &format!(
                        "affine.apply affine_map<(d0, d1) -> (d0 + d1 + {m})>({}, {first})",
                        shared.row_tile
                    ),
                )
            })
            .collect();
        let count = (size * vectors) as usize;
        let acc_types = vec!["vector<16xf32>"; count].join(", ");
        let (products, scratch_type) = (shared.scratch, shared.scratch_type);
        t.line(
            i,
            &format!("scf.for %ab = {c0} to {positions} step {c1} {{"),
        );
        let j = i + 2;
        let init: Vec<String> = (0..count).map(|k| format!("%a{k} = {zeros}")).collect();
        let sums = t.fresh();
        t.line(
            j,
            &format!(
                "{sums}:{count} = scf.for %c = {c0} to {channels} step {c1} iter_args({}) -> ({acc_types}) {{",
                init.join(", ")
            ),
        );
        let l = j + 2;
        let inputs: Vec<String> = tile_ids
            .iter()
            .map(|p| {
                let scalar = t.let_(
                    l,
                    &format!(
                        "tensor.extract {}[%ab, {p}, %c] : {v_type}",
                        shared.transformed
                    ),
                );
                t.let_(
                    l,
                    &format!("vector.broadcast {scalar} : f32 to vector<16xf32>"),
                )
            })
            .collect();
        let weights: Vec<String> = (0..vectors)
            .map(|v| {
                let lane = t.let_(l, &format!("arith.constant {} : index", v * 16));
                t.let_(
                    l,
                    &format!(
                        "vector.transfer_read %u[%kb, %ab, %c, {lane}], {zero} {{in_bounds = [true]}} : {u_type}, vector<16xf32>"
                    ),
                )
            })
            .collect();
        let mut updated = Vec::new();
        for (m, x) in inputs.iter().enumerate() {
            for (v, w) in weights.iter().enumerate() {
                let acc = format!("%a{}", m * vectors as usize + v);
                updated.push(t.let_(l, &format!("vector.fma {x}, {w}, {acc} : vector<16xf32>")));
            }
        }
        t.line(
            l,
            &format!("scf.yield {} : {acc_types}", updated.join(", ")),
        );
        t.line(j, "}");
        let all_type = format!("vector<{count}x16xf32>");
        let mut all = t.let_(j, &format!("arith.constant dense<0.0> : {all_type}"));
        for k in 0..count {
            all = t.let_(
                j,
                &format!("vector.insert {sums}#{k}, {all} [{k}] : vector<16xf32> into {all_type}"),
            );
        }
        t.line(
            j,
            &format!(
                "vector.transfer_write {all}, {products}[%ab, {c0}, {c0}] {{in_bounds = [true, true]}} : {all_type}, {scratch_type}"
            ),
        );
        t.line(i, "}");
        // Output transform, bias, clamp: one 2 x 2 x block vector per tile.
        let row_type = shared.row_type;
        let tile_vector = format!("vector<2x2x{vectors}x16xf32>");
        let upper = t.let_(i, &format!("arith.constant {size} : index"));
        let new_row = t.fresh();
        t.line(
            i,
            &format!(
                "{new_row} = scf.for %m = {c0} to {upper} step {c1} iter_args(%r = {row}) -> ({row_type}) {{"
            ),
        );
        let mut tile = t.let_(j, &format!("arith.constant dense<0.0> : {tile_vector}"));
        for v in 0..vectors as usize {
            let slot = t.let_(
                j,
                &format!("affine.apply affine_map<(d0) -> (d0 * {vectors} + {v})>(%m)"),
            );
            let product: Vec<String> = (0..16)
                .map(|ab| {
                    let position = t.let_(j, &format!("arith.constant {ab} : index"));
                    t.let_(
                        j,
                        &format!(
                            "vector.transfer_read {products}[{position}, {slot}, {c0}], {zero} {{in_bounds = [true]}} : {scratch_type}, vector<16xf32>"
                        ),
                    )
                })
                .collect();
            // Aᵀ M (over a, per column b), then (Aᵀ M) A.
            let partial: Vec<Vec<String>> = (0..2)
                .map(|r| {
                    (0..4)
                        .map(|b| {
                            let column: Vec<String> =
                                (0..4).map(|a| product[a * 4 + b].clone()).collect();
                            combine(t, j, &AT[r], &column)
                        })
                        .collect()
                })
                .collect();
            for (r, line) in partial.iter().enumerate() {
                for (s, coefficients) in AT.iter().enumerate() {
                    let sum = combine(t, j, coefficients, line);
                    let mut value = t.let_(
                        j,
                        &format!("arith.addf {sum}, {} : vector<16xf32>", shared.biases[v]),
                    );
                    if self.relu {
                        let negative = t.let_(
                            j,
                            &format!("arith.cmpf olt, {value}, {zeros} : vector<16xf32>"),
                        );
                        value = t.let_(
                            j,
                            &format!(
                                "arith.select {negative}, {zeros}, {value} : vector<16xi1>, vector<16xf32>"
                            ),
                        );
                    }
                    tile = t.let_(
                        j,
                        &format!(
                            "vector.insert {value}, {tile} [{r}, {s}, {v}] : vector<16xf32> into {tile_vector}"
                        ),
                    );
                }
            }
        }
        let column = t.let_(
            j,
            &format!("affine.apply affine_map<(d0, d1) -> ((d0 + d1) * 2)>({first}, %m)"),
        );
        let written = t.let_(
            j,
            &format!(
                "vector.transfer_write {tile}, %r[{c0}, {}, {column}, {c0}, {c0}] {{in_bounds = [true, true, true, true]}} : {tile_vector}, {row_type}",
                shared.first_row
            ),
        );
        t.line(j, &format!("scf.yield {written} : {row_type}"));
        t.line(i, "}");
        new_row
    }
}

/// Values the groups of a row share.
struct Shared<'a> {
    transformed: &'a str,
    /// The type of the image's output block the groups write, and their first row.
    row_type: &'a str,
    first_row: &'a str,
    /// This iteration's scratch buffer and its type.
    scratch: &'a str,
    scratch_type: &'a str,
    biases: &'a [String],
    /// The row's first tile number.
    row_tile: &'a str,
    c0: &'a str,
    c1: &'a str,
}
