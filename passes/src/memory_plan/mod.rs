//! `glow-plan-memory`: Glow's static memory planner on the instruction IR (run
//! `glow-raise-to-instr` and the glow.instr optimizations first). The entry function
//! `@f(inputs..., outputs...)` (after `buffer-results-to-out-params`) becomes
//! `@f(%constant, %mutable, %activations)`, three byte buffers, and every buffer gets
//! its planned `offset`:
//! - constant weights: each `glow.instr.weight "<global>" constant` gets the offset of
//!   its global's data in `%constant` (also recorded on the global as
//!   `glow.constant_offset`, so a driver can write the weights image);
//! - mutable weights: each argument becomes a `glow.instr.weight "<name>" mutable` at
//!   its offset in `%mutable` (inputs first, in argument order; listed in the
//!   function's `glow.mutable_offsets`), named after its `glow.name`;
//! - activations: each `glow.instr.alloc_activation` gets an offset in
//!   `%activations`, from its liveness interval in the instruction stream (alloc to
//!   dealloc) by [`first_fit::plan`], which tries three placement orders and keeps the
//!   smallest arena.
//!
//! The sizes are recorded as `glow.constant_size`, `glow.mutable_size` and
//! `glow.activations_size`, with the activations' liveness lower bound
//! (`glow.activations_lower_bound`, the most bytes alive at one time), the bytes they
//! would take unshared (`glow.activations_unshared`), the placement strategy that won
//! and the largest buffers alive at the peak with the nodes that own them
//! (`glow.activations_at_peak`), and every buffer's lifetime and place
//! (`glow.activations_intervals`: start, end, offset, size each). Offsets are 64-byte aligned. An arena larger than the
//! `limit` option (bytes; 0: none) is refused. `glow-lower-instr` then turns the
//! planned buffers into views of the three arguments; with
//! `convert-func-to-llvm{use-bare-ptr-memref-call-conv}` the C signature is
//! `void f(uint8_t *constant, uint8_t *mutable, uint8_t *activations)`.

pub mod first_fit;
mod liveness;

use crate::framework::{
    attributes, emit_error, OptionKind, PassDefinition, PassOption, PassOptions,
};
use crate::instr::buffers::{entry_block, name_of, set_attribute};
use first_fit::{align_up, lower_bound, plan, Interval};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{
            ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, StringAttribute,
            TypeAttribute,
        },
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::{FunctionType, IntegerType, MemRefType},
        Attribute, BlockLike, Identifier, Location, OperationRef, RegionLike, Type, TypeLike,
        ValueLike,
    },
    Context,
};
use std::collections::HashMap;

/// Alignment of every buffer in the three arenas.
pub const ALIGNMENT: u64 = 64;

/// The pass definition registered as `glow-plan-memory`.
pub static PLAN_MEMORY: PassDefinition = PassDefinition {
    argument: "glow-plan-memory",
    description: "Place constants, inputs/outputs and activations of a bufferized function in three byte buffers (Glow's bundle memory model)",
    anchor: Some("builtin.module"),
    options: &[
        PassOption {
            name: "function",
            description: "The entry function",
            kind: OptionKind::String,
            default: Some("main"),
        },
        PassOption {
            name: "limit",
            description: "The largest activation arena accepted, in bytes (0: no limit)",
            kind: OptionKind::Int,
            default: Some("0"),
        },
    ],
    dependent_dialects: || {
        vec![
            DialectHandle::memref(),
            DialectHandle::func(),
            // SAFETY: the handle of a dialect this library registers.
            unsafe {
                DialectHandle::from_raw(glow_dialects::ffi::mlirGetDialectHandle__glow_instr__())
            },
        ]
    },
    validate: |options: &PassOptions| match options.value("limit").map(str::parse::<i64>) {
        None | Some(Ok(0..)) => Ok(()),
        _ => Err("limit must be a byte count, 0 or more (0: no limit)".into()),
    },
    run,
};

/// Bytes of one element of `element`, and whether it is a float.
pub fn element_size(element: Type) -> Option<(u64, bool)> {
    if let Ok(integer) = IntegerType::try_from(element) {
        // An i1 takes a byte in memory.
        let width = integer.width().max(8);
        return (width % 8 == 0).then_some((u64::from(width / 8), false));
    }
    if element.is_f16() || element.is_bf16() {
        return Some((2, true));
    }
    if element.is_f32() {
        return Some((4, true));
    }
    if element.is_f64() {
        return Some((8, true));
    }
    None
}

/// The byte size of a static memref type with the identity layout.
pub fn memref_bytes(r#type: Type) -> Option<u64> {
    let memref = crate::framework::values::memref_type(r#type)?;
    // SAFETY: layout queries on a live memref type.
    let identity = unsafe {
        mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirMemRefTypeGetAffineMap(memref.to_raw()))
    };
    if !identity {
        return None;
    }
    let (size, _) = element_size(melior::ir::r#type::ShapedTypeLike::element(&memref))?;
    let mut count = 1u64;
    for d in 0..melior::ir::r#type::ShapedTypeLike::rank(&memref) {
        match melior::ir::r#type::ShapedTypeLike::dim_size(&memref, d) {
            Ok(melior::ir::r#type::DimSize::Static(n)) => count *= n,
            _ => return None,
        }
    }
    Some(count * size)
}

fn integer(context: &Context, value: u64) -> Attribute<'_> {
    IntegerAttribute::new(Type::index(context), value as i64).into()
}

fn offset_attribute(context: &Context, value: u64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value as i64).into()
}

fn run(module: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let context = module.context();
    // SAFETY: the ContextRef outlives the borrow in this frame.
    let context = unsafe { context.to_ref() };
    let entry_name = options.value("function").unwrap_or("main").to_string();
    let limit = options
        .value("limit")
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    let fail = |location: Location, message: &str| {
        emit_error(location, &format!("glow-plan-memory: {message}"));
    };
    let (function, block) = entry_block(module, &entry_name, "glow-plan-memory")?;

    // The module's constant globals.
    let mut globals = HashMap::new();
    let body = module.region(0).map_err(|_| ())?;
    let mut next = body.first_block().and_then(|b| b.first_operation());
    while let Some(op) = next {
        if name_of(op) == "memref.global" && op.attribute("constant").is_ok() {
            if let Some(name) = attributes::string(op, "sym_name") {
                globals.insert(name, op);
            }
        }
        next = op.next_in_block();
    }
    let signature = TypeAttribute::try_from(function.attribute("function_type").map_err(|_| ())?)
        .ok()
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .ok_or(())?;
    if signature.result_count() != 0 {
        fail(
            function.location(),
            "the entry function returns values: run buffer-results-to-out-params first",
        );
        return Err(());
    }

    // Mutable weights: the arguments, one after the other.
    let arguments = block.argument_count();
    let mut mutable_offsets = Vec::new();
    let mut mutable_size = 0u64;
    for i in 0..arguments {
        let argument = block.argument(i).map_err(|_| ())?;
        let Some(bytes) = memref_bytes(argument.r#type()) else {
            fail(
                function.location(),
                &format!(
                    "argument {i} has type {}, not a static memref with the identity layout",
                    argument.r#type()
                ),
            );
            return Err(());
        };
        mutable_offsets.push(mutable_size as i64);
        mutable_size = align_up(mutable_size + bytes, ALIGNMENT);
    }

    // Constant weights: every global the function reads, once each.
    let mut constant_offsets: HashMap<String, u64> = HashMap::new();
    let mut constant_size = 0u64;
    let mut failed = false;
    function.walk(WalkOrder::PreOrder, |op| {
        if name_of(op) != "glow.instr.weight" {
            return WalkResult::Advance;
        }
        let Some(symbol) = attributes::string(op, "name") else {
            return WalkResult::Advance;
        };
        if attributes::i64_value(op, "mutability") != Some(0) {
            fail(op.location(), "a mutable weight before planning: the planner makes them from the arguments");
            failed = true;
            return WalkResult::Interrupt;
        }
        let bytes = op.result(0).ok().and_then(|r| memref_bytes(r.r#type()));
        let readable = globals
            .get(&symbol)
            .is_some_and(|global| global.attribute("initial_value").is_ok());
        let (Some(bytes), true) = (bytes, readable) else {
            fail(
                op.location(),
                &format!("weight '{symbol}' names no constant global with static data of a supported element type"),
            );
            failed = true;
            return WalkResult::Interrupt;
        };
        let offset = *constant_offsets.entry(symbol).or_insert_with(|| {
            let offset = constant_size;
            constant_size = align_up(constant_size + bytes, ALIGNMENT);
            offset
        });
        set_attribute(op, "offset", offset_attribute(context, offset));
        WalkResult::Advance
    });
    if failed {
        return Err(());
    }

    // Activations: placed by lifetime.
    let allocations = match liveness::allocations(function, block) {
        Ok(allocations) => allocations,
        Err((location, message)) => {
            fail(location, &message);
            return Err(());
        }
    };
    let intervals: Vec<Interval> = allocations.iter().map(|a| a.interval).collect();
    let (activation_offsets, activations_size, strategy) = plan(&intervals, ALIGNMENT);
    if limit > 0 && activations_size > limit {
        fail(
            function.location(),
            &format!("the activations need {activations_size} bytes, more than the limit of {limit} bytes"),
        );
        return Err(());
    }
    let (lower_bound, peak) = lower_bound(&intervals, ALIGNMENT);
    let unshared: u64 = intervals.iter().map(|i| align_up(i.size, ALIGNMENT)).sum();
    for (allocation, offset) in allocations.iter().zip(&activation_offsets) {
        set_attribute(allocation.op, "offset", offset_attribute(context, *offset));
    }
    // The largest buffers alive at the peak, with the node that allocates each.
    let mut at_peak: Vec<(u64, String)> = allocations
        .iter()
        .filter(|a| a.interval.start <= peak && peak <= a.interval.end)
        .map(|a| {
            let owner = crate::framework::locations::node_or_position(a.op);
            (a.interval.size, owner)
        })
        .collect();
    at_peak.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let peak_text: Vec<Attribute> = at_peak
        .iter()
        .take(5)
        .map(|(size, owner)| {
            StringAttribute::new(context, &format!("{owner}: {size} bytes")).into()
        })
        .collect();

    // The arguments become mutable weights; the signature, three byte buffers.
    let (names, _) = glow_dialects::port_names::port_names(function);
    let anchor = block.first_operation().ok_or(())?;
    let mutability = IntegerAttribute::new(IntegerType::new(context, 32).into(), 1).into();
    for (i, offset) in mutable_offsets.iter().enumerate() {
        let argument = block.argument(i).map_err(|_| ())?;
        let name = names
            .get(i)
            .cloned()
            .flatten()
            .unwrap_or_else(|| format!("arg{i}"));
        let weight = OperationBuilder::new("glow.instr.weight", function.location())
            .add_attributes(&[
                (
                    Identifier::new(context, "name"),
                    StringAttribute::new(context, &name).into(),
                ),
                (Identifier::new(context, "mutability"), mutability),
                (
                    Identifier::new(context, "offset"),
                    offset_attribute(context, *offset as u64),
                ),
            ])
            .add_results(&[argument.r#type()])
            .build()
            .map_err(|_| ())?;
        let weight = block.insert_operation_before(anchor, weight);
        let replacement = weight.result(0).map_err(|_| ())?;
        // SAFETY: the weight has the argument's type and dominates every use.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(argument.to_raw(), replacement.to_raw()) };
    }
    for _ in 0..arguments {
        // SAFETY: the argument has no uses any more.
        unsafe { mlir_sys::mlirBlockEraseArgument(block.to_raw(), 0) };
    }
    let byte = IntegerType::new(context, 8).into();
    let buffer_type =
        |size: u64| -> Type { MemRefType::new(byte, &[size.max(1) as i64], None, None).into() };
    let location = function.location();
    let new_types = [
        buffer_type(constant_size),
        buffer_type(mutable_size),
        buffer_type(activations_size),
    ];
    for (i, t) in new_types.iter().enumerate() {
        // SAFETY: block arguments are inserted into the live entry block.
        unsafe {
            mlir_sys::mlirBlockInsertArgument(
                block.to_raw(),
                i as isize,
                t.to_raw(),
                location.to_raw(),
            )
        };
    }
    let function_type = FunctionType::new(context, &new_types, &[]);
    set_attribute(
        function,
        "function_type",
        TypeAttribute::new(function_type.into()).into(),
    );
    // The three buffers never overlap, and the planner aligned each to 64 bytes: LLVM
    // may rely on both.
    let buffer_attributes = Attribute::parse(
        context,
        "[{llvm.noalias, llvm.align = 64 : i64}, {llvm.noalias, llvm.align = 64 : i64}, {llvm.noalias, llvm.align = 64 : i64}]",
    )
    .ok_or(())?;
    set_attribute(function, "arg_attrs", buffer_attributes);
    for (name, offset) in &constant_offsets {
        if let Some(global) = globals.get(name) {
            set_attribute(*global, "glow.constant_offset", integer(context, *offset));
        }
    }
    set_attribute(
        function,
        "glow.constant_size",
        integer(context, constant_size),
    );
    set_attribute(
        function,
        "glow.mutable_size",
        integer(context, mutable_size),
    );
    set_attribute(
        function,
        "glow.activations_size",
        integer(context, activations_size),
    );
    set_attribute(
        function,
        "glow.activations_lower_bound",
        integer(context, lower_bound),
    );
    set_attribute(
        function,
        "glow.activations_unshared",
        integer(context, unshared),
    );
    set_attribute(
        function,
        "glow.activations_placement",
        StringAttribute::new(context, &strategy).into(),
    );
    set_attribute(
        function,
        "glow.activations_at_peak",
        ArrayAttribute::new(context, &peak_text).into(),
    );
    // Each buffer's lifetime and place, for plots: start, end, offset, size.
    let placed: Vec<i64> = allocations
        .iter()
        .zip(&activation_offsets)
        .flat_map(|(a, offset)| {
            [
                a.interval.start as i64,
                a.interval.end as i64,
                *offset as i64,
                a.interval.size as i64,
            ]
        })
        .collect();
    set_attribute(
        function,
        "glow.activations_intervals",
        DenseI64ArrayAttribute::new(context, &placed).into(),
    );
    set_attribute(
        function,
        "glow.mutable_offsets",
        DenseI64ArrayAttribute::new(context, &mutable_offsets).into(),
    );
    Ok(())
}
