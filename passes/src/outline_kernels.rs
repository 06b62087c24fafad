//! `glow-outline-kernels` (on buffers, before the lowering to loops): each top-level op
//! with regions of a defined public function (a layer's tile loop, a linalg op) moves
//! into a private function, a kernel, and a `func.call` takes its place. The kernel's
//! arguments are the buffers and values the op uses; constants, views whose strided
//! layout a bare pointer cannot carry, and vector reads and splats made just before
//! it are re-created inside it. Kernels whose
//! text is the same (one layer shape repeated: the 12 blocks of ViT-B/16, the stages
//! of a ResNet) become one function, so the lowering to LLVM and LLVM's optimizer and
//! code generator work on each distinct kernel once. Kernels are `noinline`: LLVM
//! would otherwise inline the single-call ones back into one huge function, whose
//! dominator-tree and loop analyses cost more than linear time. Copies first get views
//! of run-time extents ([`crate::copy_views`]), so copies of one rank share a kernel.

use crate::framework::{
    emit_error,
    raw_ops::{defined_inside, key, nested_ops, op_name},
    PassDefinition, PassOptions,
};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{ArrayAttribute, FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::FunctionType,
        Attribute, AttributeLike, BlockLike, BlockRef, Identifier, Operation, OperationRef,
        RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use mlir_sys::{MlirOperation, MlirValue};
use std::collections::{HashMap, HashSet};

/// The pass definition registered as `glow-outline-kernels`.
pub static OUTLINE_KERNELS: PassDefinition = PassDefinition {
    argument: "glow-outline-kernels",
    description: "Move each top-level loop nest / linalg op of public functions into a private noinline kernel function, one function per distinct kernel",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::func()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Ops without operands whose result is re-created inside a kernel rather than passed.
pub(crate) const CONSTANTS: &[&str] = &[
    "arith.constant",
    "ub.poison",
    "llvm.mlir.constant",
    "llvm.mlir.zero",
    "llvm.mlir.poison",
    "llvm.mlir.undef",
];

/// Side-effect-free views re-created inside a kernel when their result has a
/// non-identity layout (the bare-pointer calling convention of bundles passes only
/// identity-layout buffers); their operands are captured in turn.
pub(crate) const VIEWS: &[&str] = &[
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.cast",
    "memref.transpose",
];

/// Vector values read or splat outside a kernel (a tile loop's hoisted loads of a
/// run-time scale, an accumulator's initial value) that the kernel re-creates at its
/// start instead of taking as arguments: wide vectors passed by value made every call
/// a run of stores and loads, and the model function one block that LLVM's
/// instruction selection took seconds on (a dynamically quantized MobileNetV2).
const VECTOR_READS: &[&str] = &["vector.transfer_read", "vector.broadcast"];

/// Ops that do not write memory, which may stand between a re-created vector read and
/// the kernel.
fn writes_nothing(name: &str) -> bool {
    name.starts_with("arith.")
        || VECTOR_READS.contains(&name)
        || VIEWS.contains(&name)
        || CONSTANTS.contains(&name)
        || matches!(
            name,
            "memref.alloc"
                | "memref.alloca"
                | "memref.view"
                | "memref.load"
                | "memref.reshape"
                | "affine.apply"
        )
}

/// Whether `def` (a vector read or splat) can move into the kernel that replaces
/// `anchor`: both in one block, and nothing between them writes memory.
fn readable_at(def: MlirOperation, anchor: MlirOperation) -> bool {
    // SAFETY: queries on live ops of one function.
    unsafe {
        if mlir_sys::mlirOperationGetNumRegions(def) != 0
            || mlir_sys::mlirOperationGetNumResults(def) != 1
            || mlir_sys::mlirOperationGetBlock(def).ptr
                != mlir_sys::mlirOperationGetBlock(anchor).ptr
        {
            return false;
        }
        let mut next = mlir_sys::mlirOperationGetNextInBlock(def);
        while !next.ptr.is_null() && next.ptr != anchor.ptr {
            if !writes_nothing(&op_name(next)) {
                return false;
            }
            next = mlir_sys::mlirOperationGetNextInBlock(next);
        }
        next.ptr == anchor.ptr
    }
}

/// Whether `value` is a memref whose layout is not the identity.
fn strided_memref(value: MlirValue) -> bool {
    // SAFETY: type queries on a live value.
    unsafe {
        let t = mlir_sys::mlirValueGetType(value);
        mlir_sys::mlirTypeIsAMemRef(t)
            && !mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirMemRefTypeGetAffineMap(t))
    }
}

/// The kernel being built: its block, the outside values passed as its arguments and
/// what each outside value is inside it.
struct Kernel {
    block: mlir_sys::MlirBlock,
    arguments: Vec<MlirValue>,
    inside: HashMap<usize, MlirValue>,
    location: mlir_sys::MlirLocation,
    /// The op the kernel replaces.
    anchor: MlirOperation,
}

impl Kernel {
    /// `value` (defined outside) as the kernel sees it.
    fn capture(&mut self, value: MlirValue) -> MlirValue {
        if let Some(inside) = self.inside.get(&key(value)) {
            return *inside;
        }
        // SAFETY: queries and clones of live ops; clones are appended to the kernel's
        // block in capture order, so each definition precedes its uses.
        let captured = unsafe {
            let owner = if mlir_sys::mlirValueIsAOpResult(value) {
                Some(mlir_sys::mlirOpResultGetOwner(value))
            } else {
                None
            };
            let recreate = owner.filter(|&def| {
                let name = op_name(def);
                let leaf = mlir_sys::mlirOperationGetNumOperands(def) == 0
                    && mlir_sys::mlirOperationGetNumRegions(def) == 0
                    && CONSTANTS.contains(&name.as_str());
                let view = VIEWS.contains(&name.as_str())
                    && mlir_sys::mlirOperationGetNumResults(def) == 1
                    && strided_memref(value);
                let read = VECTOR_READS.contains(&name.as_str()) && readable_at(def, self.anchor);
                leaf || view || read
            });
            match recreate {
                Some(def) => {
                    let operands: Vec<MlirValue> = (0..mlir_sys::mlirOperationGetNumOperands(def))
                        .map(|i| self.capture(mlir_sys::mlirOperationGetOperand(def, i)))
                        .collect();
                    let clone = mlir_sys::mlirOperationClone(def);
                    for (i, operand) in operands.into_iter().enumerate() {
                        mlir_sys::mlirOperationSetOperand(clone, i as isize, operand);
                    }
                    mlir_sys::mlirBlockAppendOwnedOperation(self.block, clone);
                    mlir_sys::mlirOperationGetResult(
                        clone,
                        mlir_sys::mlirOpResultGetResultNumber(value),
                    )
                }
                None => {
                    self.arguments.push(value);
                    mlir_sys::mlirBlockAddArgument(
                        self.block,
                        mlir_sys::mlirValueGetType(value),
                        self.location,
                    )
                }
            }
        };
        self.inside.insert(key(value), captured);
        captured
    }
}

/// Symbol names already in the module.
fn symbols(body: BlockRef) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Some(name) = crate::framework::attributes::string(op, "sym_name") {
            names.insert(name);
        }
    }
    names
}

fn run(module: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut taken = symbols(body);
    let functions = crate::framework::attributes::model_functions(body);
    // Printed kernel (under a placeholder name) -> the function that has that text.
    let mut distinct: HashMap<String, String> = HashMap::new();
    let mut count = 0;
    for (function, function_name) in functions {
        let Some(block) = function.region(0).ok().and_then(|r| r.first_block()) else {
            continue;
        };
        // New kernels follow the function, in the order they are made.
        let mut last = function;
        // The loop nests first, then the straight-line runs between the calls: a
        // vector read that a loop kernel re-created no longer holds a run together.
        for straight_line in [false, true] {
            let kernels = if straight_line {
                crate::straight_line_runs::straight_line_runs(block)
            } else {
                let mut loops = Vec::new();
                let mut next = block.first_operation();
                while let Some(op) = next {
                    next = op.next_in_block();
                    if op.region_count() > 0 && op.next_in_block().is_some() {
                        crate::copy_views::make_extents_run_time(context, op);
                        loops.push(vec![op]);
                    }
                }
                loops
            };
            for ops in kernels {
                let mut fresh_name = || loop {
                    let name = format!("{function_name}_kernel_{count}");
                    count += 1;
                    if taken.insert(name.clone()) {
                        return name;
                    }
                };
                let location = ops[0].location();
                match outline(context, block, &ops, &mut distinct, &mut fresh_name) {
                    Some(Outlined::New(kernel)) => last = body.insert_operation_after(last, kernel),
                    Some(Outlined::Existing) => {}
                    None => {
                        emit_error(
                            location,
                            "glow-outline-kernels: internal error: the kernel function did not build",
                        );
                        return Err(());
                    }
                }
            }
        }
        erase_unused_views(block);
    }
    Ok(())
}

/// Erases the views that only kernels used (each kernel re-created its own).
fn erase_unused_views(block: BlockRef) {
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        ops.push(op);
    }
    // Last first: a view of a view goes before the view it reads.
    for op in ops.into_iter().rev() {
        let name = op.name();
        let view = VIEWS.contains(&name.as_string_ref().as_str().unwrap_or(""));
        // SAFETY: use queries on a live op's results; an op without users is erased.
        let unused = (0..op.result_count()).all(|i| {
            op.result(i)
                .is_ok_and(|r| unsafe { mlir_sys::mlirValueGetFirstUse(r.to_raw()).ptr.is_null() })
        });
        if view && unused {
            unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
        }
    }
}

/// What outlining one op made.
enum Outlined<'c> {
    /// A new kernel function, to be inserted into the module.
    New(Operation<'c>),
    /// The op's kernel has the text of an earlier one, which the call now names.
    Existing,
}

/// Moves `group` (one op with regions, or a straight-line run whose values are used
/// only inside it; top level in `block`, in block order) into a kernel function and
/// calls it where the group's last op was.
fn outline<'c>(
    context: &'c Context,
    block: BlockRef<'c, '_>,
    group: &[OperationRef<'c, '_>],
    distinct: &mut HashMap<String, String>,
    fresh_name: &mut dyn FnMut() -> String,
) -> Option<Outlined<'c>> {
    let last = *group.last()?;
    let location = group[0].location();
    let ops: Vec<MlirOperation> = group
        .iter()
        .flat_map(|op| nested_ops(op.to_raw()))
        .collect();
    let inside = defined_inside(&ops);
    // SAFETY: a new block, owned by the kernel's region below.
    let kernel_block = unsafe { mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null()) };
    let mut kernel = Kernel {
        block: kernel_block,
        arguments: Vec::new(),
        inside: HashMap::new(),
        location: location.to_raw(),
        anchor: last.to_raw(),
    };
    let mut remaps = Vec::new();
    for &nested in &ops {
        // SAFETY: operands of live ops.
        for i in 0..unsafe { mlir_sys::mlirOperationGetNumOperands(nested) } {
            let operand = unsafe { mlir_sys::mlirOperationGetOperand(nested, i) };
            if !inside.contains(&key(operand)) {
                remaps.push((nested, i, kernel.capture(operand)));
            }
        }
    }
    // A single op returns its results; a run, its values used after it.
    let members: HashSet<usize> = ops.iter().map(|op| op.ptr as usize).collect();
    let returned: Vec<Value<'c, '_>> = if let [op] = group {
        op.results().map(Into::into).collect()
    } else {
        group
            .iter()
            .flat_map(|op| op.results())
            .filter(|result| !uses_outside((*result).into(), &members).is_empty())
            .map(Into::into)
            .collect()
    };
    let result_types: Vec<Type> = returned.iter().map(|v| v.r#type()).collect();
    let arguments: Vec<Value> = kernel
        .arguments
        .iter()
        // SAFETY: values of the live function.
        .map(|v| unsafe { Value::from_raw(*v) })
        .collect();
    let argument_types: Vec<Type> = arguments.iter().map(|v| v.r#type()).collect();
    let call = OperationBuilder::new("func.call", location)
        .add_operands(&arguments)
        .add_results(&result_types)
        .add_attributes(&[(
            Identifier::new(context, "callee"),
            FlatSymbolRefAttribute::new(context, "glow_kernel").into(),
        )])
        .build()
        .ok()?;
    let call = block.insert_operation_before(last, call);
    // SAFETY: the call's results have the returned values' types and replace their
    // uses outside the group; the ops then move into the kernel's block in order,
    // their outside operands replaced by what the kernel sees.
    unsafe {
        for (i, value) in returned.iter().enumerate() {
            let new = call.result(i).ok()?.to_raw();
            for (owner, operand) in uses_outside(*value, &members) {
                mlir_sys::mlirOperationSetOperand(owner.to_raw(), operand as isize, new);
            }
        }
        for moving in group {
            mlir_sys::mlirOperationRemoveFromParent(moving.to_raw());
            mlir_sys::mlirBlockAppendOwnedOperation(kernel_block, moving.to_raw());
        }
        for (nested, i, value) in remaps {
            mlir_sys::mlirOperationSetOperand(nested, i, value);
        }
    }
    let results = returned;
    let ret = OperationBuilder::new("func.return", location)
        .add_operands(&results)
        .build()
        .ok()?;
    // SAFETY: appending an owned op to the kernel's block.
    unsafe { mlir_sys::mlirBlockAppendOwnedOperation(kernel_block, ret.into_raw()) };
    let region = melior::ir::Region::new();
    // SAFETY: the region takes ownership of the block.
    unsafe { mlir_sys::mlirRegionAppendOwnedBlock(region.to_raw(), kernel_block) };
    let function_type = FunctionType::new(context, &argument_types, &result_types);
    let noinline: Attribute =
        ArrayAttribute::new(context, &[StringAttribute::new(context, "noinline").into()]).into();
    let function = OperationBuilder::new("func.func", location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, "glow_kernel").into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(function_type.into()).into(),
            ),
            (
                Identifier::new(context, "sym_visibility"),
                StringAttribute::new(context, "private").into(),
            ),
            (Identifier::new(context, "passthrough"), noinline),
        ])
        .add_regions([region])
        .build()
        .ok()?;
    let text = function.to_string();
    let (name, outlined) = match distinct.get(&text) {
        Some(name) => (name.clone(), Outlined::Existing),
        None => {
            let name = fresh_name();
            distinct.insert(text, name.clone());
            set_attribute(
                &function,
                "sym_name",
                StringAttribute::new(context, &name).into(),
            );
            (name, Outlined::New(function))
        }
    };
    set_attribute(
        &call,
        "callee",
        FlatSymbolRefAttribute::new(context, &name).into(),
    );
    Some(outlined)
}

/// The uses of `value` (user, operand number) by ops not in `members` (op pointers).
fn uses_outside<'c, 'a>(
    value: Value<'c, '_>,
    members: &HashSet<usize>,
) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut uses = crate::instr::buffers::direct_uses(value);
    uses.retain(|(owner, _)| !members.contains(&(owner.to_raw().ptr as usize)));
    uses
}

fn set_attribute<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str, value: Attribute<'c>) {
    // SAFETY: setting an attribute of a live op.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            op.to_raw(),
            melior::StringRef::new(name).to_raw(),
            value.to_raw(),
        )
    };
}
