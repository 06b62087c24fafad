//! Trigonometric and hyperbolic glow.graph ops (sin, cos, tan, asin, acos, atan, sinh,
//! cosh, asinh, acosh, atanh) -> an elementwise linalg.generic around the math dialect
//! op of the same name. linalg has no named op for them; convert-math-to-llvm and
//! convert-math-to-libm finish them (LLVM intrinsics or libm calls).

use super::builder::{is_float, LinalgBuilder};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::{
    ir::{operation::OperationLike, OperationRef},
    Context, RewriterBase,
};

/// `math.<name>` applied to every element of the op's float operand.
fn math_function<'c>(
    name: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(input) = op.operand(0) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(input) else {
        return false;
    };
    if !is_float(element) {
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[input], &shape, element, |body, args| {
        body.op(name, &args[..1], element, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

macro_rules! math_rule {
    ($name:ident, $root:literal, $math:literal) => {
        rule!($name, $root, |c, o, r| math_function($math, c, o, r));
    };
}

math_rule!(SIN, "glow.graph.sin", "math.sin");
math_rule!(COS, "glow.graph.cos", "math.cos");
math_rule!(TAN, "glow.graph.tan", "math.tan");
math_rule!(ASIN, "glow.graph.asin", "math.asin");
math_rule!(ACOS, "glow.graph.acos", "math.acos");
math_rule!(ATAN, "glow.graph.atan", "math.atan");
math_rule!(SINH, "glow.graph.sinh", "math.sinh");
math_rule!(COSH, "glow.graph.cosh", "math.cosh");
math_rule!(ASINH, "glow.graph.asinh", "math.asinh");
math_rule!(ACOSH, "glow.graph.acosh", "math.acosh");
math_rule!(ATANH, "glow.graph.atanh", "math.atanh");

/// Every rule of this module.
pub const RULES: &[&Rule] = &[
    &SIN, &COS, &TAN, &ASIN, &ACOS, &ATAN, &SINH, &COSH, &ASINH, &ACOSH, &ATANH,
];
