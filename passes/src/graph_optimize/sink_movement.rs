//! Data movement sinks below elementwise ops (Glow's transpose sinking, and the same
//! for reshapes), so movements meet and cancel ([`super::compose_transposes`], the
//! reshape folder):
//! - op(transpose(x)) -> transpose(op(x)) for unary elementwise ops whose transpose has
//!   no other user, or only users it sinks below too; op(transpose(x, p), transpose(y, p)) -> transpose(op(x, y), p) for
//!   binary elementwise ops, comparisons and select (three operands) alike — ReLU and
//!   its kin are lowered to cmp + select before the channels-last layout adds its
//!   transposes, which must sink through them to cancel
//! - the same for reshape: op(reshape(x)) -> reshape(op(x)), and
//!   op(reshape(x), reshape(y)) -> reshape(op(x, y)) when x and y have one type
//!
//! A splat operand counts as moved (it is re-made in the source shape). The same
//! rules apply to glow.quant's shape-preserving ops (add, mul, quantize, dequantize,
//! rescale, lookup_table), whose result keeps its own element type (per-tensor
//! quantized only: a per-axis type's axis would move).

use super::{
    compose_transposes::{defining_op, has_one_use, permutation},
    layout_free_operands::{is_layout_free, remake, Layout},
};
use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, Type, TypeLike,
        Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Which data movement a rule sinks.
#[derive(Clone, Copy)]
enum Kind {
    Transpose,
    Reshape,
}

/// One movement: a transpose by its permutation, or a reshape to its result type.
#[derive(PartialEq)]
enum Movement<'c> {
    Transpose(Vec<i64>),
    Reshape(Type<'c>),
}

/// The movement of `kind` that produced `value`, and its source.
fn moved_from<'c, 'a>(value: Value<'c, 'a>, kind: Kind) -> Option<(Movement<'c>, Value<'c, 'a>)> {
    match kind {
        Kind::Transpose => {
            let transpose = defining_op(value, "glow.graph.transpose")?;
            let source = transpose.operand(0).ok()?;
            // SAFETY: the source lives in the same IR as `value`.
            let source = unsafe { Value::from_raw(source.to_raw()) };
            Some((Movement::Transpose(permutation(transpose)?), source))
        }
        Kind::Reshape => {
            let reshape = defining_op(value, "glow.graph.reshape")?;
            let source = reshape.operand(0).ok()?;
            // SAFETY: as above.
            let source = unsafe { Value::from_raw(source.to_raw()) };
            Some((Movement::Reshape(value.r#type()), source))
        }
    }
}

macro_rules! sink_rules {
    (
        $list:ident, $kind:expr, $what:literal,
        unary: { $($unary:ident => $unary_root:literal),* $(,)? }
        binary: { $($binary:ident => $binary_root:literal),* $(,)? }
    ) => {
        $(
            #[doc = concat!("Sinks a ", $what, " below `", $unary_root, "`.")]
            pub static $unary: Rule = Rule {
                root: $unary_root,
                generates: &["glow.graph.transpose", "glow.graph.reshape", $unary_root],
                rewrite: |c, o, r| rewrite($kind, c, o, r),
            };
        )*
        $(
            #[doc = concat!("Sinks equal ", $what, "s of both operands below `", $binary_root, "`.")]
            pub static $binary: Rule = Rule {
                root: $binary_root,
                generates: &["glow.graph.transpose", "glow.graph.reshape", $binary_root],
                rewrite: |c, o, r| rewrite_binary($kind, c, o, r),
            };
        )*
        #[doc = concat!("One rule per unary and per binary elementwise op, sinking ", $what, "s.")]
        pub const $list: &[&Rule] = &[$(&$unary,)* $(&$binary),*];
    };
}

sink_rules! {
    SINK_RULES, Kind::Transpose, "transpose",
    unary: {
        SINK_TRANSPOSE_BELOW_RELU => "glow.graph.relu",
        SINK_TRANSPOSE_BELOW_SIGMOID => "glow.graph.sigmoid",
        SINK_TRANSPOSE_BELOW_TANH => "glow.graph.tanh",
        SINK_TRANSPOSE_BELOW_SQRT => "glow.graph.sqrt",
        SINK_TRANSPOSE_BELOW_EXP => "glow.graph.exp",
        SINK_TRANSPOSE_BELOW_LOG => "glow.graph.log",
        SINK_TRANSPOSE_BELOW_ERF => "glow.graph.erf",
        SINK_TRANSPOSE_BELOW_NEG => "glow.graph.neg",
        SINK_TRANSPOSE_BELOW_ABS => "glow.graph.abs",
        SINK_TRANSPOSE_BELOW_GELU => "glow.graph.gelu",
        SINK_TRANSPOSE_BELOW_LEAKY_RELU => "glow.graph.leaky_relu",
        SINK_TRANSPOSE_BELOW_CLIP => "glow.graph.clip",
        SINK_TRANSPOSE_BELOW_QUANTIZE => "glow.quant.quantize",
        SINK_TRANSPOSE_BELOW_DEQUANTIZE => "glow.quant.dequantize",
        SINK_TRANSPOSE_BELOW_RESCALE => "glow.quant.rescale",
        SINK_TRANSPOSE_BELOW_LOOKUP_TABLE => "glow.quant.lookup_table",
        SINK_TRANSPOSE_BELOW_CONVERT => "glow.graph.convert",
        SINK_TRANSPOSE_BELOW_ROUND => "glow.graph.round",
        SINK_TRANSPOSE_BELOW_FLOOR => "glow.graph.floor",
        SINK_TRANSPOSE_BELOW_CEIL => "glow.graph.ceil",
        SINK_TRANSPOSE_BELOW_RSQRT => "glow.graph.rsqrt",
        SINK_TRANSPOSE_BELOW_HARD_SWISH => "glow.graph.hard_swish",
        SINK_TRANSPOSE_BELOW_HARD_SIGMOID => "glow.graph.hard_sigmoid",
        SINK_TRANSPOSE_BELOW_STORAGE_CAST => "quant.scast",
        SINK_TRANSPOSE_BELOW_BITCAST => "tensor.bitcast",
    }
    binary: {
        SINK_TRANSPOSES_BELOW_QUANT_ADD => "glow.quant.add",
        SINK_TRANSPOSES_BELOW_QUANT_MUL => "glow.quant.mul",
        SINK_TRANSPOSES_BELOW_ADD => "glow.graph.add",
        SINK_TRANSPOSES_BELOW_SUB => "glow.graph.sub",
        SINK_TRANSPOSES_BELOW_MUL => "glow.graph.mul",
        SINK_TRANSPOSES_BELOW_DIV => "glow.graph.div",
        SINK_TRANSPOSES_BELOW_MAX => "glow.graph.max",
        SINK_TRANSPOSES_BELOW_MIN => "glow.graph.min",
        SINK_TRANSPOSES_BELOW_CMP_EQ => "glow.graph.cmp_eq",
        SINK_TRANSPOSES_BELOW_CMP_NEQ => "glow.graph.cmp_neq",
        SINK_TRANSPOSES_BELOW_CMP_LT => "glow.graph.cmp_lt",
        SINK_TRANSPOSES_BELOW_CMP_LTE => "glow.graph.cmp_lte",
        SINK_TRANSPOSES_BELOW_SELECT => "glow.graph.select",
    }
}

sink_rules! {
    SINK_RESHAPE_RULES, Kind::Reshape, "reshape",
    unary: {
        SINK_RESHAPE_BELOW_RELU => "glow.graph.relu",
        SINK_RESHAPE_BELOW_SIGMOID => "glow.graph.sigmoid",
        SINK_RESHAPE_BELOW_TANH => "glow.graph.tanh",
        SINK_RESHAPE_BELOW_SQRT => "glow.graph.sqrt",
        SINK_RESHAPE_BELOW_EXP => "glow.graph.exp",
        SINK_RESHAPE_BELOW_LOG => "glow.graph.log",
        SINK_RESHAPE_BELOW_ERF => "glow.graph.erf",
        SINK_RESHAPE_BELOW_NEG => "glow.graph.neg",
        SINK_RESHAPE_BELOW_ABS => "glow.graph.abs",
        SINK_RESHAPE_BELOW_GELU => "glow.graph.gelu",
        SINK_RESHAPE_BELOW_LEAKY_RELU => "glow.graph.leaky_relu",
        SINK_RESHAPE_BELOW_CLIP => "glow.graph.clip",
    }
    binary: {
        SINK_RESHAPES_BELOW_ADD => "glow.graph.add",
        SINK_RESHAPES_BELOW_SUB => "glow.graph.sub",
        SINK_RESHAPES_BELOW_MUL => "glow.graph.mul",
        SINK_RESHAPES_BELOW_DIV => "glow.graph.div",
        SINK_RESHAPES_BELOW_MAX => "glow.graph.max",
        SINK_RESHAPES_BELOW_MIN => "glow.graph.min",
    }
}

fn rewrite<'c>(
    kind: Kind,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(input) = op.operand(0) else {
        return false;
    };
    let Some((movement, source)) = moved_from(input, kind) else {
        return false;
    };
    if !(has_one_use(input) || users_all_sink(input, kind)) || per_axis_quantized(op) {
        return false;
    }
    let Some(r#type) = shaped_like(source, op) else {
        return false;
    };
    rewriter.set_insertion_point_before(op);
    // The op on the unmoved value: same attributes, the source's type.
    let moved = rewriter.clone_op(op);
    // SAFETY: the clone is alive and has operand 0; `source` dominates it.
    unsafe { mlir_sys::mlirOperationSetOperand(moved.to_raw(), 0, source.to_raw()) };
    // The source's shape, the op's result element type.
    move_result(context, op, moved, r#type, &movement, rewriter)
}

/// Whether the transpose `value` sinks below every one of its users: elementwise ops
/// whose operands are all transposes, splats, or values computed from `value` itself
/// by such ops (which it sinks below first). Then sinking it below one of them
/// duplicates nothing, as the others take it too and the original transpose dies
/// (SiLU's `mul(t, sigmoid(t))` of one transpose `t`; a quantized HardSwish's
/// `mul(t, quantize(max(min(add(mul(dequantize(t), 1/6), 1/2), 1), 0)))`). A transpose
/// with any other user (a convolution, an add with an untransposed operand) sinks
/// only when it has one user. Reshapes, which cost nothing, keep to one user.
fn users_all_sink(value: Value, kind: Kind) -> bool {
    if matches!(kind, Kind::Reshape) {
        return false;
    }
    let Some((own, _)) = moved_from(value, kind) else {
        return false;
    };
    crate::quantization::ir::users(value).iter().all(|user| {
        let name = crate::framework::attributes::name_of(*user);
        SINK_RULES.iter().any(|rule| rule.root == name)
            && (0..user.operand_count()).all(|i| {
                crate::quantization::ir::operand(*user, i).is_some_and(|operand| {
                    moved_from(operand, kind).is_some_and(|(movement, _)| movement == own)
                        || defining_op(operand, "glow.graph.splat").is_some()
                        || computed_from(operand, value, CHAIN_DEPTH)
                })
            })
    })
}

/// How many elementwise ops deep [`computed_from`] looks (a quantized HardSwish's
/// chain is 6).
const CHAIN_DEPTH: usize = 8;

/// Whether `operand` is made from `value` by a chain of at most `depth` elementwise
/// ops the transposes sink below, each of whose operands is `value`, a splat or such a
/// chain's value, and each of whose results has one user (so that sinking along the
/// chain moves the transpose rather than copying it).
fn computed_from(operand: Value, value: Value, depth: usize) -> bool {
    if depth == 0 || !has_one_use(operand) {
        return false;
    }
    crate::quantization::ir::producer(operand).is_some_and(|op| {
        let name = crate::framework::attributes::name_of(op);
        let operands: Vec<Value> = (0..op.operand_count())
            .filter_map(|i| crate::quantization::ir::operand(op, i))
            .collect();
        let reaches = |o: &Value| *o == value || computed_from(*o, value, depth - 1);
        SINK_RULES.iter().any(|rule| rule.root == name)
            && operands.len() == op.operand_count()
            && operands.iter().any(reaches)
            && operands
                .iter()
                .all(|o| reaches(o) || defining_op(*o, "glow.graph.splat").is_some())
    })
}

/// A tensor type of `source`'s shape and `op`'s result element type.
fn shaped_like<'c>(source: Value<'c, '_>, op: OperationRef<'c, '_>) -> Option<Type<'c>> {
    use crate::lower_nodes::builder::tensor_info;
    let (shape, _) = tensor_info(source)?;
    let (_, element) = tensor_info(op.result(0).ok()?.into())?;
    let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
    Some(melior::ir::r#type::RankedTensorType::new(&dims, element, None).into())
}

/// Whether any operand or result of `op` is quantized per axis.
pub(crate) fn per_axis_quantized(op: OperationRef) -> bool {
    use crate::lower_nodes::builder::tensor_info;
    let values = (0..op.operand_count())
        .filter_map(|i| op.operand(i).ok())
        .chain((0..op.result_count()).filter_map(|i| op.result(i).ok().map(Into::into)));
    values
        .filter_map(|v| tensor_info(v))
        .filter_map(|(_, element)| glow_dialects::quant_types::uniform(element))
        .any(|q| q.axis.is_some())
}

/// Gives the moved (cloned, re-operanded) op's result `type`, applies `movement` to
/// it and replaces `op` with that.
fn move_result<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    moved: OperationRef<'c, '_>,
    r#type: Type<'c>,
    movement: &Movement<'c>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(moved_result) = moved.result(0) else {
        return false;
    };
    // SAFETY: the value belongs to the op just cloned, whose operands now have `type`'s
    // shape; elementwise ops keep their operands' type.
    unsafe { mlir_sys::mlirValueSetType(moved_result.to_raw(), r#type.to_raw()) };
    let movement = match movement {
        Movement::Transpose(perm) => glow_graph::transpose(
            context,
            moved_result.into(),
            DenseI64ArrayAttribute::new(context, perm).into(),
            op.location(),
        )
        .into(),
        Movement::Reshape(to) => {
            glow_graph::reshape(context, *to, moved_result.into(), op.location()).into()
        }
    };
    let Ok(result) = rewriter.insert(movement).result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[result.into()]);
    true
}

/// op(move(x), move(y), ...) -> move(op(x, y, ...)), for operands of one shape moved
/// the same way from sources of one shape; a splat operand counts as moved (it is
/// re-made in the source shape). The operand movements may have other users: they stay
/// for those (and usually cancel against a later movement there), so no work is
/// duplicated.
fn rewrite_binary<'c>(
    kind: Kind,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    use crate::lower_nodes::builder::tensor_info;
    let operands: Vec<Value> = (0..op.operand_count())
        .filter_map(|i| op.operand(i).ok())
        .collect();
    let shape = |v: Value| tensor_info(v).map(|(shape, _)| shape);
    if operands.len() < 2
        || operands.iter().any(|v| shape(*v) != shape(operands[0]))
        || per_axis_quantized(op)
    {
        return false;
    }
    let moves: Vec<_> = operands
        .iter()
        .filter_map(|v| moved_from(*v, kind))
        .collect();
    let Some((movement, source)) = moves.first() else {
        return false;
    };
    if moves
        .iter()
        .any(|(m, x)| m != movement || shape(*x) != shape(*source))
    {
        return false;
    }
    let (movement, source) = (movement, *source);
    let Some(result_type) = shaped_like(source, op) else {
        return false;
    };
    let Some(source_shape) = shape(source) else {
        return false;
    };
    let layout = match movement {
        Movement::Transpose(perm) => Layout::Transpose(perm),
        Movement::Reshape(_) => Layout::Reshape(&source_shape),
    };
    // Every operand must be moved or layout-free before anything is built.
    if operands
        .iter()
        .any(|v| moved_from(*v, kind).is_none() && !is_layout_free(*v, &layout))
    {
        return false;
    }
    rewriter.set_insertion_point_before(op);
    let mut sources = Vec::new();
    for value in &operands {
        if let Some((_, source)) = moved_from(*value, kind) {
            sources.push(source.to_raw());
        } else {
            let Some(remade) = remake(
                context,
                rewriter,
                *value,
                &layout,
                &source_shape,
                op.location(),
            ) else {
                return false;
            };
            sources.push(remade);
        }
    }
    let moved = rewriter.clone_op(op);
    for (i, source) in sources.iter().enumerate() {
        // SAFETY: the clone is alive and has these operands; the sources dominate it.
        unsafe { mlir_sys::mlirOperationSetOperand(moved.to_raw(), i as isize, *source) };
    }
    move_result(context, op, moved, result_type, movement, rewriter)
}
