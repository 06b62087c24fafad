//! `glow-lower-instr`: a planned glow.instr function back to upstream memrefs, after
//! `glow-plan-memory` gave it the signature `(%constant, %mutable, %activations)`
//! (three byte buffers) and every buffer its offset. Each constant
//! `glow.instr.weight` becomes a `memref.view` of `%constant`, each mutable one of
//! `%mutable`, each `glow.instr.alloc_activation` of `%activations`, at its offset;
//! `glow.instr.dealloc_activation` goes (the memory is the caller's),
//! `glow.instr.copy` becomes `memref.copy` and a `glow.instr.tensorview` of a planned
//! buffer a `memref.view` of the same byte buffer, further in by the view's offset. A
//! buffer without an offset, a function with buffers that was never planned, or a
//! tensorview of anything but a planned buffer is a located error.

use super::buffers::{erase, name_of, parent_block, replace_uses};
use crate::framework::{attributes, emit_error, PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::{DimSize, ShapedTypeLike},
        BlockLike, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
    },
};

/// The pass definition registered as `glow-lower-instr`.
pub static LOWER_INSTR: PassDefinition = PassDefinition {
    argument: "glow-lower-instr",
    description: "Lower a planned glow.instr function to memref views of its three byte buffers (constant weights, mutable weights, activations)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || {
        vec![
            DialectHandle::memref(),
            DialectHandle::arith(),
        ]
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

fn fail(op: OperationRef, message: &str) {
    emit_error(op.location(), &format!("glow-lower-instr: {message}"));
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context = function.context();
    // SAFETY: the context outlives this pass run.
    let context = unsafe { context.to_ref() };
    let mut ops = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if name_of(op).starts_with("glow.instr.") && name_of(op) != "glow.instr.check" {
            // SAFETY: the op outlives the pass's use of it.
            ops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    if ops.is_empty() {
        return Ok(());
    }
    let planned = function.attribute("glow.activations_size").is_ok();
    let region = function.region(0).map_err(|_| ())?;
    let block = region.first_block().ok_or(())?;
    if !planned || block.argument_count() != 3 {
        fail(
            ops[0],
            "the function's buffers are not planned: run glow-plan-memory first",
        );
        return Err(());
    }
    let buffer = |i: usize| -> Value { block.argument(i).expect("three arguments").into() };
    for op in ops {
        let name = name_of(op);
        let arena = match name.as_str() {
            "glow.instr.weight" if attributes::i64_value(op, "mutability") == Some(0) => 0,
            "glow.instr.weight" => 1,
            "glow.instr.alloc_activation" => 2,
            "glow.instr.dealloc_activation" => {
                erase(op);
                continue;
            }
            "glow.instr.copy" => {
                let (Ok(destination), Ok(source)) = (op.operand(0), op.operand(1)) else {
                    return Err(());
                };
                let copy = OperationBuilder::new("memref.copy", op.location())
                    .add_operands(&[source, destination])
                    .build()
                    .map_err(|_| ())?;
                parent_block(op).insert_operation_before(op, copy);
                erase(op);
                continue;
            }
            "glow.instr.tensorview" => {
                lower_tensorview(context, op)?;
                continue;
            }
            _ => {
                fail(op, &format!("{name} has no lowering"));
                return Err(());
            }
        };
        let Some(offset) = attributes::i64_value(op, "offset") else {
            fail(op, "a buffer without an offset: run glow-plan-memory first");
            return Err(());
        };
        replace_with_view(context, op, buffer(arena), offset)?;
    }
    Ok(())
}

/// Replaces `op`'s result by a `memref.view` of the byte buffer `bytes` at `offset`.
fn replace_with_view<'c>(
    context: &'c melior::Context,
    op: OperationRef<'c, '_>,
    bytes: Value<'c, '_>,
    offset: i64,
) -> Result<(), ()> {
    let result = op.result(0).map_err(|_| ())?;
    let index = Type::index(context);
    let parent = parent_block(op);
    let constant = OperationBuilder::new("arith.constant", op.location())
        .add_attributes(&[(
            Identifier::new(context, "value"),
            IntegerAttribute::new(index, offset).into(),
        )])
        .add_results(&[index])
        .build()
        .map_err(|_| ())?;
    let constant = parent.insert_operation_before(op, constant);
    let view = OperationBuilder::new("memref.view", op.location())
        .add_operands(&[bytes, constant.result(0).map_err(|_| ())?.into()])
        .add_results(&[result.r#type()])
        .build()
        .map_err(|_| ())?;
    let view = parent.insert_operation_before(op, view);
    replace_uses(result.into(), view.result(0).map_err(|_| ())?.into());
    erase(op);
    Ok(())
}

/// A tensorview whose source is already a `memref.view` of one of the byte buffers at
/// a constant offset (seen through subviews of identity layout: contiguous and
/// starting where their source starts, as a leading slice of a reshaped input is): a
/// view of that buffer, `offsets` (row-major) further in.
fn lower_tensorview<'c>(context: &'c melior::Context, op: OperationRef<'c, '_>) -> Result<(), ()> {
    let source = op.operand(0).map_err(|_| ())?;
    let mut underlying = source;
    while let Some(subview) = super::buffers::defining_op(underlying).filter(|view| {
        name_of(*view) == "memref.subview"
            && crate::memory_plan::memref_bytes(underlying.r#type()).is_some()
    }) {
        underlying = subview.operand(0).map_err(|_| ())?;
    }
    let planned = super::buffers::defining_op(underlying)
        .filter(|view| name_of(*view) == "memref.view")
        .and_then(|view| {
            let offset = view.operand(1).ok().and_then(super::buffers::defining_op)?;
            let offset = IntegerAttribute::try_from(offset.attribute("value").ok()?).ok()?;
            Some((view.operand(0).ok()?, offset.value()))
        });
    let shape = crate::framework::values::memref_type(source.r#type()).and_then(|t| {
        (0..t.rank())
            .map(|d| match t.dim_size(d) {
                Ok(DimSize::Static(n)) => Some(n as i64),
                _ => None,
            })
            .collect::<Option<Vec<i64>>>()
            .map(|shape| (shape, t.element()))
    });
    let (Some((bytes, base)), Some((shape, element))) = (planned, shape) else {
        fail(
            op,
            "a tensorview of a buffer that is not a planned weight or activation",
        );
        return Err(());
    };
    let Some((element_bytes, _)) = crate::memory_plan::element_size(element) else {
        fail(op, &format!("a tensorview of {element} elements"));
        return Err(());
    };
    let offsets = attributes::i64_array(op, "offsets").unwrap_or_default();
    let start = offsets
        .iter()
        .zip(&shape)
        .fold(0i64, |start, (offset, size)| start * size + offset);
    replace_with_view(context, op, bytes, base + start * element_bytes as i64)
}
