//! Input window sums for a convolution kernel with offset weights
//! ([`super::packing::kernel_weights`]): uint8 weights whose zero point is not 128 are
//! multiplied as `w - 128` (int8) and corrected by `(128 - zw[f]) * S(p)`, where `S(p)`
//! is the sum of the unsigned input bytes under output pixel p's window (padding
//! included, as the input zero point), over the real input channels.
//!
//! Two steps, before the kernel's tile loops (in the kernel, or for a grouped layer in
//! its wrapper, for every group before the loop over them): per padded input pixel
//! and group the sum over the group's channels (`vpdpbusd` of 64 bytes against ones,
//! then one horizontal add), and per output pixel the sum of those over the kernel
//! window, minus the zero-point bytes of the channels the kernel pads to a multiple of
//! 4. Both are one pass over the input, against the kernel's K x F / 16 dot products
//! per pixel.

use super::{
    conv_kernel::ConvKernel,
    kernel_text::{tensor, Text},
};

/// Whether a kernel adds window sums (offset weights), and where they come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowSums {
    /// Centred weights: no window sums.
    None,
    /// The kernel computes them from its padded input.
    InKernel,
    /// An operand `%sums` ([`sums_type`]) after the multipliers: a grouped layer's
    /// wrapper computes every group's once, before its loop (an allocation in the
    /// loop could not be planned).
    Operand,
}

/// The type of one group's window sums: `tensor<N x OH x OW x i32>`.
pub fn sums_type(kernel: &ConvKernel) -> String {
    tensor(
        &[kernel.input[0], kernel.output[0], kernel.output[1]],
        "i32",
    )
}

/// The type of every group's window sums: `tensor<G x N x OH x OW x i32>`.
pub fn group_sums_type(kernel: &ConvKernel, groups: i64) -> String {
    tensor(
        &[groups, kernel.input[0], kernel.output[0], kernel.output[1]],
        "i32",
    )
}

/// Emits at function level the window sums of `groups` groups of `kernel`'s padded
/// channels each, over the padded input `padded` (`N x Hp x Wp x groups * Cp`, of type
/// `padded_type`); returns their SSA name ([`group_sums_type`]).
pub fn window_sums(
    t: &mut Text,
    kernel: &ConvKernel,
    groups: i64,
    padded: &str,
    padded_type: &str,
) -> String {
    let pixel_sums = channel_sums(t, kernel, groups, padded, padded_type);
    let [n, hp, wp, cp] = kernel.padded_input();
    let pixels_type = tensor(&[groups, n, hp, wp], "i32");
    // The padding byte as the kernel reads it (a signed one with its sign bit flipped).
    let sign_flip = if kernel.signed_input { 0x80 } else { 0 };
    let unsigned_zero = (kernel.input_zero as u8 ^ sign_flip) as i64;
    let padding_bytes =
        kernel.kernel[0] * kernel.kernel[1] * (cp - kernel.input[3]) * unsigned_zero;
    let identity = kernel.kernel == [1, 1]
        && kernel.strides == [1, 1]
        && [hp, wp] == kernel.output
        && padding_bytes == 0;
    if identity {
        return pixel_sums;
    }
    let [oh, ow] = kernel.output;
    let (kh, kw) = (kernel.kernel[0], kernel.kernel[1]);
    let ([sh, sw], [dh, dw]) = (kernel.strides, kernel.dilations);
    int32_rows(t, "s", [groups, n, oh, ow], |t, k, c0, c1| {
        let kh_bound = t.let_(k, &format!("arith.constant {kh} : index"));
        let kw_bound = t.let_(k, &format!("arith.constant {kw} : index"));
        let start = t.let_(k, &format!("arith.constant {} : i32", -padding_bytes));
        let over_h = t.fresh();
        t.line(
            k,
            &format!("{over_h} = scf.for %skh = {c0} to {kh_bound} step {c1} iter_args(%sa = {start}) -> (i32) {{"),
        );
        let ih = t.let_(
            k + 2,
            &format!("affine.apply affine_map<(d0, d1) -> (d0 * {sh} + d1 * {dh})>(%sh, %skh)"),
        );
        let over_w = t.fresh();
        t.line(
            k + 2,
            &format!("{over_w} = scf.for %skw = {c0} to {kw_bound} step {c1} iter_args(%sb = %sa) -> (i32) {{"),
        );
        let iw = t.let_(
            k + 4,
            &format!("affine.apply affine_map<(d0, d1) -> (d0 * {sw} + d1 * {dw})>(%sw, %skw)"),
        );
        let value = t.let_(
            k + 4,
            &format!("tensor.extract {pixel_sums}[%sg, %sn, {ih}, {iw}] : {pixels_type}"),
        );
        let next = t.let_(k + 4, &format!("arith.addi %sb, {value} : i32"));
        t.line(k + 4, &format!("scf.yield {next} : i32"));
        t.line(k + 2, "}");
        t.line(k + 2, &format!("scf.yield {over_w} : i32"));
        t.line(k, "}");
        over_h
    })
}

/// Per group and padded input pixel, the sum of the group's channels' unsigned bytes
/// (`tensor<G x N x Hp x Wp x i32>`).
fn channel_sums(
    t: &mut Text,
    kernel: &ConvKernel,
    groups: i64,
    padded: &str,
    padded_type: &str,
) -> String {
    let [n, hp, wp, cp] = kernel.padded_input();
    let (chunks, tail) = (cp / 64, cp % 64);
    int32_rows(t, "p", [groups, n, hp, wp], |t, k, _, _| {
        let first = t.let_(
            k,
            &format!("affine.apply affine_map<(d0) -> (d0 * {cp})>(%pg)"),
        );
        let full = t.let_(
            k,
            &format!(
                "affine.apply affine_map<(d0) -> (d0 + {})>({first})",
                chunks * 64
            ),
        );
        let zero_i8 = t.let_(k, "arith.constant 0 : i8");
        let mut sum = t.let_(k, "arith.constant 0 : i32");
        if chunks > 0 {
            let c64 = t.let_(k, "arith.constant 64 : index");
            let zeros = t.let_(k, "arith.constant dense<0> : vector<16xi32>");
            let lanes = t.fresh();
            t.line(
                k,
                &format!("{lanes} = scf.for %pc = {first} to {full} step {c64} iter_args(%pa = {zeros}) -> (vector<16xi32>) {{"),
            );
            let bytes = t.let_(
                k + 2,
                &format!("vector.transfer_read {padded}[%pn, %ph, %pw, %pc], {zero_i8} {{in_bounds = [true]}} : {padded_type}, vector<64xi8>"),
            );
            let bytes = unsigned(t, k + 2, kernel, &bytes, 64);
            let ones = t.let_(k + 2, "arith.constant dense<1> : vector<64xi8>");
            let next = kernel.dot4(t, k + 2, "%pa", &bytes, &ones);
            t.line(k + 2, &format!("scf.yield {next} : vector<16xi32>"));
            t.line(k, "}");
            sum = t.let_(
                k,
                &format!("vector.reduction <add>, {lanes} : vector<16xi32> into i32"),
            );
        }
        if tail > 0 {
            let bytes = t.let_(
                k,
                &format!("vector.transfer_read {padded}[%pn, %ph, %pw, {full}], {zero_i8} {{in_bounds = [true]}} : {padded_type}, vector<{tail}xi8>"),
            );
            let bytes = unsigned(t, k, kernel, &bytes, tail);
            let wide = t.let_(
                k,
                &format!("arith.extui {bytes} : vector<{tail}xi8> to vector<{tail}xi32>"),
            );
            let part = t.let_(
                k,
                &format!("vector.reduction <add>, {wide} : vector<{tail}xi32> into i32"),
            );
            sum = t.let_(k, &format!("arith.addi {sum}, {part} : i32"));
        }
        sum
    })
}

/// Emits at function level a `tensor<G x N x H x W x i32>` of `shape`: an scf.forall
/// over (group, image, row) — induction variables `%{p}g`, `%{p}n`, `%{p}h` — and in
/// it an scf.for over the row's columns (`%{p}w`) that inserts the scalar `element`
/// emits (at the indent it is given, with the index constants 0 and 1); returns the
/// tensor's SSA name.
fn int32_rows(
    t: &mut Text,
    p: &str,
    shape: [i64; 4],
    element: impl FnOnce(&mut Text, usize, &str, &str) -> String,
) -> String {
    let [groups, n, h, w] = shape;
    let result_type = tensor(&shape, "i32");
    let row_type = tensor(&[1, 1, 1, w], "i32");
    let i = 2;
    let init = t.let_(i, &format!("tensor.empty() : {result_type}"));
    let result = t.fresh();
    t.line(
        i,
        &format!("{result} = scf.forall (%{p}g, %{p}n, %{p}h) in ({groups}, {n}, {h}) shared_outs(%{p}o = {init}) -> ({result_type}) {{"),
    );
    let j = i + 2;
    let c0 = t.let_(j, "arith.constant 0 : index");
    let c1 = t.let_(j, "arith.constant 1 : index");
    let w_bound = t.let_(j, &format!("arith.constant {w} : index"));
    let row0 = t.let_(j, &format!("tensor.empty() : {row_type}"));
    let row = t.fresh();
    t.line(
        j,
        &format!("{row} = scf.for %{p}w = {c0} to {w_bound} step {c1} iter_args(%{p}r = {row0}) -> ({row_type}) {{"),
    );
    let value = element(t, j + 2, &c0, &c1);
    let stored = t.let_(
        j + 2,
        &format!("tensor.insert {value} into %{p}r[{c0}, {c0}, {c0}, %{p}w] : {row_type}"),
    );
    t.line(j + 2, &format!("scf.yield {stored} : {row_type}"));
    t.line(j, "}");
    t.end_forall(
        j,
        &format!("{row} into %{p}o[%{p}g, %{p}n, %{p}h, 0] [1, 1, 1, {w}] [1, 1, 1, 1] : {row_type} into {result_type}"),
    );
    result
}

/// `bytes` (`vector<lanes x i8>`) as the unsigned bytes the kernel multiplies: a
/// signed input with its sign bits flipped.
fn unsigned(t: &mut Text, indent: usize, kernel: &ConvKernel, bytes: &str, lanes: i64) -> String {
    if !kernel.signed_input {
        return bytes.to_string();
    }
    let flip = t.let_(
        indent,
        &format!("arith.constant dense<-128> : vector<{lanes}xi8>"),
    );
    t.let_(
        indent,
        &format!("arith.xori {bytes}, {flip} : vector<{lanes}xi8>"),
    )
}
