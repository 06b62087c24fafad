//! `glow-lower-checks`: the runtime checks of compiled code (`glow.instr.check`, e.g. an
//! index outside its dimension) become an error status the caller reads after a call.
//!
//! Each check becomes `func.call @glow_check(%ok, N)`, N its 1-based number; its message
//! goes to the module's `glow.runtime_errors` array (entry N - 1). The module gets a
//! private status word (`memref.global @glow_status`), `glow_check`, which records the
//! first failed check of a call, and the public `glow_take_status() -> i32`, which
//! returns the status (0: every check passed) and clears it: glow-run calls it after
//! each run and prints the message; glow-compile exports it as the bundle's
//! `NAME_status()`. The helpers are added even when there is no check, so every
//! compiled module has the same interface. Running the pass twice changes nothing.

use crate::framework::{emit_error, PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{
            ArrayAttribute, AttributeLike, FlatSymbolRefAttribute, IntegerAttribute,
            StringAttribute,
        },
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
        Attribute, BlockLike, Identifier, OperationRef, RegionLike, Value,
    },
    Context,
};

/// The public function that returns and clears a compiled module's error status.
pub const TAKE_STATUS: &str = "glow_take_status";

/// The module attribute holding the checks' messages, in check-number order.
pub const RUNTIME_ERRORS: &str = "glow.runtime_errors";

/// The pass definition registered as `glow-lower-checks`.
pub static LOWER_CHECKS: PassDefinition = PassDefinition {
    argument: "glow-lower-checks",
    description: "Lower glow.instr.check to the module's error status (glow_take_status), recording each check's message in glow.runtime_errors",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || {
        let mut dialects = vec![
            DialectHandle::func(),
            DialectHandle::arith(),
            DialectHandle::scf(),
            // SAFETY: a static descriptor of a dialect linked into the binary.
            unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__memref__()) },
        ];
        dialects.extend(glow_dialects::glow_dialect_handles());
        dialects
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The status word and its two functions.
const HELPERS: &str = r#"memref.global "private" @glow_status : memref<i32> = dense<0>
func.func private @glow_check(%ok: i1, %site: i32) {
  %status = memref.get_global @glow_status : memref<i32>
  %current = memref.load %status[] : memref<i32>
  %zero = arith.constant 0 : i32
  %first = arith.cmpi eq, %current, %zero : i32
  %true = arith.constant true
  %failed = arith.xori %ok, %true : i1
  %record = arith.andi %failed, %first : i1
  scf.if %record {
    memref.store %site, %status[] : memref<i32>
  }
  return
}
func.func @glow_take_status() -> i32 {
  %status = memref.get_global @glow_status : memref<i32>
  %current = memref.load %status[] : memref<i32>
  %zero = arith.constant 0 : i32
  memref.store %zero, %status[] : memref<i32>
  return %current : i32
}
"#;

fn run(module: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut checks = Vec::new();
    let mut has_helpers = false;
    let mut declarations = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        match name.as_string_ref().as_str() {
            Ok("glow.instr.check") => checks.push(op.to_raw()),
            Ok("func.func") => {
                let helper = op
                    .attribute("sym_name")
                    .ok()
                    .and_then(|a| StringAttribute::try_from(a).ok())
                    .is_some_and(|n| n.value() == TAKE_STATUS || n.value() == "glow_check");
                let defined = op.region(0).ok().and_then(|r| r.first_block()).is_some();
                match (helper, defined) {
                    (true, true) => has_helpers = true,
                    // A declaration (code that calls glow_take_status itself): the
                    // definition replaces it.
                    (true, false) => declarations.push(op.to_raw()),
                    _ => {}
                }
            }
            _ => {}
        }
        WalkResult::Advance
    });
    if !has_helpers {
        for declaration in declarations {
            // SAFETY: a declaration of this module, replaced by the definition below.
            unsafe {
                mlir_sys::mlirOperationRemoveFromParent(declaration);
                mlir_sys::mlirOperationDestroy(declaration);
            }
        }
        if !crate::framework::splice::append_parsed_ops(context, body, HELPERS) {
            emit_error(
                module.location(),
                "glow-lower-checks: internal error: the status helpers do not parse",
            );
            return Err(());
        }
    }
    // Messages already recorded (a second run) keep their numbers.
    let mut messages: Vec<Attribute> = module
        .attribute(RUNTIME_ERRORS)
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .map(|array| {
            (0..array.len())
                .filter_map(|i| array.element(i).ok())
                .collect()
        })
        .unwrap_or_default();
    let i32_type = IntegerType::new(context, 32).into();
    for raw in checks {
        // SAFETY: collected from the live module; each check is erased once, here.
        let check = unsafe { OperationRef::from_raw(raw) };
        let (Some(block), Ok(ok), Ok(message)) =
            (check.block(), check.operand(0), check.attribute("message"))
        else {
            continue;
        };
        messages.push(message);
        let location = check.location();
        let site = OperationBuilder::new("arith.constant", location)
            .add_attributes(&[(
                Identifier::new(context, "value"),
                IntegerAttribute::new(i32_type, messages.len() as i64).into(),
            )])
            .add_results(&[i32_type])
            .build()
            .expect("valid arith.constant");
        let site = block.insert_operation_before(check, site);
        let site: Value = site.result(0).expect("one result").into();
        let call = OperationBuilder::new("func.call", location)
            .add_operands(&[ok, site])
            .add_attributes(&[(
                Identifier::new(context, "callee"),
                FlatSymbolRefAttribute::new(context, "glow_check").into(),
            )])
            .build()
            .expect("valid func.call");
        block.insert_operation_before(check, call);
        // SAFETY: the check has no results and no other reference.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(check.to_raw());
            mlir_sys::mlirOperationDestroy(check.to_raw());
        }
    }
    let array = ArrayAttribute::new(context, &messages);
    // SAFETY: setting an attribute on the live module op.
    unsafe {
        let name = melior::StringRef::new(RUNTIME_ERRORS);
        mlir_sys::mlirOperationSetAttributeByName(module.to_raw(), name.to_raw(), array.to_raw());
    }
    Ok(())
}
