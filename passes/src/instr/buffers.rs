//! What the glow.instr passes need to know about buffers in a single-block function:
//! the top-level ops in order, every use of a buffer (directly or through views of it,
//! at any loop depth) and whether a use reads it, writes it or both. Unknown ops are
//! assumed to read and write every buffer they are given, so the passes built on this
//! stay correct on IR they do not recognize (they only fire less).

use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, OperationRef, Type, Value, ValueLike,
};
use std::collections::HashMap;

/// Ops whose result is a view of (aliases) their first operand.
pub const VIEWS: &[&str] = &[
    "memref.subview",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.view",
    "memref.reshape",
    "memref.transpose",
    "glow.instr.tensorview",
];

/// How one use touches a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Only reads it.
    Read,
    /// Only writes it (what it held before is not read).
    Write,
    /// Reads and writes it, or is not known not to.
    ReadWrite,
    /// Ends its lifetime (`glow.instr.dealloc_activation`, `memref.dealloc`).
    Free,
}

impl Access {
    /// Whether the use may read the buffer.
    pub fn reads(self) -> bool {
        matches!(self, Self::Read | Self::ReadWrite)
    }

    /// Whether the use may write the buffer.
    pub fn writes(self) -> bool {
        matches!(self, Self::Write | Self::ReadWrite)
    }
}

/// One use of a buffer: the op, which operand, and how it touches the buffer.
#[derive(Clone, Copy)]
pub struct Use<'c, 'a> {
    /// The op using the buffer (or a view of it), at any depth.
    pub owner: OperationRef<'c, 'a>,
    /// The operand number.
    pub operand: usize,
    /// How it touches the buffer.
    pub access: Access,
}

pub use crate::framework::attributes::{name_of, set_attribute};

/// The ops of `block` in order, with their positions.
pub struct TopLevel<'c, 'a> {
    /// The ops, in order.
    pub ops: Vec<OperationRef<'c, 'a>>,
    positions: HashMap<usize, usize>,
}

impl<'c, 'a> TopLevel<'c, 'a> {
    /// The ops of `block`.
    pub fn new(block: BlockRef<'c, 'a>) -> Self {
        let mut ops = Vec::new();
        let mut positions = HashMap::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            positions.insert(op.to_raw().ptr as usize, ops.len());
            ops.push(op);
            next = op.next_in_block();
        }
        Self { ops, positions }
    }

    /// The position of the top-level op that is or contains `op`.
    pub fn position(&self, op: OperationRef) -> Option<usize> {
        let mut raw = op.to_raw();
        loop {
            if let Some(p) = self.positions.get(&(raw.ptr as usize)) {
                return Some(*p);
            }
            // SAFETY: walking up the parents of a live op.
            raw = unsafe { mlir_sys::mlirOperationGetParentOperation(raw) };
            if raw.ptr.is_null() {
                return None;
            }
        }
    }
}

/// The body of a function with one, or `None` for a declaration.
pub fn body<'c, 'a>(function: OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    use melior::ir::RegionLike;
    let region = function.region(0).ok()?;
    // SAFETY: the block belongs to the function's region, alive as long as it.
    region
        .first_block()
        .map(|block| unsafe { BlockRef::from_raw(block.to_raw()) })
}

/// The top-level ops of `block` that `keep` selects, in order.
pub fn top_level_ops<'c, 'a>(
    block: BlockRef<'c, 'a>,
    keep: impl Fn(OperationRef) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    TopLevel::new(block)
        .ops
        .into_iter()
        .filter(|op| keep(*op))
        .collect()
}

/// The direct uses of `value` (owner, operand number).
pub fn direct_uses<'c, 'a>(value: Value<'c, '_>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut uses = Vec::new();
    // SAFETY: iterating the uses of a live value.
    let mut usage = unsafe { mlir_sys::mlirValueGetFirstUse(value.to_raw()) };
    while !usage.ptr.is_null() {
        // SAFETY: as above.
        unsafe {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(usage));
            uses.push((
                owner,
                mlir_sys::mlirOpOperandGetOperandNumber(usage) as usize,
            ));
            usage = mlir_sys::mlirOpOperandGetNextUse(usage);
        }
    }
    uses
}

/// Every use of `buffer` and of the views of it, with the views themselves left out.
pub fn uses<'c, 'a>(buffer: Value<'c, '_>) -> Vec<Use<'c, 'a>> {
    let mut found = Vec::new();
    let mut values = vec![buffer.to_raw()];
    while let Some(raw) = values.pop() {
        // SAFETY: the values are live results of this IR.
        let value = unsafe { Value::from_raw(raw) };
        for (owner, operand) in direct_uses(value) {
            let name = name_of(owner);
            if operand == 0 && VIEWS.contains(&name.as_str()) {
                if let Ok(view) = owner.result(0) {
                    values.push(view.to_raw());
                }
                continue;
            }
            found.push(Use {
                owner,
                operand,
                access: access(owner, operand),
            });
        }
    }
    found
}

/// The sizes of the `ins` / `outs` operand segments of a linalg structured op.
pub fn linalg_segments(op: OperationRef) -> Option<(usize, usize)> {
    let segments = op.attribute("operandSegmentSizes").ok()?;
    let segments = melior::ir::attribute::DenseI32ArrayAttribute::try_from(segments).ok()?;
    Some((
        segments.element(0).ok()? as usize,
        segments.element(1).ok()? as usize,
    ))
}

/// How operand `operand` of `op` touches the buffer it is given.
pub fn access(op: OperationRef, operand: usize) -> Access {
    let name = name_of(op);
    match (name.as_str(), operand) {
        ("glow.instr.dealloc_activation" | "memref.dealloc", _) => Access::Free,
        ("memref.load" | "vector.transfer_read" | "vector.load" | "memref.dim", 0) => Access::Read,
        ("memref.store" | "vector.transfer_write" | "vector.store", 1) => Access::Write,
        ("memref.copy", 0) | ("glow.instr.copy", 1) => Access::Read,
        ("memref.copy", 1) | ("glow.instr.copy", 0) => Access::Write,
        (name, _) if name.starts_with("linalg.") => match linalg_segments(op) {
            Some((inputs, _)) if operand < inputs => Access::Read,
            Some((inputs, outputs)) if operand < inputs + outputs => {
                if linalg_init_is_read(op, operand) {
                    Access::ReadWrite
                } else {
                    Access::Write
                }
            }
            _ => Access::ReadWrite,
        },
        _ => Access::ReadWrite,
    }
}

/// Whether a linalg op reads what its init operand `operand` holds: when its payload
/// (the region every structured op carries, named ones too) uses the block argument
/// of that init; `linalg.fill` and `linalg.copy` never do.
fn linalg_init_is_read(op: OperationRef, operand: usize) -> bool {
    if matches!(name_of(op).as_str(), "linalg.fill" | "linalg.copy") {
        return false;
    }
    let Ok(region) = op.region(0) else {
        return true;
    };
    let Some(block) = melior::ir::RegionLike::first_block(&region) else {
        return true;
    };
    block
        .argument(operand)
        .map_or(true, |argument| !direct_uses(argument.into()).is_empty())
}

/// The buffer `value` is a view of (following view ops back), or `value` itself.
pub fn root<'c, 'a>(value: Value<'c, 'a>) -> Value<'c, 'a> {
    let mut value = value;
    // SAFETY: queries on live values and ops.
    unsafe {
        while mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw()));
            if !VIEWS.contains(&name_of(owner).as_str()) {
                break;
            }
            let Ok(source) = owner.operand(0) else {
                break;
            };
            value = Value::from_raw(source.to_raw());
        }
    }
    value
}

/// The op defining `value`, if it is an op result.
pub use crate::quantization::ir::producer as defining_op;

/// Whether `value` is the result of a `glow.instr.alloc_activation`.
pub fn is_activation(value: Value) -> bool {
    defining_op(value).is_some_and(|op| name_of(op) == "glow.instr.alloc_activation")
}

/// The top-level `glow.instr.dealloc_activation` ops of `buffer`.
pub fn deallocs<'c, 'a>(buffer: Value<'c, '_>) -> Vec<OperationRef<'c, 'a>> {
    direct_uses(buffer)
        .into_iter()
        .filter(|(owner, _)| name_of(*owner) == "glow.instr.dealloc_activation")
        .map(|(owner, _)| owner)
        .collect()
}

/// A `glow.instr.dealloc_activation` of `buffer`.
pub fn build_dealloc<'c>(
    buffer: Value<'c, '_>,
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    melior::ir::operation::OperationBuilder::new("glow.instr.dealloc_activation", location)
        .add_operands(&[buffer])
        .build()
        .expect("valid glow.instr.dealloc_activation")
}

/// A `glow.instr.alloc_activation` of `type`.
pub fn build_alloc<'c>(
    r#type: Type<'c>,
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    melior::ir::operation::OperationBuilder::new("glow.instr.alloc_activation", location)
        .add_results(&[r#type])
        .build()
        .expect("valid glow.instr.alloc_activation")
}

/// Moves `op` right before `anchor` (same block).
pub fn move_before(op: OperationRef, anchor: OperationRef) {
    // SAFETY: both ops are live and in the same block.
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), anchor.to_raw()) }
}

/// Moves `op` right after `anchor` (same block).
pub fn move_after(op: OperationRef, anchor: OperationRef) {
    // SAFETY: both ops are live and in the same block.
    unsafe { mlir_sys::mlirOperationMoveAfter(op.to_raw(), anchor.to_raw()) }
}

/// Erases `op` (which must have no uses left).
pub fn erase(op: OperationRef) {
    // SAFETY: the caller has removed every use of the op's results.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

/// Replaces every use of `from` with `to`.
pub fn replace_uses(from: Value, to: Value) {
    // SAFETY: both values are live and of the same type (checked by the callers).
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(from.to_raw(), to.to_raw()) }
}

/// The entry function named `name` in `module` with its single block; when there is
/// none, the located error is reported (as pass `pass`) and the pass fails.
#[allow(clippy::result_unit_err)]
pub fn entry_block<'c, 'a>(
    module: OperationRef<'c, 'a>,
    name: &str,
    pass: &str,
) -> Result<(OperationRef<'c, 'a>, BlockRef<'c, 'a>), ()> {
    use melior::ir::RegionLike;
    let fail = |location, message: &str| {
        crate::framework::emit_error(location, &format!("{pass}: {message}"));
    };
    let body = module.region(0).map_err(|_| ())?;
    let mut next = body.first_block().and_then(|b| b.first_operation());
    while let Some(op) = next {
        if name_of(op) == "func.func"
            && crate::framework::attributes::string(op, "sym_name").as_deref() == Some(name)
        {
            let region = op.region(0).map_err(|_| ())?;
            let Some(block) = region.first_block() else {
                fail(op.location(), "the entry function has no body");
                return Err(());
            };
            if block.next_in_region().is_some() {
                fail(op.location(), "the entry function has more than one block");
                return Err(());
            }
            return Ok((op, block));
        }
        next = op.next_in_block();
    }
    fail(module.location(), &format!("no function @{name}"));
    Err(())
}

/// The block holding `op`.
pub fn parent_block<'c, 'a>(op: OperationRef<'c, 'a>) -> BlockRef<'c, 'a> {
    // SAFETY: a live op in a block (every op these passes move is).
    unsafe { BlockRef::from_raw(mlir_sys::mlirOperationGetBlock(op.to_raw())) }
}
