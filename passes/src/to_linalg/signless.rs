//! The last step of glow-graph-to-linalg: signed and unsigned integer types become
//! signless.
//!
//! `glow.graph` keeps ONNX's unsigned types (`ui8`, `ui32`, ...) so that every
//! conversion rule can pick the unsigned arith op (`divui`, `maxui`, `cmpi ult`,
//! `uitofp`, `extui`). arith and linalg bodies only accept signless integers, and the
//! ABI does not care about signedness, so once no glow.graph op is left every type in
//! the function (values, block arguments, the function type, the element type of
//! constants) is rewritten to its signless twin. The rules may build linalg bodies on
//! unsigned scalars in between: the pass verifies only after this sweep.
//!
//! `!quant` element types become their storage integers the same way; the quant.scast
//! and tensor.bitcast ops that then cast a type to itself are dropped.

use crate::framework::attributes::set_attribute;
use melior::ir::{
    attribute::{IntegerAttribute, TypeAttribute},
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::{FunctionType, IntegerType, RankedTensorType, ShapedTypeLike},
    Attribute, AttributeLike, BlockLike, OperationRef, RegionLike, Type, TypeLike, ValueLike,
};

/// The signless twin of `t` (an integer, a ranked tensor of integers or a function
/// type over them), or None when `t` has no signed / unsigned integer in it.
fn signless<'c>(t: Type<'c>) -> Option<Type<'c>> {
    let context = t.context();
    // SAFETY: the type's context outlives this call.
    let context = unsafe { context.to_ref() };
    if let Some((width, _)) = glow_dialects::quant_types::storage(t) {
        return Some(IntegerType::new(context, width).into());
    }
    // melior's failed `try_from` prints the type into its error (an AsmState, sorting
    // the loaded dialects, per call): every value of the function passes here, so each
    // kind is tested first (it was 40 % of this pass on an unrolled LSTM).
    let raw = t.to_raw();
    // SAFETY: type-kind queries on a live type.
    let (is_integer, is_tensor, is_function) = unsafe {
        (
            mlir_sys::mlirTypeIsAInteger(raw),
            mlir_sys::mlirTypeIsARankedTensor(raw),
            mlir_sys::mlirTypeIsAFunction(raw),
        )
    };
    if is_integer {
        let integer = IntegerType::try_from(t).ok()?;
        return (!integer.is_signless()).then(|| IntegerType::new(context, integer.width()).into());
    }
    if !is_tensor && !is_function {
        return None;
    }
    if let Ok(tensor) = RankedTensorType::try_from(t) {
        let element = signless(tensor.element())?;
        let dims: Vec<u64> = (0..tensor.rank())
            .map(|d| {
                // SAFETY: d < rank.
                unsafe { mlir_sys::mlirShapedTypeGetDimSize(t.to_raw(), d as isize) as u64 }
            })
            .collect();
        return Some(RankedTensorType::new(&dims, element, tensor.encoding()).into());
    }
    if let Ok(function) = FunctionType::try_from(t) {
        let inputs: Vec<Type> = (0..function.input_count())
            .map(|i| function.input(i).expect("input"))
            .collect();
        let results: Vec<Type> = (0..function.result_count())
            .map(|i| function.result(i).expect("result"))
            .collect();
        if !inputs
            .iter()
            .chain(&results)
            .any(|t| signless(*t).is_some())
        {
            return None;
        }
        let map = |types: &[Type<'c>]| -> Vec<Type<'c>> {
            types.iter().map(|t| signless(*t).unwrap_or(*t)).collect()
        };
        return Some(FunctionType::new(context, &map(&inputs), &map(&results)).into());
    }
    None
}

/// `value` (an integer or dense elements attribute) retyped to `to`.
fn retyped<'c>(value: Attribute<'c>, to: Type<'c>) -> Option<Attribute<'c>> {
    // SAFETY: an attribute-kind query (a failed `try_from` would print the constant).
    if unsafe { mlir_sys::mlirAttributeIsAInteger(value.to_raw()) } {
        let integer = IntegerAttribute::try_from(value).ok()?;
        return Some(IntegerAttribute::new(to, integer.value()).into());
    }
    // SAFETY: the raw data of a dense int elements attribute (or a dense_resource
    // blob) is its little-endian storage, which the signless type of the same width
    // reads identically.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseElements(value.to_raw()) {
            let resource =
                glow_dialects::ffi::glowResourceElementsWithType(value.to_raw(), to.to_raw());
            return (!resource.ptr.is_null()).then(|| Attribute::from_raw(resource));
        }
        let data = mlir_sys::mlirDenseElementsAttrGetRawData(value.to_raw());
        let splat = mlir_sys::mlirDenseElementsAttrIsSplat(value.to_raw());
        let width = IntegerType::try_from(RankedTensorType::try_from(to).ok()?.element())
            .ok()?
            .width() as usize;
        let count = if splat {
            1
        } else {
            mlir_sys::mlirElementsAttrGetNumElements(value.to_raw()) as usize
        };
        let bytes = if width == 1 { count } else { count * width / 8 };
        let raw = mlir_sys::mlirDenseElementsAttrRawBufferGet(to.to_raw(), bytes, data);
        (!raw.ptr.is_null()).then(|| Attribute::from_raw(raw))
    }
}

/// Rewrites every signed / unsigned integer type under `function` to signless.
/// Returns the ops whose typed attribute could not be converted (reported by the
/// caller).
pub fn make_signless<'c>(function: OperationRef<'c, '_>) -> Vec<OperationRef<'c, 'c>> {
    let mut unconverted = Vec::new();
    let mut identities = Vec::new();
    if let Ok(attribute) = function.attribute("function_type") {
        if let Some(t) = TypeAttribute::try_from(attribute)
            .ok()
            .and_then(|t| signless(t.value()))
        {
            set_attribute(function, "function_type", TypeAttribute::new(t).into());
        }
    }
    function.walk(WalkOrder::PreOrder, |op| {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(current) = block {
                for i in 0..current.argument_count() {
                    let argument = current.argument(i).expect("argument");
                    if let Some(t) = signless(argument.r#type()) {
                        // SAFETY: retyping a block argument to a type of the same layout.
                        unsafe { mlir_sys::mlirValueSetType(argument.to_raw(), t.to_raw()) };
                    }
                }
                block = current.next_in_region();
            }
        }
        for result in op.results() {
            if let Some(t) = signless(result.r#type()) {
                // SAFETY: retyping a result to a type of the same layout.
                unsafe { mlir_sys::mlirValueSetType(result.to_raw(), t.to_raw()) };
            }
        }
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        if matches!(name, "quant.scast" | "tensor.bitcast")
            && op.operand(0).is_ok_and(|input| {
                op.result(0)
                    .is_ok_and(|output| input.r#type() == output.r#type())
            })
        {
            // SAFETY: the op lives as long as the function being converted.
            identities.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        if let Ok(value) = op.attribute("value") {
            if let Some(to) = signless(value.r#type()) {
                match retyped(value, to) {
                    Some(converted) => set_attribute(op, "value", converted),
                    // SAFETY: the op lives as long as the function being converted.
                    None => unconverted.push(unsafe { OperationRef::from_raw(op.to_raw()) }),
                }
            }
        }
        WalkResult::Advance
    });
    for cast in identities {
        // SAFETY: the cast's result is replaced by its identically typed operand, then
        // the cast, now unused, is erased.
        unsafe {
            let (input, output) = (
                cast.operand(0).expect("one operand"),
                cast.result(0).expect("one result"),
            );
            mlir_sys::mlirValueReplaceAllUsesOfWith(output.to_raw(), input.to_raw());
            mlir_sys::mlirOperationDestroy(cast.to_raw());
        }
    }
    unconverted
}
