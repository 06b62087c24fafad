//! glow.graph -> linalg on tensors, one rule per op family:
//! - constant -> arith.constant; splat -> arith.constant dense<splat>
//! - add/sub/mul/div/max/min -> linalg.add/sub/mul/div/max/min (floats, signless ints)
//! - exp/log/sqrt/rsqrt/tanh/erf/floor/ceil/neg/abs -> the linalg named unary op (floats)
//! - sigmoid -> reciprocal(1 + exp(-x)) in named ops
//! - matmul / batch_matmul -> linalg.matmul / batch_matmul into a zero-filled init
//! - transpose -> linalg.transpose; reshape -> tensor.reshape
//! - broadcast -> tensor.reshape (dropping broadcast unit dims) + linalg.broadcast
//! - batched_add -> linalg.broadcast of the slice + linalg.add
//! - reduce_sum/prod/max/min: [`super::reductions`]
//! - concat -> tensor.concat

use super::builder::{binary_operands, is_float, LinalgBuilder};
use crate::framework::dead_weights::erase_dead_weights;
use crate::{
    framework::Rule, graph_optimize::compose_transposes::permutation,
    lower_nodes::builder::tensor_info,
};
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        Attribute, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Integers of any signedness (glow-graph-to-linalg makes them signless at the end).
pub(super) fn is_int(element: Type) -> bool {
    IntegerType::try_from(element).is_ok()
}

pub(super) fn is_unsigned(element: Type) -> bool {
    IntegerType::try_from(element).is_ok_and(|t| t.is_unsigned())
}

/// The zero of `element` as an attribute.
fn zero<'c>(context: &'c Context, element: Type<'c>) -> Attribute<'c> {
    if is_float(element) {
        FloatAttribute::new(context, element, 0.0).into()
    } else {
        IntegerAttribute::new(element, 0).into()
    }
}

rule!(CONSTANT, "glow.graph.constant", |context, op, rewriter| {
    let (Ok(value), Ok(result)) = (op.attribute("value"), op.result(0)) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.constant(value, result.r#type());
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(SPLAT, "glow.graph.splat", |context, op, rewriter| {
    let (Ok(value), Ok(result)) = (op.attribute("value"), op.result(0)) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.splat(result.r#type(), value);
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

/// A binary elementwise op as the linalg named op `name` (floats, integers); on
/// unsigned integers, a linalg.generic with the unsigned arith op (`divui`, `maxui`,
/// `minui`: the named ops are signed).
fn binary<'c>(
    name: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((lhs, rhs, shape, element)) = binary_operands(op) else {
        return false;
    };
    if !is_unsigned(element) {
        return two_operand_named_op(name, false, context, op, rewriter);
    }
    let arith = match name {
        "linalg.add" => "arith.addi",
        "linalg.sub" => "arith.subi",
        "linalg.mul" => "arith.muli",
        "linalg.div" => "arith.divui",
        "linalg.max" => "arith.maxui",
        "linalg.min" => "arith.minui",
        _ => return false,
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[lhs, rhs], &shape, element, |body, args| {
        body.op(arith, &args[..2], element, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

/// `name` on the op's two operands (floats, signless ints), into an empty init or, for
/// contractions that accumulate, a zero-filled one.
fn two_operand_named_op<'c>(
    name: &str,
    zero_init: bool,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(lhs), Ok(rhs), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let Some((_, element)) = tensor_info(lhs) else {
        return false;
    };
    if !is_float(element) && !is_int(element) {
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = if zero_init {
        b.zeros(result.r#type(), zero(context, element))
    } else {
        b.empty(result.r#type())
    };
    let converted = b.named(name, &[lhs, rhs], init, result.r#type(), &[]);
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

/// A unary float op as the linalg named op `name`.
fn unary<'c>(
    name: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some((_, element)) = tensor_info(input) else {
        return false;
    };
    if !is_float(element) {
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.empty(result.r#type());
    let converted = b.named(name, &[input], init, result.r#type(), &[]);
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

rule!(ADD, "glow.graph.add", |c, o, r| binary(
    "linalg.add",
    c,
    o,
    r
));
rule!(SUB, "glow.graph.sub", |c, o, r| binary(
    "linalg.sub",
    c,
    o,
    r
));
rule!(MUL, "glow.graph.mul", |c, o, r| binary(
    "linalg.mul",
    c,
    o,
    r
));
rule!(DIV, "glow.graph.div", |c, o, r| {
    if o.has_attribute(crate::lower_nodes::softmax::SOFTMAX_NORMALIZE) {
        return reciprocal_product(c, o, r);
    }
    binary("linalg.div", c, o, r)
});

/// A softmax's exponentials over their row sum (same shapes, the sum broadcast) as
/// `x * (1 / s)`: the reciprocal depends on the sum alone, so once vectorized it is
/// hoisted out of the row's loop (see lower_nodes::softmax::SOFTMAX_NORMALIZE).
fn reciprocal_product<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(x), Ok(sum)) = (op.operand(0), op.operand(1)) else {
        return false;
    };
    let (Some((shape, element)), Some((sum_shape, _))) = (tensor_info(x), tensor_info(sum)) else {
        return false;
    };
    // f32 only: in bf16 or f16 the rounded reciprocal costs an ulp of the narrow type
    // (0.004 in bf16, beyond the ONNX tests' tolerance), so those divide.
    if !element.is_f32() || sum_shape != shape {
        return binary("linalg.div", context, op, rewriter);
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[x, sum], &shape, element, |body, args| {
        let one = body.value(
            "arith.constant",
            &[],
            element,
            &[("value", &format!("1.0 : {element}"))],
        );
        let reciprocal = body.value("arith.divf", &[one, args[1]], element, &[]);
        body.op("arith.mulf", &[args[0], reciprocal], element, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}
rule!(MAX, "glow.graph.max", |c, o, r| binary(
    "linalg.max",
    c,
    o,
    r
));
rule!(MIN, "glow.graph.min", |c, o, r| binary(
    "linalg.min",
    c,
    o,
    r
));
rule!(EXP, "glow.graph.exp", |c, o, r| unary(
    "linalg.exp",
    c,
    o,
    r
));
rule!(LOG, "glow.graph.log", |c, o, r| unary(
    "linalg.log",
    c,
    o,
    r
));
rule!(SQRT, "glow.graph.sqrt", |c, o, r| unary(
    "linalg.sqrt",
    c,
    o,
    r
));
rule!(RSQRT, "glow.graph.rsqrt", |c, o, r| unary(
    "linalg.rsqrt",
    c,
    o,
    r
));
rule!(TANH, "glow.graph.tanh", |c, o, r| unary(
    "linalg.tanh",
    c,
    o,
    r
));
rule!(ERF, "glow.graph.erf", |c, o, r| unary(
    "linalg.erf",
    c,
    o,
    r
));
rule!(FLOOR, "glow.graph.floor", |c, o, r| unary(
    "linalg.floor",
    c,
    o,
    r
));
rule!(CEIL, "glow.graph.ceil", |c, o, r| unary(
    "linalg.ceil",
    c,
    o,
    r
));
rule!(NEG, "glow.graph.neg", |c, o, r| unary(
    "linalg.negf",
    c,
    o,
    r
) || integer_unary(
    "neg", c, o, r
));
rule!(ABS, "glow.graph.abs", |c, o, r| unary(
    "linalg.abs",
    c,
    o,
    r
) || integer_unary(
    "abs", c, o, r
));

/// neg / abs on signed integers: 0 - x, math.absi.
fn integer_unary<'c>(
    kind: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, element)) = tensor_info(x) else {
        return false;
    };
    if !is_int(element) || is_unsigned(element) {
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[x], &shape, element, |body, args| match kind {
        "abs" => body.op("math.absi", &args[..1], element, &[]),
        _ => {
            let zero = body.value(
                "arith.constant",
                &[],
                element,
                &[("value", &format!("0 : {element}"))],
            );
            body.op("arith.subi", &[zero, args[0]], element, &[])
        }
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

rule!(ROUND, "glow.graph.round", |context, op, rewriter| {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, element)) = tensor_info(x) else {
        return false;
    };
    if !is_float(element) {
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    // ONNX Round: halves to even.
    let converted = b.elementwise(&[x], &shape, element, |body, args| {
        body.op("math.roundeven", &args[..1], element, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(SIGMOID, "glow.graph.sigmoid", |context, op, rewriter| {
    let (Ok(x), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some((_, element)) = tensor_info(x) else {
        return false;
    };
    if !is_float(element) {
        return false;
    }
    let t = result.r#type();
    let b = LinalgBuilder::before(context, op, rewriter);
    let negated = b.named("linalg.negf", &[x], b.empty(t), t, &[]);
    let exps = b.named("linalg.exp", &[negated], b.empty(t), t, &[]);
    let one = b.splat(t, FloatAttribute::new(context, element, 1.0).into());
    let denominator = b.named("linalg.add", &[exps, one], b.empty(t), t, &[]);
    let converted = b.named("linalg.reciprocal", &[denominator], b.empty(t), t, &[]);
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

/// matmul / batch_matmul into a zero-filled accumulator.
fn contraction<'c>(
    name: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    // Half precision accumulates in f32 (half_precision.rs).
    if op
        .result(0)
        .ok()
        .and_then(|r| tensor_info(r.into()))
        .is_some_and(|(_, e)| super::half_precision::is_half(e))
    {
        return false;
    }
    two_operand_named_op(name, true, context, op, rewriter)
}

rule!(MATMUL, "glow.graph.matmul", |c, o, r| {
    super::padded_contraction::padded_contraction(c, o, r, zero(c, Type::float32(c)))
        || contraction("linalg.matmul", c, o, r)
});
rule!(BATCH_MATMUL, "glow.graph.batch_matmul", |c, o, r| {
    super::padded_contraction::padded_contraction(c, o, r, zero(c, Type::float32(c)))
        || contraction("linalg.batch_matmul", c, o, r)
});

rule!(
    TRANSPOSE,
    "glow.graph.transpose",
    |context, op, rewriter| {
        let (Ok(input), Some(perm)) = (op.operand(0), permutation(op)) else {
            return false;
        };
        let b = LinalgBuilder::before(context, op, rewriter);
        // A constant (a fully-connected layer's weights) is relaid out at compile time,
        // not on every run.
        let converted = b.transpose(input, &perm);
        rewriter.replace_op_with_values(op, &[converted]);
        erase_dead_weights(rewriter, &[input]);
        true
    }
);

rule!(RESHAPE, "glow.graph.reshape", |context, op, rewriter| {
    let (Ok(input), Ok(result)) = (op.operand(0), op.operand(0).and(op.result(0))) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(result.into()) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.reshape(input, &shape, element);
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

/// `input` (dimension i at output dimension `axis` + i, size 1 or equal) repeated to
/// `shape`: unit dimensions that broadcast are dropped with tensor.reshape, then
/// linalg.broadcast adds every missing dimension.
fn broadcast_value<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    input: Value<'c, '_>,
    axis: usize,
    shape: &[i64],
) -> Option<Value<'c, 'r>> {
    let (input_shape, element) = tensor_info(input)?;
    let kept: Vec<usize> = (0..input_shape.len())
        .filter(|i| input_shape[*i] == shape[axis + i])
        .collect();
    let kept_shape: Vec<i64> = kept.iter().map(|i| input_shape[*i]).collect();
    let source = if kept.len() == input_shape.len() {
        // SAFETY: the value belongs to the IR being rewritten, which outlives the
        // rewrite; only the borrow's lifetime parameter changes.
        unsafe { Value::from_raw(input.to_raw()) }
    } else {
        b.reshape(input, &kept_shape, element)
    };
    let covered: Vec<usize> = kept.iter().map(|i| axis + i).collect();
    let added: Vec<i64> = (0..shape.len())
        .filter(|d| !covered.contains(d))
        .map(|d| d as i64)
        .collect();
    let result = b.tensor(shape, element);
    if added.is_empty() {
        return Some(source);
    }
    let init = b.empty(result);
    Some(b.named(
        "linalg.broadcast",
        &[source],
        init,
        result,
        &[("dimensions", b.array(&added))],
    ))
}

rule!(
    BROADCAST,
    "glow.graph.broadcast",
    |context, op, rewriter| {
        let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
            return false;
        };
        let Some((shape, _)) = tensor_info(result.into()) else {
            return false;
        };
        let Some(axis) = op
            .attribute("axis")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
        else {
            return false;
        };
        let b = LinalgBuilder::before(context, op, rewriter);
        let Some(converted) = broadcast_value(&b, input, axis.value() as usize, &shape) else {
            return false;
        };
        rewriter.replace_op_with_values(op, &[converted]);
        true
    }
);

rule!(
    BATCHED_ADD,
    "glow.graph.batched_add",
    |context, op, rewriter| {
        let (Ok(batch), Ok(slice), Ok(result)) = (op.operand(0), op.operand(1), op.result(0))
        else {
            return false;
        };
        let Some((shape, element)) = tensor_info(batch) else {
            return false;
        };
        if !is_float(element) && !is_int(element) {
            return false;
        }
        let b = LinalgBuilder::before(context, op, rewriter);
        let Some(wide) = broadcast_value(&b, slice, 1, &shape) else {
            return false;
        };
        let init = b.empty(result.r#type());
        let converted = b.named("linalg.add", &[batch, wide], init, result.r#type(), &[]);
        rewriter.replace_op_with_values(op, &[converted]);
        true
    }
);

rule!(CONCAT, "glow.graph.concat", |context, op, rewriter| {
    let (Ok(dim), Ok(result)) = (op.attribute("dim"), op.result(0)) else {
        return false;
    };
    let inputs: Vec<Value> = op.operands().collect();
    rewriter.set_insertion_point_before(op);
    let Ok(concat) = melior::ir::operation::OperationBuilder::new("tensor.concat", op.location())
        .add_operands(&inputs)
        .add_attributes(&[(melior::ir::Identifier::new(context, "dim"), dim)])
        .add_results(&[result.r#type()])
        .build()
    else {
        return false;
    };
    let concat = rewriter.insert(concat);
    let Ok(value) = concat.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value.into()]);
    true
});

/// Every conversion rule.
pub const RULES: &[&Rule] = &[
    &super::reductions::REDUCE_SUM,
    &super::reductions::REDUCE_PROD,
    &super::reductions::REDUCE_MAX,
    &super::reductions::REDUCE_MIN,
    &CONCAT,
    &CONSTANT,
    &SPLAT,
    &ADD,
    &SUB,
    &MUL,
    &DIV,
    &MAX,
    &MIN,
    &EXP,
    &LOG,
    &SQRT,
    &RSQRT,
    &TANH,
    &ERF,
    &FLOOR,
    &CEIL,
    &NEG,
    &ABS,
    &ROUND,
    &SIGMOID,
    &MATMUL,
    &BATCH_MATMUL,
    &TRANSPOSE,
    &RESHAPE,
    &BROADCAST,
    &BATCHED_ADD,
];
