//! mod, shift_left and shift_right to elementwise `linalg.generic`s, with the guards
//! that keep every input defined (LLVM's `srem` / `urem` by zero and `sdiv`-style
//! overflow trap on x86, and over-wide shifts are poison):
//! - mod -> `arith.remf`, or `arith.remsi` / `remui` by a divisor made 1 where it is 0
//!   (or -1, where the remainder is 0 anyway and INT_MIN % -1 would trap), the result
//!   then forced to 0 where the divisor was 0; with `sign_follow_divisor`, a non-zero
//!   remainder whose sign differs from the divisor's gets the divisor added.
//! - shift_left / shift_right -> `arith.shli` / `shrui` / `shrsi`; amounts (unsigned)
//!   of at least the bit width give 0, or shift by width - 1 for `shrsi`.

use super::builder::{binary_operands, is_float, BodyBuilder, LinalgBuilder};
use super::data::predicate_code;
use crate::framework::Rule;
use melior::{
    ir::{operation::OperationLike, r#type::IntegerType, OperationRef, Type, Value, ValueLike},
    Context, RewriterBase,
};

/// The rules of this file.
pub static RULES: &[&Rule] = &[&MOD, &SHIFT_LEFT, &SHIFT_RIGHT];

/// `glow.graph.mod`.
pub static MOD: Rule = Rule {
    root: "glow.graph.mod",
    generates: &["linalg.generic", "tensor.empty"],
    rewrite: remainder,
};
/// `glow.graph.shift_left`.
pub static SHIFT_LEFT: Rule = Rule {
    root: "glow.graph.shift_left",
    generates: &["linalg.generic", "tensor.empty"],
    rewrite: |c, o, r| shift(true, c, o, r),
};
/// `glow.graph.shift_right`.
pub static SHIFT_RIGHT: Rule = Rule {
    root: "glow.graph.shift_right",
    generates: &["linalg.generic", "tensor.empty"],
    rewrite: |c, o, r| shift(false, c, o, r),
};

/// An integer or float scalar constant of `element` in the body.
fn constant<'c, 'k>(body: &BodyBuilder<'c, 'k>, element: Type<'c>, value: i64) -> Value<'c, 'k> {
    let text = if is_float(element) {
        format!("{value}.0 : {element}")
    } else {
        format!("{value} : {element}")
    };
    body.value("arith.constant", &[], element, &[("value", &text)])
}

fn remainder<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((lhs, rhs, shape, element)) = binary_operands(op) else {
        return false;
    };
    let float = is_float(element);
    let integer = IntegerType::try_from(element).ok();
    if !float && integer.is_none() {
        return false;
    }
    let unsigned = integer.is_some_and(|t| t.is_unsigned());
    let floored = op.attribute("sign_follow_divisor").is_ok();
    let i1: Type = IntegerType::new(context, 1).into();
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[lhs, rhs], &shape, element, |body, args| {
        let (a, d) = (args[0], args[1]);
        let zero = constant(body, element, 0);
        let cmp = |predicate: &str, x: Value<'c, '_>, y: Value<'c, '_>| {
            let (name, code) = if float {
                ("arith.cmpf", predicate_code(predicate))
            } else {
                ("arith.cmpi", predicate_code(predicate))
            };
            body.value(name, &[x, y], i1, &[("predicate", &code)])
        };
        let select = |c: Value<'c, '_>, x: Value<'c, '_>, y: Value<'c, '_>| {
            body.value("arith.select", &[c, x, y], element, &[])
        };
        let rem = if float {
            body.value("arith.remf", &[a, d], element, &[])
        } else {
            let one = constant(body, element, 1);
            let divisor_zero = cmp("eq", d, zero);
            let unsafe_divisor = if unsigned {
                divisor_zero
            } else {
                let minus_one = constant(body, element, -1);
                let divisor_minus_one = cmp("eq", d, minus_one);
                body.value("arith.ori", &[divisor_zero, divisor_minus_one], i1, &[])
            };
            let safe = select(unsafe_divisor, one, d);
            let op = if unsigned {
                "arith.remui"
            } else {
                "arith.remsi"
            };
            let rem = body.value(op, &[a, safe], element, &[]);
            select(divisor_zero, zero, rem)
        };
        if !floored || unsigned {
            return rem.to_raw();
        }
        // Floored: r != 0 and (r < 0) != (d < 0) -> r + d.
        let (ne, lt) = if float { ("une", "olt") } else { ("ne", "slt") };
        let nonzero = cmp(ne, rem, zero);
        let rem_negative = cmp(lt, rem, zero);
        let divisor_negative = cmp(lt, d, zero);
        let signs_differ = body.value("arith.xori", &[rem_negative, divisor_negative], i1, &[]);
        let adjust = body.value("arith.andi", &[nonzero, signs_differ], i1, &[]);
        let add = if float { "arith.addf" } else { "arith.addi" };
        let adjusted = body.value(add, &[rem, d], element, &[]);
        select(adjust, adjusted, rem).to_raw()
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

fn shift<'c>(
    left: bool,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Some((lhs, rhs, shape, element)) = binary_operands(op) else {
        return false;
    };
    let Ok(integer) = IntegerType::try_from(element) else {
        return false;
    };
    let width = i64::from(integer.width());
    let arithmetic = !left && !integer.is_unsigned();
    let i1: Type = IntegerType::new(context, 1).into();
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[lhs, rhs], &shape, element, |body, args| {
        let (x, amount) = (args[0], args[1]);
        if arithmetic {
            // Clamped (unsigned) to width - 1: the sign fills every bit.
            let last = constant(body, element, width - 1);
            let clamped = body.value("arith.minui", &[amount, last], element, &[]);
            return body.op("arith.shrsi", &[x, clamped], element, &[]);
        }
        let name = if left { "arith.shli" } else { "arith.shrui" };
        let shifted = body.value(name, &[x, amount], element, &[]);
        let bits = constant(body, element, width);
        let too_far = body.value(
            "arith.cmpi",
            &[amount, bits],
            i1,
            &[("predicate", &predicate_code("uge"))],
        );
        let zero = constant(body, element, 0);
        body.op("arith.select", &[too_far, zero, shifted], element, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}
