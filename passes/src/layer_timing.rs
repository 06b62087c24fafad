//! `glow-time-layers` (on buffers, after bufferization): every top-level operation of
//! each public function that does work (a loop nest — the register-tile `scf.forall`
//! of a convolution or matmul —, a linalg op, a copy) is bracketed by
//! `func.call @glow_layer_begin(N)` / `@glow_layer_end(N)`, N its 0-based number; its
//! name (the ONNX node its location carries, else the location) and kind go to the
//! module's `glow.layers` array (entry N). A runner that defines the two functions
//! (glow-run --profile-layers) times each layer. Views, allocations, constants and
//! the function's terminator are not layers.

use crate::framework::{emit_error, PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, AttributeLike, BlockLike, Identifier, Operation, OperationRef, RegionLike,
        Value,
    },
    Context,
};

/// The module attribute naming the layers, in number order (`kind name`).
pub const LAYERS: &str = "glow.layers";

/// The pass definition registered as `glow-time-layers`.
pub static TIME_LAYERS: PassDefinition = PassDefinition {
    argument: "glow-time-layers",
    description: "Bracket each top-level working op of public functions with glow_layer_begin/end calls (a runner times them), naming the layers in glow.layers",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::func(), DialectHandle::arith()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The two functions the calls need.
const DECLARATIONS: &str = "func.func private @glow_layer_begin(i64)
func.func private @glow_layer_end(i64)
";

/// Whether a top-level op is a layer.
fn is_layer(name: &str) -> bool {
    matches!(
        name,
        "scf.forall" | "scf.for" | "scf.parallel" | "memref.copy" | "func.call"
    ) || name.starts_with("linalg.")
        || name.starts_with("vector.")
}

fn string_attribute(op: OperationRef, name: &str) -> Option<String> {
    op.attribute(name)
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
}

fn call<'c>(
    context: &'c Context,
    callee: &str,
    id: Value<'c, '_>,
    op: OperationRef<'c, '_>,
) -> Operation<'c> {
    OperationBuilder::new("func.call", op.location())
        .add_operands(&[id])
        .add_attributes(&[(
            Identifier::new(context, "callee"),
            FlatSymbolRefAttribute::new(context, callee).into(),
        )])
        .build()
        .expect("valid func.call")
}

fn run(module: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let i64_type = IntegerType::new(context, 64).into();
    let mut names: Vec<Attribute> = Vec::new();
    let functions = crate::framework::attributes::model_functions(body);
    let mut declared = false;
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        declared |= string_attribute(op, "sym_name").as_deref() == Some("glow_layer_begin");
    }
    for (function, _) in functions {
        let Some(block) = function.region(0).ok().and_then(|r| r.first_block()) else {
            continue;
        };
        let mut layers = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            let name = op.name();
            let name = name.as_string_ref().as_str().unwrap_or("");
            let helper = name == "func.call"
                && op
                    .attribute("callee")
                    .ok()
                    .is_some_and(|c| c.to_string().contains("glow_"));
            if is_layer(name) && !helper {
                layers.push(op);
            }
        }
        for op in layers {
            let id = names.len() as i64;
            let node = crate::framework::locations::node_or_position(op);
            let kind = op.name().as_string_ref().as_str().unwrap_or("").to_string();
            names.push(StringAttribute::new(context, &format!("{kind} {node}")).into());
            let constant = OperationBuilder::new("arith.constant", op.location())
                .add_attributes(&[(
                    Identifier::new(context, "value"),
                    IntegerAttribute::new(i64_type, id).into(),
                )])
                .add_results(&[i64_type])
                .build()
                .expect("valid arith.constant");
            let constant = block.insert_operation_before(op, constant);
            let id: Value = constant.result(0).expect("one result").into();
            block.insert_operation_before(op, call(context, "glow_layer_begin", id, op));
            block.insert_operation_after(op, call(context, "glow_layer_end", id, op));
        }
    }
    if !declared && !crate::framework::splice::append_parsed_ops(context, body, DECLARATIONS) {
        emit_error(
            module.location(),
            "glow-time-layers: internal error: the declarations do not parse",
        );
        return Err(());
    }
    let array = ArrayAttribute::new(context, &names);
    // SAFETY: setting an attribute on the live module op.
    unsafe {
        let name = melior::StringRef::new(LAYERS);
        mlir_sys::mlirOperationSetAttributeByName(module.to_raw(), name.to_raw(), array.to_raw());
    }
    Ok(())
}
