//! glow.graph.cumsum -> one linalg.generic over the output's dimensions plus a
//! reduction dimension `k` along the axis: output position `i` accumulates the input
//! at `k` when `k <= i` (`k < i` exclusive; `k >= i` / `k > i` reversed). Work is
//! |output| x extent, which keeps the op structured (tileable, vectorizable, no
//! loop-carried scalar chain) for the short axes CumSum sees in models (token
//! positions).

use super::{
    builder::{is_float, LinalgBuilder},
    data::predicate_code,
    indexing::map,
};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::ir::{
    attribute::{FloatAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, Type, ValueLike,
};

rule!(CUMSUM, "glow.graph.cumsum", |context, op, rewriter| {
    let Ok(input) = op.operand(0) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(input) else {
        return false;
    };
    let rank = shape.len();
    let Some(axis) = op
        .attribute("axis")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
        .map(|a| if a < 0 { a + rank as i64 } else { a } as usize)
        .filter(|a| *a < rank)
    else {
        return false;
    };
    let float = is_float(element);
    if !float && IntegerType::try_from(element).map_or(true, |t| t.is_unsigned()) {
        return false;
    }
    let exclusive = op.attribute("exclusive").is_ok();
    let reverse = op.attribute("reverse").is_ok();
    // Whether input position k contributes to output position i.
    let predicate = match (reverse, exclusive) {
        (false, false) => "ule",
        (false, true) => "ult",
        (true, false) => "uge",
        (true, true) => "ugt",
    };
    let zero: Attribute = if float {
        FloatAttribute::new(context, element, 0.0).into()
    } else {
        IntegerAttribute::new(element, 0).into()
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.zeros(input.r#type(), zero);
    let mut input_dims: Vec<usize> = (0..rank).collect();
    input_dims[axis] = rank;
    let i1: Type = IntegerType::new(context, 1).into();
    let converted = b.generic(
        &[input],
        &[init],
        &[
            map(rank + 1, &input_dims),
            map(rank + 1, &(0..rank).collect::<Vec<_>>()),
        ],
        &[vec!["parallel"; rank], vec!["reduction"]].concat(),
        |body, args| {
            let (i, k) = (body.index(axis), body.index(rank));
            let counts = body.value(
                "arith.cmpi",
                &[k, i],
                i1,
                &[("predicate", &predicate_code(predicate))],
            );
            let add = if float { "arith.addf" } else { "arith.addi" };
            let sum = body.value(add, &[args[1], args[0]], element, &[]);
            vec![body.value("arith.select", &[counts, sum, args[1]], element, &[])]
        },
    );
    rewriter.replace_op_with_values(op, &converted);
    true
});
