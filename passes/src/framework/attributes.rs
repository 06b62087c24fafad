//! Reading and setting op attributes (and an op's name), in one place.

use melior::ir::{
    attribute::DenseI64ArrayAttribute, operation::OperationLike, Attribute, AttributeLike,
    OperationRef,
};

/// The name of `op` (`linalg.generic`).
pub fn name_of(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// Sets `op`'s attribute `name` (through an OperationRef, which melior only reads).
pub fn set_attribute(op: OperationRef, name: &str, value: Attribute) {
    let name = mlir_sys::MlirStringRef {
        data: name.as_ptr().cast(),
        length: name.len(),
    };
    // SAFETY: a live op and a live attribute; MLIR copies the name.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), name, value.to_raw()) }
}

/// Removes `op`'s discardable attribute `name`, if it has one.
pub fn remove_attribute(op: OperationRef, name: &str) {
    let name = mlir_sys::MlirStringRef {
        data: name.as_ptr().cast(),
        length: name.len(),
    };
    // SAFETY: a live op; no op is erased.
    unsafe { mlir_sys::mlirOperationRemoveDiscardableAttributeByName(op.to_raw(), name) };
}

/// The elements of the op's `array<i64: ...>` attribute `name`, or `None` when the op
/// has no such attribute or it has another kind.
pub fn i64_array(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    let array = DenseI64ArrayAttribute::try_from(op.attribute(name).ok()?).ok()?;
    Some(
        (0..array.len())
            .filter_map(|i| array.element(i).ok())
            .collect(),
    )
}

/// The elements of the op's `array<f64: ...>` attribute `name`, or `None` when the op
/// has no such attribute or it has another kind.
pub fn f64_array(op: OperationRef, name: &str) -> Option<Vec<f64>> {
    let attribute = op.attribute(name).ok()?;
    let raw = attribute.to_raw();
    // SAFETY: the kind is checked before the elements are read.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseF64Array(raw) {
            return None;
        }
        let count = mlir_sys::mlirDenseArrayGetNumElements(raw);
        Some(
            (0..count)
                .map(|i| mlir_sys::mlirDenseF64ArrayGetElement(raw, i))
                .collect(),
        )
    }
}

/// The op's float attribute `name` as f64, or `None`.
pub fn f64_value(op: OperationRef, name: &str) -> Option<f64> {
    melior::ir::attribute::FloatAttribute::try_from(op.attribute(name).ok()?)
        .ok()
        .map(|a| a.value())
}

/// The op's string attribute `name`, or `None`.
pub fn string(op: OperationRef, name: &str) -> Option<String> {
    melior::ir::attribute::StringAttribute::try_from(op.attribute(name).ok()?)
        .ok()
        .map(|a| a.value().to_string())
}

/// The op's integer attribute `name`, or `None`.
pub fn i64_value(op: OperationRef, name: &str) -> Option<i64> {
    melior::ir::attribute::IntegerAttribute::try_from(op.attribute(name).ok()?)
        .ok()
        .map(|a| a.value())
}

/// The functions of `module_body` that hold a model: defined, public and not one of the
/// runtime's own `glow_*` helpers, with their symbol names.
pub fn model_functions<'c, 'a>(
    module_body: melior::ir::BlockRef<'c, 'a>,
) -> Vec<(OperationRef<'c, 'a>, String)> {
    use melior::ir::{BlockLike, RegionLike};
    let mut functions = Vec::new();
    let mut next = module_body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if name_of(op) != "func.func" || string(op, "sym_visibility").is_some() {
            continue;
        }
        let symbol = string(op, "sym_name").unwrap_or_default();
        let defined = op.region(0).ok().and_then(|r| r.first_block()).is_some();
        if defined && !symbol.starts_with("glow_") {
            functions.push((op, symbol));
        }
    }
    functions
}
