//! `glow-byte-bools` (on the LLVM dialect, last in the CPU pipeline): vector loads and
//! stores of booleans read and write one byte per element, as every other access to
//! an `i1` buffer does.
//!
//! A memref of `i1` keeps one byte per element (LLVM's store size of i1: the runtime's
//! bool tensors, numpy's, scalar loads and stores all agree), but LLVM lays a
//! `<16 x i1>` out as 16 bits, so a vectorized `llvm.load` of 16 booleans read 2
//! bytes and took their bits: an attention mask of all-true bytes came back true only
//! at lanes 0 and 8 (DeBERTa's masked softmax, 0.29 off onnxruntime). Each such
//! access becomes its byte form: `llvm.load` of `vector<N x i8>` + `llvm.icmp ne 0`,
//! `llvm.zext` to `vector<N x i8>` + `llvm.store`, and the same for masked loads and
//! stores (the mask operand stays `i1`: it is a register, never memory).

use crate::framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule};
use crate::quantization::ir::{operand, result, vector_type, Emitter};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
        Attribute, Identifier, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The pass definition registered as `glow-byte-bools`.
pub static BYTE_BOOLS: PassDefinition = PassDefinition {
    argument: "glow-byte-bools",
    description: "Make LLVM vector loads and stores of i1 elements access one byte per element",
    anchor: None,
    options: &[],
    dependent_dialects: || vec![DialectHandle::llvm()],
    validate: |_: &PassOptions| Ok(()),
    run,
};

static LOAD: Rule = Rule {
    root: "llvm.load",
    generates: &["llvm.load", "llvm.icmp", "llvm.mlir.zero"],
    rewrite: |c, o, r| widen_read(c, o, r, None),
};
static MASKED_LOAD: Rule = Rule {
    root: "llvm.intr.masked.load",
    generates: &[
        "llvm.intr.masked.load",
        "llvm.icmp",
        "llvm.mlir.zero",
        "llvm.zext",
    ],
    // The pass-through value (operand 2) is data too.
    rewrite: |c, o, r| widen_read(c, o, r, Some(2)),
};
static STORE: Rule = Rule {
    root: "llvm.store",
    generates: &["llvm.store", "llvm.zext"],
    rewrite: |c, o, r| widen_write(c, o, r, 0),
};
static MASKED_STORE: Rule = Rule {
    root: "llvm.intr.masked.store",
    generates: &["llvm.intr.masked.store", "llvm.zext"],
    rewrite: |c, o, r| widen_write(c, o, r, 0),
};

/// The length of a fixed `vector<N x i1>` type.
fn bool_vector_length(r#type: Type) -> Option<i64> {
    // SAFETY: type queries on a valid type; the shape only of a vector.
    unsafe {
        let raw = r#type.to_raw();
        if !mlir_sys::mlirTypeIsAVector(raw)
            || mlir_sys::mlirVectorTypeIsScalable(raw)
            || mlir_sys::mlirShapedTypeGetRank(raw) != 1
        {
            return None;
        }
        let element = Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw));
        IntegerType::try_from(element)
            .ok()
            .filter(|t| t.width() == 1)
            .map(|_| mlir_sys::mlirShapedTypeGetDimSize(raw, 0))
    }
}

/// `op` rebuilt with `operands` and `results`, keeping its attributes.
fn rebuilt<'c>(
    op: OperationRef<'c, '_>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
) -> melior::ir::Operation<'c> {
    let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
    let name = op
        .name()
        .as_string_ref()
        .as_str()
        .unwrap_or_default()
        .to_string();
    OperationBuilder::new(&name, op.location())
        .add_operands(operands)
        .add_attributes(&attributes)
        .add_results(results)
        .build()
        .unwrap_or_else(|error| panic!("cannot rebuild {name}: {error}"))
}

/// `vector<N x i1>` values as `vector<N x i8>` 0 / 1.
fn to_bytes<'c, 'r>(e: &Emitter<'c, 'r, '_>, value: Value<'c, '_>, length: i64) -> Value<'c, 'r> {
    let bytes = vector_type(&[length], IntegerType::new(e.context, 8).into());
    e.op("llvm.zext", &[value], &[], bytes)
}

fn widen_read<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    pass_through: Option<usize>,
) -> bool {
    let Some(loaded) = result(op, 0) else {
        return false;
    };
    let Some(length) = bool_vector_length(loaded.r#type()) else {
        return false;
    };
    let e = Emitter::before(context, op, rewriter);
    let bytes = vector_type(&[length], IntegerType::new(context, 8).into());
    let mut operands: Vec<Value> = (0..op.operand_count())
        .filter_map(|i| operand(op, i))
        .collect();
    if let Some(i) = pass_through.filter(|i| *i < operands.len()) {
        operands[i] = to_bytes(&e, operands[i], length);
    }
    let read: Value = rewriter
        .insert(rebuilt(op, &operands, &[bytes]))
        .result(0)
        .expect("one result")
        .into();
    let zero = e.op("llvm.mlir.zero", &[], &[], bytes);
    let not_equal = Attribute::parse(context, "1 : i64").expect("icmp ne");
    let bools = e.op(
        "llvm.icmp",
        &[read, zero],
        &[("predicate", not_equal)],
        loaded.r#type(),
    );
    rewriter.replace_op_with_values(op, &[bools]);
    true
}

fn widen_write<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
    data: usize,
) -> bool {
    let Some(value) = operand(op, data) else {
        return false;
    };
    let Some(length) = bool_vector_length(value.r#type()) else {
        return false;
    };
    let e = Emitter::before(context, op, rewriter);
    let mut operands: Vec<Value> = (0..op.operand_count())
        .filter_map(|i| operand(op, i))
        .collect();
    operands[data] = to_bytes(&e, value, length);
    rewriter.insert(rebuilt(op, &operands, &[]));
    rewriter.erase_op(op);
    true
}

/// Whether any of the accesses this pass rewrites is in `op` (most modules have none;
/// the rewrite driver would otherwise fold its way through the whole LLVM module).
fn has_bool_vector_access(op: OperationRef) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |nested| {
        let name = nested.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        let data = match name {
            "llvm.load" | "llvm.intr.masked.load" => result(nested, 0),
            "llvm.store" | "llvm.intr.masked.store" => operand(nested, 0),
            _ => None,
        };
        if data.is_some_and(|v| bool_vector_length(v.r#type()).is_some()) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    if !has_bool_vector_access(op) {
        return Ok(());
    }
    apply_rules(op, &[&LOAD, &MASKED_LOAD, &STORE, &MASKED_STORE]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-byte-bools: the rewrite did not converge",
        );
    })
}
