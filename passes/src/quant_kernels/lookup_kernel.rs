//! int8 lookup tables with AVX-512 VBMI's byte permutes: a `glow.quant.lookup_table`
//! (8-bit in and out, per tensor, at least 64 elements) becomes a call of a kernel
//! that holds the 256-entry table in four 64-byte vectors and looks up 64 bytes at a
//! time: `glow.quant.permute_bytes` (`vpermi2b` once glow-lower-dot4 has run) of the
//! index bytes into entries 0-127 and into 128-255 (each uses the low 7 bits), and the
//! index's top bit picks one. The reference lowering reads
//! the table with one 32-bit gather per 16 elements (`vpgatherdd`); EfficientNet's
//! and ConvNeXt's activations (SiLU, GELU as tables) are a few gathers per byte.
//!
//! The kernel works on the flattened tensor: a forall over whole 64-byte pieces, then
//! the last 64 bytes once more when 64 does not divide the count (the same values
//! again over the overlap, written after the forall).

use super::{kernel_text::Text, Inserter};
use crate::{lower_nodes::builder::tensor_info, quantization::ir::tensor_type};
use melior::{
    ir::{
        attribute::FlatSymbolRefAttribute, operation::OperationLike, r#type::IntegerType, BlockRef,
        OperationRef, ValueLike,
    },
    Context,
};
use std::fmt::Write;

/// The lookup of one op: its flattened length, table, and input signedness.
pub struct LookupKernel {
    /// Function name.
    pub name: String,
    /// Elements of the tensor (at least 64).
    pub elements: i64,
    /// The 256 entries, for the storage values from the smallest up.
    pub table: Vec<u8>,
    /// Whether the input storage is int8 (entry `x + 128`) rather than uint8 (`x`).
    pub signed_input: bool,
}

impl LookupKernel {
    /// The kernel, `(%x: tensor<Nxi8>, %init: tensor<Nxi8>) -> tensor<Nxi8>`.
    pub fn text(&self) -> String {
        let n = self.elements;
        let flat = format!("tensor<{n}xi8>");
        let mut t = Text::default();
        let _ = writeln!(
            t.out,
            "func.func private @{}(%x: {flat}, %init: {flat}) -> {flat} {{",
            self.name
        );
        let quarters: Vec<String> = self
            .table
            .chunks(64)
            .map(|chunk| {
                let bytes: Vec<String> = chunk.iter().map(|b| (*b as i8).to_string()).collect();
                t.let_(
                    2,
                    &format!(
                        "arith.constant dense<[{}]> : vector<64xi8>",
                        bytes.join(", ")
                    ),
                )
            })
            .collect();
        let full = n / 64;
        let forall = t.fresh();
        t.line(
            2,
            &format!(
                "{forall} = scf.forall (%i) in ({full}) shared_outs(%out = %init) -> ({flat}) {{"
            ),
        );
        let offset = t.let_(4, "affine.apply affine_map<(d0) -> (d0 * 64)>(%i)");
        let piece = self.piece(&mut t, 4, &quarters, "%x", &offset, &flat);
        t.end_forall(
            4,
            &format!("{piece} into %out[{offset}] [64] [1] : tensor<64xi8> into {flat}"),
        );
        let mut result = forall;
        if n % 64 != 0 {
            let last = t.let_(2, &format!("arith.constant {} : index", n - 64));
            let piece = self.piece(&mut t, 2, &quarters, "%x", &last, &flat);
            result = t.let_(
                2,
                &format!(
                    "tensor.insert_slice {piece} into {result}[{last}] [64] [1] : tensor<64xi8> into {flat}"
                ),
            );
        }
        t.line(2, &format!("return {result} : {flat}"));
        t.line(0, "}");
        t.out
    }

    /// The 64 looked-up bytes of `source` from `offset`, as a `tensor<64xi8>`.
    fn piece(
        &self,
        t: &mut Text,
        i: usize,
        quarters: &[String],
        source: &str,
        offset: &str,
        flat: &str,
    ) -> String {
        let zero = t.let_(i, "arith.constant 0 : i8");
        let bytes = t.let_(
            i,
            &format!("vector.transfer_read {source}[{offset}], {zero} {{in_bounds = [true]}} : {flat}, vector<64xi8>"),
        );
        let permute = |t: &mut Text, low: &str, high: &str| {
            t.let_(
                i,
                &format!("glow.quant.permute_bytes {low}, {bytes}, {high} : vector<64xi8>"),
            )
        };
        let first = permute(t, &quarters[0], &quarters[1]);
        let second = permute(t, &quarters[2], &quarters[3]);
        // The top bit of the stored byte: set for uint8 128-255 (entries 128-255) and
        // for int8 -128..-1 (entries 0-127).
        let zeros = t.let_(i, "arith.constant dense<0> : vector<64xi8>");
        let top = t.let_(
            i,
            &format!("arith.cmpi slt, {bytes}, {zeros} : vector<64xi8>"),
        );
        let (set, clear) = if self.signed_input {
            (&first, &second)
        } else {
            (&second, &first)
        };
        let looked = t.let_(
            i,
            &format!("arith.select {top}, {set}, {clear} : vector<64xi1>, vector<64xi8>"),
        );
        let empty = t.let_(i, "tensor.empty() : tensor<64xi8>");
        let c0 = t.let_(i, "arith.constant 0 : index");
        t.let_(
            i,
            &format!("vector.transfer_write {looked}, {empty}[{c0}] {{in_bounds = [true]}} : vector<64xi8>, tensor<64xi8>"),
        )
    }
}

/// The kernel named `name` for the lookup_table `op`, when its input and result are
/// 8-bit per tensor with 64 elements or more.
pub fn kernel_for(op: OperationRef, name: &str) -> Option<LookupKernel> {
    use crate::quantization::ir::quantized;
    let (shape, xq) = quantized(op.operand(0).ok()?)?;
    let (_, yq) = quantized(op.result(0).ok()?.into())?;
    let elements: i64 = shape.iter().product();
    if xq.width != 8 || yq.width != 8 || xq.axis.is_some() || yq.axis.is_some() || elements < 64 {
        return None;
    }
    let table = glow_dialects::elements::raw_bytes(op.attribute("table").ok()?, 1, false)?;
    (table.len() == 256).then(|| LookupKernel {
        name: name.to_string(),
        elements,
        table,
        signed_input: xq.signed,
    })
}

/// Replaces the lookup_table `op` with a call of `kernel` (from [`kernel_for`]),
/// added to `module_block`; None on an internal failure.
pub fn replace(
    context: &Context,
    op: OperationRef,
    kernel: &LookupKernel,
    module_block: BlockRef,
) -> Option<()> {
    let input = op.operand(0).ok()?;
    let result = op.result(0).ok()?;
    let (elements, name) = (kernel.elements, kernel.name.as_str());
    let inserter = Inserter::before(context, op)?;
    let (_, x_element) = tensor_info(input)?;
    let (_, y_element) = tensor_info(result.into())?;
    let i8 = IntegerType::new(context, 8).into();
    let flat_x = inserter.op(
        "glow.graph.reshape",
        &[input],
        &[],
        tensor_type(&[elements], x_element),
    );
    let storage = inserter.op("quant.scast", &[flat_x], &[], tensor_type(&[elements], i8));
    let init = inserter.op("tensor.empty", &[], &[], tensor_type(&[elements], i8));
    let callee = FlatSymbolRefAttribute::new(context, name).into();
    let looked = inserter.op(
        "func.call",
        &[storage, init],
        &[("callee", callee)],
        tensor_type(&[elements], i8),
    );
    let quantized_flat = inserter.op(
        "quant.scast",
        &[looked],
        &[],
        tensor_type(&[elements], y_element),
    );
    let value = inserter.op(
        "glow.graph.reshape",
        &[quantized_flat],
        &[],
        result.r#type(),
    );
    super::replace_and_erase(op, value);
    super::append_text(module_block, context, "", &kernel.text())
}
