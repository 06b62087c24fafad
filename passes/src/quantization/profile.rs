//! `glow-profile{bins=N}`: Glow's profiling instrumentation. Every float value that
//! glow-quantize would quantize ([`super::values`]) gets a `glow.quant.profile` right
//! after its definition, named after the ONNX value it came from and numbered (`id`)
//! in IR order; the function records the hash of the graph as it was before
//! (`glow.profile_hash`), which the profile file carries so that glow-quantize can
//! refuse a profile taken on another graph.

use super::values::{functions, graph_hash, quantized_values};
use crate::framework::{OptionKind, PassDefinition, PassOption, PassOptions};
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Attribute, BlockLike, BlockRef, Identifier, OperationRef, RegionLike, ValueLike,
};

/// The function attribute holding the graph hash.
pub const HASH_ATTRIBUTE: &str = "glow.profile_hash";

/// The pass definition registered as `glow-profile`.
pub static PROFILE: PassDefinition = PassDefinition {
    argument: "glow-profile",
    description: "Instrument every float value quantization touches with glow.quant.profile (Glow's profiling), and record the graph hash",
    anchor: Some("builtin.module"),
    options: &[PassOption {
        name: "bins",
        description: "Histogram bins per value (KL calibration wants many)",
        kind: OptionKind::Int,
        default: Some("2048"),
    }],
    dependent_dialects: super::quantization_dialects,
    validate: |options: &PassOptions| match options.value("bins").map(str::parse::<i64>) {
        Some(Ok(b)) if b >= 1 => Ok(()),
        None => Ok(()),
        _ => Err("'bins' must be a positive integer".into()),
    },
    run,
};

fn run(module: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let bins: i64 = options
        .value("bins")
        .and_then(|b| b.parse().ok())
        .unwrap_or(2048);
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context = unsafe { context_ref.to_ref() };
    let i64_type = IntegerType::new(context, 64).into();
    let mut id = 0i64;
    for function in functions(module) {
        let hash = graph_hash(function);
        let values = quantized_values(function);
        let Some(entry) = function.region(0).ok().and_then(|r| r.first_block()) else {
            continue;
        };
        for (value, name) in values {
            let attributes: [(Identifier, Attribute); 3] = [
                (
                    Identifier::new(context, "name"),
                    StringAttribute::new(context, &name).into(),
                ),
                (
                    Identifier::new(context, "bins"),
                    IntegerAttribute::new(i64_type, bins).into(),
                ),
                (
                    Identifier::new(context, "id"),
                    IntegerAttribute::new(i64_type, id).into(),
                ),
            ];
            id += 1;
            let op = OperationBuilder::new("glow.quant.profile", function.location())
                .add_operands(&[value])
                .add_attributes(&attributes)
                .build()
                .map_err(|_| ())?;
            insert_after_definition(entry, value, op);
        }
        let attribute = StringAttribute::new(context, &hash);
        let name = HASH_ATTRIBUTE;
        // SAFETY: setting a discardable attribute on a live op.
        unsafe {
            mlir_sys::mlirOperationSetAttributeByName(
                function.to_raw(),
                mlir_sys::MlirStringRef {
                    data: name.as_ptr().cast(),
                    length: name.len(),
                },
                melior::ir::AttributeLike::to_raw(&attribute),
            )
        };
    }
    Ok(())
}

/// Inserts `op` right after `value`'s definition (at the start of `entry` for a block
/// argument).
fn insert_after_definition(entry: BlockRef, value: melior::ir::Value, op: melior::ir::Operation) {
    // SAFETY: queries on a live value; the owner is a live op.
    unsafe {
        if mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
            entry.insert_operation(0, op);
            return;
        }
        let owner = OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw()));
        if let Some(block) = owner.block() {
            block.insert_operation_after(owner, op);
        }
    }
}
