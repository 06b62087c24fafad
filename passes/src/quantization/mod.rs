//! Glow's quantization as passes on glow.graph:
//! - `glow-quantization-folding` ([`folding`]): QDQ graphs -> integer ops on
//!   `!quant.uniform` tensors (Glow's quantization folding), then the dequantized
//!   weights of float islands folded into float constants.
//! - `glow-profile` ([`profile`]): observers on every value quantization touches
//!   ([`values`]); `glow-lower-profiles` ([`lower_profile`]) turns them into calls of
//!   the runtime's recorder, whose results become a profile file ([`profile_data`]).
//! - `glow-fold-table-chains` ([`table_chains`]): elementwise computations from one
//!   8-bit value to an 8-bit result -> one 256-entry lookup table.
//! - `glow-quantize` ([`quantize`]): the ops worth quantizing ([`selection`]), their
//!   values calibrated from the profile ([`calibration`]), QDQ inserted, then folded.

pub mod calibration;
pub mod folding;
pub mod ir;
pub mod lower_profile;
pub mod profile;
pub mod profile_data;
pub mod quantize;
pub mod selection;
pub mod table_chains;
pub mod values;

use crate::framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule};
use glow_dialects::glow_dialect_handles;
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, OperationRef},
};

/// The dialects the quantization passes create ops of.
pub(crate) fn quantization_dialects() -> Vec<DialectHandle> {
    let mut dialects = glow_dialect_handles().to_vec();
    // SAFETY: a static descriptor of a dialect linked into the binary.
    dialects.push(unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__quant__()) });
    dialects
}

/// The pass definition registered as `glow-quantization-folding`.
pub static QUANTIZATION_FOLDING: PassDefinition = PassDefinition {
    argument: "glow-quantization-folding",
    description: "Fold quantize(op(dequantize ...)) into integer ops on !quant tensors, sink dequantizes below data movement, merge rescales into their producers (Glow's quantization folding)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: quantization_dialects,
    validate: |_: &PassOptions| Ok(()),
    run: run_folding,
};

/// The rules of the first phase: QDQ -> integer ops, sinking, rescale merging.
pub fn folding_rules() -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> =
        vec![&folding::FOLD_QUANTIZED_COMPUTE, &folding::MERGE_RESCALE];
    rules.extend(folding::SINK_DEQUANTIZE.iter().copied());
    rules.extend(folding::HOIST_QUANTIZE.iter().copied());
    rules
}

/// Runs the folding on `op`: integer ops first, then leftover dequantized constants.
pub(crate) fn fold(op: OperationRef<'_, '_>) -> Result<(), ()> {
    let fail = |_| {
        emit_error(
            op.location(),
            "glow-quantization-folding: the rewrite did not converge",
        )
    };
    apply_rules(op, &folding_rules()).map_err(fail)?;
    apply_rules(op, &[&folding::FOLD_CONSTANT_DEQUANTIZE]).map_err(fail)
}

fn run_folding(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    fold(op)
}
