//! The bundle's weights image: the planned constant globals copied out of the module
//! at the offsets `glow-plan-memory` gave them.

use anyhow::{Context as _, Result};
use melior::ir::{
    attribute::{IntegerAttribute, TypeAttribute},
    operation::OperationLike,
    BlockLike, Module, OperationRef,
};

/// An index attribute the memory plan set on `op`.
pub fn index_attribute(op: OperationRef, name: &str) -> Result<u64> {
    let attribute = op
        .attribute(name)
        .with_context(|| format!("the memory plan left no '{name}'"))?;
    Ok(IntegerAttribute::try_from(attribute)
        .map_err(|_| anyhow::anyhow!("'{name}' is not an integer"))?
        .value() as u64)
}

/// Bytes copied out between two walks freeing the blobs left unreferenced.
pub const RELEASE_EVERY: usize = 16 << 20;

/// Hands the data of every planned constant global to `write` (with the byte offset
/// the plan gave it, in the weights image) and erases the global. The module then
/// holds each weight once: blobs no attribute refers to any more (a filter's layout
/// before relayout, a global copied out) are freed as the copy goes, each time
/// [`RELEASE_EVERY`] bytes have been copied, so the image never sits beside a second
/// full copy of the weights. (Freeing walks the whole module: after every global, a
/// GRU unrolled over 128 steps, hundreds of small globals, spent 18 s here.)
pub fn extract_weights(
    module: &Module,
    write: &mut dyn FnMut(usize, &[u8]) -> Result<()>,
) -> Result<()> {
    let release = || glow_dialects::resources::release_unreferenced(module);
    release();
    let mut copied = 0;
    let body = module.body();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("memref.global") {
            continue;
        }
        let Ok(offset) = index_attribute(op, "glow.constant_offset") else {
            continue;
        };
        let r#type = TypeAttribute::try_from(op.attribute("type")?)
            .map_err(|_| anyhow::anyhow!("a global without a type"))?
            .value();
        let element = melior::ir::r#type::MemRefType::try_from(r#type)
            .map_err(|_| anyhow::anyhow!("a global of type {type}, not a memref"))?;
        let element = melior::ir::r#type::ShapedTypeLike::element(&element);
        let initial = op.attribute("initial_value")?;
        let size = glow_passes::memory_plan::memref_bytes(r#type).map(|n| n as usize);
        // A blob already in the compiled layout (anything but i1) is copied straight
        // from MLIR's storage; others are converted first.
        let converted;
        let bytes = match glow_dialects::elements::resource_data(initial) {
            Some(data) if !is_bool(element) && Some(data.len()) == size => data,
            _ => {
                converted =
                    glow_dialects::elements::memory_bytes(initial, element).with_context(|| {
                        format!(
                            "cannot read the data of a constant of type {type} (a dense_resource \
                             without its blob, as --mlir-elide-resource-strings-if-larger \
                             prints it, or of the wrong size)"
                        )
                    })?;
                &converted[..]
            }
        };
        write(offset as usize, bytes)?;
        copied += bytes.len();
        // SAFETY: the global is no longer referenced: the plan made its uses views.
        unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
        if copied >= RELEASE_EVERY {
            release();
            copied = 0;
        }
    }
    release();
    Ok(())
}

/// Whether `element` is i1 (one byte per element compiled, bits in MLIR's storage).
fn is_bool(element: melior::ir::Type) -> bool {
    melior::ir::r#type::IntegerType::try_from(element).is_ok_and(|t| t.width() == 1)
}
