//! `glow-plan-memory`: Glow's bundle memory model on a bufferized function. The entry
//! function `@f(inputs..., outputs...)` (run `buffer-results-to-out-params` first)
//! becomes `@f(%constant, %mutable, %activations)`, three byte buffers:
//! - constant weights: every `memref.get_global` of a constant global becomes a
//!   `memref.view` of `%constant` at the global's offset (recorded on the global as
//!   `glow.constant_offset`, so a driver can write the weights file);
//! - mutable weights: the inputs and outputs, at the offsets listed in the function's
//!   `glow.mutable_offsets` (inputs first, in argument order);
//! - activations: every static `memref.alloc` of the function body becomes a view of
//!   `%activations`, placed by [`first_fit`] so buffers whose lifetimes (first to last
//!   use, through views and subviews) do not overlap share memory. Their deallocs go.
//!
//! The sizes are recorded as `glow.constant_size`, `glow.mutable_size` and
//! `glow.activations_size`, with the activations' liveness lower bound
//! (`glow.activations_lower_bound`, the most bytes alive at one time), the bytes they
//! would take unshared (`glow.activations_unshared`), the placement strategy that won
//! ([`first_fit::plan`] tries three) and the largest buffers alive at the peak with
//! the nodes that own them (`glow.activations_at_peak`). Offsets are 64-byte aligned. With
//! `convert-func-to-llvm{use-bare-ptr-memref-call-conv}` the C signature is
//! `void f(uint8_t *constant, uint8_t *mutable, uint8_t *activations)`.

pub mod first_fit;
mod liveness;

use crate::framework::{emit_error, OptionKind, PassDefinition, PassOption, PassOptions};
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
        Attribute, AttributeLike, BlockLike, BlockRef, Identifier, Location, OperationRef,
        RegionLike, Type, TypeLike, Value, ValueLike,
    },
    Context,
};

/// Alignment of every buffer in the three arenas.
pub const ALIGNMENT: u64 = 64;

/// The pass definition registered as `glow-plan-memory`.
pub static PLAN_MEMORY: PassDefinition = PassDefinition {
    argument: "glow-plan-memory",
    description: "Place constants, inputs/outputs and activations of a bufferized function in three byte buffers (Glow's bundle memory model)",
    anchor: Some("builtin.module"),
    options: &[PassOption {
        name: "function",
        description: "The entry function",
        kind: OptionKind::String,
        default: Some("main"),
    }],
    dependent_dialects: || {
        vec![
            DialectHandle::memref(),
            DialectHandle::arith(),
            DialectHandle::func(),
        ]
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Bytes of one element of `element`, and whether it is a float.
fn element_size(element: Type) -> Option<(u64, bool)> {
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
    let memref = MemRefType::try_from(r#type).ok()?;
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

fn name_of(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

fn string_attribute(op: OperationRef, name: &str) -> Option<String> {
    op.attribute(name)
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
}

fn flat_symbol(op: OperationRef, name: &str) -> Option<String> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: a query on a live attribute.
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

fn set_attribute(op: OperationRef, name: &str, value: Attribute) {
    let name = melior::StringRef::new(name);
    // SAFETY: setting an attribute on a live op.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), name.to_raw(), value.to_raw()) }
}

/// Builds `memref.view %buffer[offset][]` ops at the start of the entry block, with one
/// `arith.constant` per distinct offset.
struct Views<'c, 'a> {
    context: &'c Context,
    block: BlockRef<'c, 'a>,
    offsets: std::collections::HashMap<u64, mlir_sys::MlirValue>,
}

impl<'c, 'a> Views<'c, 'a> {
    /// A view of `buffer` at `offset` with `type`.
    fn view(
        &mut self,
        buffer: Value<'c, '_>,
        offset: u64,
        r#type: Type<'c>,
        location: Location<'c>,
    ) -> mlir_sys::MlirValue {
        let first = self
            .block
            .first_operation()
            .expect("the entry block has a terminator");
        let context = self.context;
        let block = self.block;
        let offset_value = *self.offsets.entry(offset).or_insert_with(|| {
            let index = Type::index(context);
            let constant = OperationBuilder::new("arith.constant", location)
                .add_attributes(&[(
                    Identifier::new(context, "value"),
                    IntegerAttribute::new(index, offset as i64).into(),
                )])
                .add_results(&[index])
                .build()
                .expect("valid arith.constant");
            let constant = block.insert_operation_before(first, constant);
            constant.result(0).expect("one result").to_raw()
        });
        // Views go after every offset constant: insert before the first op that is not
        // one of them.
        let mut anchor = self.block.first_operation();
        while let Some(op) = anchor {
            if name_of(op) != "arith.constant" {
                break;
            }
            anchor = op.next_in_block();
        }
        let anchor = anchor.expect("the entry block has a terminator");
        // SAFETY: the offset value is a live index constant of this block.
        let offset_value = unsafe { Value::from_raw(offset_value) };
        let op = OperationBuilder::new("memref.view", location)
            .add_operands(&[buffer, offset_value])
            .add_results(&[r#type])
            .build()
            .expect("valid memref.view");
        let inserted = self.block.insert_operation_before(anchor, op);
        inserted.result(0).expect("one result").to_raw()
    }
}

fn run(module: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let context = module.context();
    // SAFETY: the ContextRef outlives the borrow in this frame.
    let context = unsafe { context.to_ref() };
    let entry_name = options.value("function").unwrap_or("main").to_string();
    let fail = |location: Location, message: &str| {
        emit_error(location, &format!("glow-plan-memory: {message}"));
    };

    // The entry function and the module's constant globals.
    let mut function = None;
    let mut globals = std::collections::HashMap::new();
    let body = module.region(0).map_err(|_| ())?;
    let mut next = body.first_block().and_then(|b| b.first_operation());
    while let Some(op) = next {
        match name_of(op).as_str() {
            "func.func" if string_attribute(op, "sym_name").as_deref() == Some(&entry_name) => {
                function = Some(op)
            }
            "memref.global" if op.attribute("constant").is_ok() => {
                if let Some(name) = string_attribute(op, "sym_name") {
                    globals.insert(name, op);
                }
            }
            _ => {}
        }
        next = op.next_in_block();
    }
    let Some(function) = function else {
        fail(module.location(), &format!("no function @{entry_name}"));
        return Err(());
    };
    let region = function.region(0).map_err(|_| ())?;
    let Some(block) = region.first_block() else {
        fail(function.location(), "the entry function has no body");
        return Err(());
    };
    if block.next_in_region().is_some() {
        fail(
            function.location(),
            "the entry function has more than one block",
        );
        return Err(());
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

    // Constant weights: every constant global the function reads, once each.
    let mut constant_offsets: std::collections::HashMap<String, u64> = Default::default();
    let mut constant_size = 0u64;
    let mut get_globals = Vec::new();
    let mut failed = false;
    function.walk(WalkOrder::PreOrder, |op| {
        if name_of(op) != "memref.get_global" {
            return WalkResult::Advance;
        }
        let Some(symbol) = flat_symbol(op, "name") else {
            return WalkResult::Advance;
        };
        let Some(global) = globals.get(&symbol) else {
            // Not a constant: stays a global.
            return WalkResult::Advance;
        };
        let bytes = op.result(0).ok().and_then(|r| memref_bytes(r.r#type()));
        let readable = global.attribute("initial_value").is_ok();
        let (Some(bytes), true) = (bytes, readable) else {
            fail(
                op.location(),
                &format!("constant @{symbol} has no static data of a supported element type"),
            );
            failed = true;
            return WalkResult::Interrupt;
        };
        if !constant_offsets.contains_key(&symbol) {
            constant_offsets.insert(symbol.clone(), constant_size);
            constant_size = align_up(constant_size + bytes, ALIGNMENT);
        }
        // SAFETY: the op outlives the pass's use of it.
        get_globals.push((unsafe { OperationRef::from_raw(op.to_raw()) }, symbol));
        WalkResult::Advance
    });
    if failed {
        return Err(());
    }

    // Activations: static allocations of the body, placed by lifetime.
    let allocations = match liveness::allocations(block) {
        Ok(allocations) => allocations,
        Err((location, message)) => {
            fail(location, &message);
            return Err(());
        }
    };
    let intervals: Vec<Interval> = allocations.iter().map(|a| a.interval).collect();
    let (activation_offsets, activations_size, strategy) = plan(&intervals, ALIGNMENT);
    let (lower_bound, peak) = lower_bound(&intervals, ALIGNMENT);
    let unshared: u64 = intervals.iter().map(|i| align_up(i.size, ALIGNMENT)).sum();
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

    // The new signature: three byte buffers.
    let byte = IntegerType::new(context, 8).into();
    let buffer_type =
        |size: u64| -> Type { MemRefType::new(byte, &[size.max(1) as i64], None, None).into() };
    let location = function.location();
    let new_types = [
        buffer_type(constant_size),
        buffer_type(mutable_size),
        buffer_type(activations_size),
    ];
    // SAFETY: block arguments are inserted into the live entry block.
    let buffers: Vec<Value> = new_types
        .iter()
        .enumerate()
        .map(|(i, t)| unsafe {
            Value::from_raw(mlir_sys::mlirBlockInsertArgument(
                block.to_raw(),
                i as isize,
                t.to_raw(),
                location.to_raw(),
            ))
        })
        .collect();
    let (constant, mutable, activations) = (buffers[0], buffers[1], buffers[2]);

    let mut views = Views {
        context,
        block,
        offsets: Default::default(),
    };
    for (i, offset) in mutable_offsets.iter().enumerate() {
        let argument = block.argument(3 + i).map_err(|_| ())?;
        let replacement = views.view(mutable, *offset as u64, argument.r#type(), location);
        // SAFETY: the view has the argument's type and dominates every use.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(argument.to_raw(), replacement) };
    }
    for _ in 0..arguments {
        // SAFETY: the argument has no uses any more.
        unsafe { mlir_sys::mlirBlockEraseArgument(block.to_raw(), 3) };
    }
    for (op, symbol) in get_globals {
        let result = op.result(0).map_err(|_| ())?;
        let replacement = views.view(
            constant,
            constant_offsets[&symbol],
            result.r#type(),
            op.location(),
        );
        // SAFETY: same type, and the view (at the function start) dominates the uses.
        unsafe {
            mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), replacement);
            mlir_sys::mlirOperationDestroy(op.to_raw());
        }
    }
    for (allocation, offset) in allocations.iter().zip(&activation_offsets) {
        let op = allocation.op;
        let result = op.result(0).map_err(|_| ())?;
        let replacement = views.view(activations, *offset, result.r#type(), op.location());
        // SAFETY: deallocs of the buffer go first, then the alloc, whose result is
        // replaced by a view of the same type that dominates its uses.
        unsafe {
            for dealloc in &allocation.deallocs {
                mlir_sys::mlirOperationDestroy(dealloc.to_raw());
            }
            mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), replacement);
            mlir_sys::mlirOperationDestroy(op.to_raw());
        }
    }

    let function_type = FunctionType::new(context, &new_types, &[]);
    set_attribute(
        function,
        "function_type",
        TypeAttribute::new(function_type.into()).into(),
    );
    for (name, globals_symbol_offset) in &constant_offsets {
        if let Some(global) = globals.get(name) {
            set_attribute(
                *global,
                "glow.constant_offset",
                IntegerAttribute::new(Type::index(context), *globals_symbol_offset as i64).into(),
            );
        }
    }
    let size = |value: u64| IntegerAttribute::new(Type::index(context), value as i64).into();
    set_attribute(function, "glow.constant_size", size(constant_size));
    set_attribute(function, "glow.mutable_size", size(mutable_size));
    set_attribute(function, "glow.activations_size", size(activations_size));
    set_attribute(function, "glow.activations_lower_bound", size(lower_bound));
    set_attribute(function, "glow.activations_unshared", size(unshared));
    set_attribute(
        function,
        "glow.activations_placement",
        StringAttribute::new(context, strategy.name()).into(),
    );
    set_attribute(
        function,
        "glow.activations_at_peak",
        ArrayAttribute::new(context, &peak_text).into(),
    );
    set_attribute(
        function,
        "glow.mutable_offsets",
        DenseI64ArrayAttribute::new(context, &mutable_offsets).into(),
    );
    Ok(())
}
