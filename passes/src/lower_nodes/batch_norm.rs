//! batch_norm(x, scale, bias, mean, var) in inference form ->
//!   k     = scale / sqrt(var + splat(epsilon))
//!   shift = bias - mean * k
//!   y     = x * broadcast(k) + broadcast(shift)
//! (Glow's lowerBatchNormalizationNode). The per-channel arithmetic is on 1-D tensors,
//! so with constant statistics it folds away and only one mul and one add per element
//! remain.

use crate::framework::Rule;
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::{IntegerType, RankedTensorType, ShapedTypeLike},
        Attribute, Location, OperationRef, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The rule lowering `glow.graph.batch_norm`.
pub static LOWER_BATCH_NORM: Rule = Rule {
    root: "glow.graph.batch_norm",
    generates: &[
        "glow.graph.splat",
        "glow.graph.add",
        "glow.graph.sqrt",
        "glow.graph.div",
        "glow.graph.mul",
        "glow.graph.sub",
        "glow.graph.broadcast",
    ],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let operands: Vec<Value> = op.operands().collect();
    let [input, scale, bias, mean, var] = operands[..] else {
        return false;
    };
    let Ok(input_type) = RankedTensorType::try_from(input.r#type()) else {
        return false;
    };
    let (Ok(epsilon), Ok(channel)) = (op.attribute("epsilon"), op.attribute("channel")) else {
        return false;
    };
    let (Ok(epsilon), Ok(channel)) = (
        FloatAttribute::try_from(epsilon),
        IntegerAttribute::try_from(channel),
    ) else {
        return false;
    };
    let rank = input_type.rank() as i64;
    let channel = if channel.value() < 0 {
        channel.value() + rank
    } else {
        channel.value()
    };

    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let build = Builder {
        context,
        rewriter,
        location,
    };

    let vector_type = scale.r#type();
    let element = input_type.element();
    let epsilon = build.splat(
        vector_type,
        FloatAttribute::new(context, element, epsilon.value()).into(),
    );
    let variance = build.binary(Binary::Add, var, epsilon);
    let deviation = build.one(glow_graph::sqrt(context, variance, location).into());
    let k = build.binary(Binary::Div, scale, deviation);
    let mean_k = build.binary(Binary::Mul, mean, k);
    let shift = build.binary(Binary::Sub, bias, mean_k);

    let input_type: Type = input_type.into();
    let axis = IntegerAttribute::new(IntegerType::new(context, 64).into(), channel);
    let k_wide = build.broadcast(k, input_type, axis);
    let shift_wide = build.broadcast(shift, input_type, axis);
    let scaled = build.binary(Binary::Mul, input, k_wide);
    let result = build.binary(Binary::Add, scaled, shift_wide);
    rewriter.replace_op_with_values(op, &[result]);
    true
}

#[derive(Clone, Copy)]
enum Binary {
    Add,
    Sub,
    Mul,
    Div,
}

/// Inserts ops at the rewriter's insertion point and returns their single result.
struct Builder<'c, 'r, 'b> {
    context: &'c Context,
    rewriter: &'r RewriterBase<'c, 'b>,
    location: Location<'c>,
}

impl<'c, 'r, 'b> Builder<'c, 'r, 'b> {
    fn one(&self, op: melior::ir::Operation<'c>) -> Value<'c, 'r> {
        let inserted = self.rewriter.insert(op);
        inserted
            .result(0)
            .expect("glow.graph ops have one result")
            .into()
    }

    fn binary(&self, kind: Binary, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'r> {
        let (c, l) = (self.context, self.location);
        self.one(match kind {
            Binary::Add => glow_graph::add(c, lhs, rhs, l).into(),
            Binary::Sub => glow_graph::sub(c, lhs, rhs, l).into(),
            Binary::Mul => glow_graph::mul(c, lhs, rhs, l).into(),
            Binary::Div => glow_graph::div(c, lhs, rhs, l).into(),
        })
    }

    fn splat(&self, r#type: Type<'c>, value: Attribute<'c>) -> Value<'c, 'r> {
        self.one(glow_graph::splat(self.context, r#type, value, self.location).into())
    }

    fn broadcast(
        &self,
        input: Value<'c, '_>,
        r#type: Type<'c>,
        axis: IntegerAttribute<'c>,
    ) -> Value<'c, 'r> {
        self.one(glow_graph::broadcast(self.context, r#type, input, axis, self.location).into())
    }
}
