//! `glow-raise-to-instr`: a bufferized function into Glow's instruction IR, the form
//! Glow's IR optimizer and memory planner work on. In its body:
//! - each static `memref.alloc` becomes a `glow.instr.alloc_activation`, with one
//!   `glow.instr.dealloc_activation` before the terminator: every lifetime is explicit
//!   and as long as the function (`glow-instr-shorten-lifetimes` then shortens them, as
//!   Glow's IRGen left deallocations at the end for its optimizer to hoist); a
//!   `memref.dealloc` already there is dropped for that one;
//! - each `memref.get_global` of a constant global becomes a
//!   `glow.instr.weight "<symbol>" constant` (the planner places the weights);
//! - each `memref.copy` of a whole buffer into another of the same type becomes a
//!   `glow.instr.copy`;
//! - each reshape of a buffer (`memref.reshape`, `expand_shape`, `collapse_shape`)
//!   between static identity-layout types becomes a `glow.instr.tensorview` at offset
//!   zero (Glow's TensorView); a shape operand left without uses goes with it.
//!
//! Compute (linalg, vector, loops on memrefs) stays as it is in between. An allocation
//! the planner could not place (dynamic sizes, a layout, inside a loop or region, more
//! than 64-byte alignment) is a located error.

use super::buffers::{
    build_alloc, build_dealloc, direct_uses, erase, name_of, replace_uses, VIEWS,
};
use crate::framework::{emit_error, OptionKind, PassDefinition, PassOption, PassOptions};
use crate::memory_plan::{memref_bytes, ALIGNMENT};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{DenseI64ArrayAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::ShapedTypeLike,
        AttributeLike, BlockLike, Identifier, OperationRef, RegionLike, ValueLike,
    },
};

/// The pass definition registered as `glow-raise-to-instr`.
pub static RAISE_TO_INSTR: PassDefinition = PassDefinition {
    argument: "glow-raise-to-instr",
    description: "Raise a bufferized function to glow.instr: allocations to alloc_activation / dealloc_activation, constant globals to weights, whole-buffer copies to glow.instr.copy, reshapes to tensorview",
    anchor: Some("func.func"),
    options: &[PassOption {
        name: "functions",
        description: "The functions to raise (default: every function)",
        kind: OptionKind::StringList,
        default: None,
    }],
    dependent_dialects: || {
        // SAFETY: the handle of a dialect this library registers.
        vec![unsafe {
            DialectHandle::from_raw(glow_dialects::ffi::mlirGetDialectHandle__glow_instr__())
        }]
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

fn fail(op: OperationRef, message: &str) {
    emit_error(op.location(), &format!("glow-raise-to-instr: {message}"));
}

/// The constant globals of the module around `function`, by symbol.
fn constant_globals(function: OperationRef) -> std::collections::HashSet<String> {
    let mut globals = std::collections::HashSet::new();
    // SAFETY: the parent of a live function is its live module (or null).
    let parent = unsafe { mlir_sys::mlirOperationGetParentOperation(function.to_raw()) };
    if parent.ptr.is_null() {
        return globals;
    }
    // SAFETY: as above.
    let module = unsafe { OperationRef::from_raw(parent) };
    let Ok(region) = module.region(0) else {
        return globals;
    };
    let mut next = region.first_block().and_then(|b| b.first_operation());
    while let Some(op) = next {
        if name_of(op) == "memref.global" && op.attribute("constant").is_ok() {
            if let Some(symbol) = crate::framework::attributes::string(op, "sym_name") {
                globals.insert(symbol);
            }
        }
        next = op.next_in_block();
    }
    globals
}

/// The symbol a `memref.get_global` reads.
fn global_symbol(op: OperationRef) -> Option<String> {
    let attribute = op.attribute("name").ok()?;
    // SAFETY: queries on a live attribute.
    unsafe {
        if !mlir_sys::mlirAttributeIsAFlatSymbolRef(attribute.to_raw()) {
            return None;
        }
        let value = mlir_sys::mlirFlatSymbolRefAttrGetValue(attribute.to_raw());
        melior::StringRef::from_raw(value)
            .as_str()
            .ok()
            .map(str::to_string)
    }
}

fn run(function: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let chosen = options.list("functions");
    let name = crate::framework::attributes::string(function, "sym_name").unwrap_or_default();
    if !chosen.is_empty() && !chosen.contains(&name) {
        return Ok(());
    }
    let context = function.context();
    // SAFETY: the context outlives this pass run.
    let context = unsafe { context.to_ref() };
    let region = function.region(0).map_err(|_| ())?;
    let Some(block) = region.first_block() else {
        return Ok(()); // A declaration.
    };

    // Allocations the planner cannot place are refused first, wherever they are.
    let mut refused = false;
    function.walk(WalkOrder::PreOrder, |op| {
        if name_of(op) != "memref.alloc" {
            return WalkResult::Advance;
        }
        // SAFETY: the parent of a live op.
        let top_level = unsafe { mlir_sys::mlirOperationGetParentOperation(op.to_raw()) }.ptr
            == function.to_raw().ptr;
        let result = op.result(0).expect("memref.alloc has a result");
        let alignment = crate::framework::attributes::i64_value(op, "alignment").unwrap_or(0);
        let message = if !top_level {
            Some("an allocation inside a loop or region cannot be planned".to_string())
        } else if block.next_in_region().is_some() {
            Some("a function with more than one block cannot be planned".to_string())
        } else if memref_bytes(result.r#type()).is_none() {
            Some(format!(
                "allocation of {} is not a static memref with the identity layout",
                result.r#type()
            ))
        } else if alignment > ALIGNMENT as i64 {
            Some(format!(
                "an alignment of {alignment} bytes is more than the planner's {ALIGNMENT}"
            ))
        } else {
            None
        };
        if let Some(message) = message {
            fail(op, &message);
            refused = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if refused {
        return Err(());
    }

    let globals = constant_globals(function);
    let terminator = block.terminator();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        match name_of(op).as_str() {
            "memref.alloc" => {
                let result = op.result(0).map_err(|_| ())?;
                let alloc =
                    block.insert_operation_before(op, build_alloc(result.r#type(), op.location()));
                let buffer = alloc.result(0).map_err(|_| ())?;
                replace_uses(result.into(), buffer.into());
                for (user, _) in direct_uses(buffer.into()) {
                    if name_of(user) == "memref.dealloc" {
                        if next.is_some_and(|n| n.to_raw().ptr == user.to_raw().ptr) {
                            next = user.next_in_block();
                        }
                        erase(user);
                    }
                }
                if let Some(terminator) = terminator {
                    block.insert_operation_before(
                        terminator,
                        build_dealloc(buffer.into(), op.location()),
                    );
                }
                erase(op);
            }
            "memref.get_global" => {
                let Some(symbol) = global_symbol(op) else {
                    continue;
                };
                if !globals.contains(&symbol) {
                    continue;
                }
                let result = op.result(0).map_err(|_| ())?;
                let weight = OperationBuilder::new("glow.instr.weight", op.location())
                    .add_attributes(&[
                        (
                            Identifier::new(context, "name"),
                            StringAttribute::new(context, &symbol).into(),
                        ),
                        (
                            Identifier::new(context, "mutability"),
                            constant_mutability(context),
                        ),
                    ])
                    .add_results(&[result.r#type()])
                    .build()
                    .map_err(|_| ())?;
                let weight = block.insert_operation_before(op, weight);
                replace_uses(result.into(), weight.result(0).map_err(|_| ())?.into());
                erase(op);
            }
            "memref.reshape" | "memref.expand_shape" | "memref.collapse_shape" => {
                let (Ok(source), Ok(result)) = (op.operand(0), op.result(0)) else {
                    continue;
                };
                let (Some(_), Some(_), Some(source_type)) = (
                    memref_bytes(source.r#type()),
                    memref_bytes(result.r#type()),
                    crate::framework::values::memref_type(source.r#type()),
                ) else {
                    continue;
                };
                let zeros = vec![0; source_type.rank()];
                let view = OperationBuilder::new("glow.instr.tensorview", op.location())
                    .add_operands(&[source])
                    .add_attributes(&[(
                        Identifier::new(context, "offsets"),
                        DenseI64ArrayAttribute::new(context, &zeros).into(),
                    )])
                    .add_results(&[result.r#type()])
                    .build()
                    .map_err(|_| ())?;
                let view = block.insert_operation_before(op, view);
                replace_uses(result.into(), view.result(0).map_err(|_| ())?.into());
                let shape = (name_of(op) == "memref.reshape")
                    .then(|| op.operand(1).ok())
                    .flatten();
                erase(op);
                if let Some(shape) = shape {
                    let producer = crate::instr::buffers::defining_op(shape);
                    if let Some(producer) = producer.filter(|p| {
                        direct_uses(shape).is_empty()
                            && ["glow.instr.weight", "memref.get_global"]
                                .contains(&name_of(*p).as_str())
                    }) {
                        erase(producer);
                    }
                }
            }
            "memref.copy" => {
                let (Ok(source), Ok(target)) = (op.operand(0), op.operand(1)) else {
                    continue;
                };
                let whole = |value: melior::ir::Value| {
                    memref_bytes(value.r#type()).is_some()
                        && !crate::instr::buffers::defining_op(value)
                            .is_some_and(|d| VIEWS.contains(&name_of(d).as_str()))
                };
                if source.r#type() != target.r#type() || !whole(source) || !whole(target) {
                    continue;
                }
                let copy = OperationBuilder::new("glow.instr.copy", op.location())
                    .add_operands(&[target, source])
                    .build()
                    .map_err(|_| ())?;
                block.insert_operation_before(op, copy);
                erase(op);
            }
            _ => {}
        }
    }
    Ok(())
}

/// The `constant` case of glow.instr's weight mutability (an `I32EnumAttr`, stored as
/// an i32 integer attribute).
fn constant_mutability(context: &melior::Context) -> melior::ir::Attribute<'_> {
    IntegerAttribute::new(melior::ir::r#type::IntegerType::new(context, 32).into(), 0).into()
}
