//! `glow-lower-profiles`: glow.quant.profile -> a call of the runtime's recorder on the
//! value converted to f32 and seen as a read-only buffer of its static shape:
//! `glow_profile_record_<shape>(memref<<shape>xf32>, i64 count, i64 id)`, one
//! declaration per distinct shape (`_scalar` for rank 0). Static shapes keep the call
//! convertible under the bare-pointer calling convention glow-run and bundles compile
//! with, where each becomes `(float *data, int64_t count, int64_t id)`: the runner
//! provides one C function under every declared name ([`RECORDER`] prefix).

use super::ir::{name_of, tensor_type};
use crate::{
    framework::{PassDefinition, PassOptions},
    lower_nodes::builder::tensor_info,
};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::{FunctionType, IntegerType},
        Attribute, BlockLike, Identifier, OperationRef, Region, RegionLike, Type, TypeLike, Value,
        ValueLike,
    },
    Context,
};

/// The prefix of the recorder's symbols.
pub const RECORDER: &str = "glow_profile_record";

/// The recorder's symbol for values of `shape`.
pub fn recorder_symbol(shape: &[i64]) -> String {
    if shape.is_empty() {
        return format!("{RECORDER}_scalar");
    }
    let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
    format!("{RECORDER}_{}", dims.join("x"))
}

/// The pass definition registered as `glow-lower-profiles`.
pub static LOWER_PROFILES: PassDefinition = PassDefinition {
    argument: "glow-lower-profiles",
    description: "Lower glow.quant.profile to calls of the runtime recorder glow_profile_record",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || {
        let mut dialects = super::quantization_dialects();
        // SAFETY: static descriptors of dialects linked into the binary.
        dialects.extend(unsafe {
            [
                DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__bufferization__()),
                DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__memref__()),
            ]
        });
        dialects.push(DialectHandle::func());
        dialects.push(DialectHandle::arith());
        dialects
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

fn memref_of<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    // SAFETY: a plain type constructor; the shape is copied.
    unsafe {
        Type::from_raw(mlir_sys::mlirMemRefTypeContiguousGet(
            element.to_raw(),
            shape.len() as isize,
            shape.as_ptr(),
            mlir_sys::MlirAttribute {
                ptr: std::ptr::null(),
            },
        ))
    }
}

fn build_op<'c>(
    context: &'c Context,
    name: &str,
    operands: &[Value<'c, '_>],
    attributes: &[(&str, Attribute<'c>)],
    results: &[Type<'c>],
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    let attributes: Vec<(Identifier, Attribute)> = attributes
        .iter()
        .map(|(n, a)| (Identifier::new(context, n), *a))
        .collect();
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_attributes(&attributes)
        .add_results(results)
        .build()
        .unwrap_or_else(|e| panic!("cannot build {name}: {e}"))
}

fn run(module: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let mut profiles = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if name_of(op) == "glow.quant.profile" {
            profiles.push(op.to_raw());
        }
        WalkResult::Advance
    });
    if profiles.is_empty() {
        return Ok(());
    }
    let i64_type: Type = IntegerType::new(context, 64).into();
    let mut declarations: Vec<(String, Type)> = Vec::new();
    for raw in profiles {
        // SAFETY: collected from the live module; erased only after its use.
        let op = unsafe { OperationRef::from_raw(raw) };
        let Some(block) = op.block() else { continue };
        let location = op.location();
        let Ok(input) = op.operand(0) else { continue };
        let Some((shape, element)) = tensor_info(input) else {
            continue;
        };
        let id = crate::framework::attributes::i64_value(op, "id").unwrap_or(0);
        let f32 = Type::float32(context);
        let mut value: Value = input;
        let insert = |new: melior::ir::Operation| -> Value {
            let inserted = block.insert_operation_before(op, new);
            // SAFETY: the op lives in `block`.
            unsafe { Value::from_raw(inserted.result(0).expect("result").to_raw()) }
        };
        if element != f32 {
            value = insert(build_op(
                context,
                "glow.graph.convert",
                &[value],
                &[],
                &[tensor_type(&shape, f32)],
                location,
            ));
        }
        let buffer = insert(build_op(
            context,
            "bufferization.to_buffer",
            &[value],
            &[("read_only", Attribute::unit(context))],
            &[memref_of(&shape, f32)],
            location,
        ));
        let symbol = recorder_symbol(&shape);
        if !declarations.iter().any(|(name, _)| *name == symbol) {
            declarations.push((symbol.clone(), memref_of(&shape, f32)));
        }
        let constant = |value: i64| {
            build_op(
                context,
                "arith.constant",
                &[],
                &[("value", IntegerAttribute::new(i64_type, value).into())],
                &[i64_type],
                location,
            )
        };
        let count = insert(constant(shape.iter().product()));
        let id = insert(constant(id));
        block.insert_operation_before(
            op,
            build_op(
                context,
                "func.call",
                &[buffer, count, id],
                &[(
                    "callee",
                    FlatSymbolRefAttribute::new(context, &symbol).into(),
                )],
                &[],
                location,
            ),
        );
        // SAFETY: the profile op has no results and is not used further.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
            mlir_sys::mlirOperationDestroy(op.to_raw());
        }
    }
    // The recorders' declarations, once per shape.
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Err(());
    };
    for (name, buffer) in declarations {
        let symbol = melior::StringRef::new(&name);
        // SAFETY: a lookup in the live module's symbol table, destroyed right after.
        let declared = unsafe {
            let table = mlir_sys::mlirSymbolTableCreate(module.to_raw());
            let found = !mlir_sys::mlirSymbolTableLookup(table, symbol.to_raw())
                .ptr
                .is_null();
            mlir_sys::mlirSymbolTableDestroy(table);
            found
        };
        if declared {
            continue;
        }
        let signature = FunctionType::new(context, &[buffer, i64_type, i64_type], &[]);
        let attributes: Vec<(Identifier, Attribute)> = [
            ("sym_name", StringAttribute::new(context, &name).into()),
            ("function_type", TypeAttribute::new(signature.into()).into()),
            (
                "sym_visibility",
                StringAttribute::new(context, "private").into(),
            ),
        ]
        .into_iter()
        .map(|(n, a): (&str, Attribute)| (Identifier::new(context, n), a))
        .collect();
        let declaration = OperationBuilder::new("func.func", module.location())
            .add_attributes(&attributes)
            .add_regions([Region::new()])
            .build()
            .map_err(|_| ())?;
        body.insert_operation(0, declaration);
    }
    Ok(())
}
