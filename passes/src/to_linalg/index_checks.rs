//! Memory safety of the ops that address a tensor by data (gather, gather_elements,
//! scatter_elements): every index is wrapped (negative values count from the end, as
//! ONNX says) and then clamped into the dimension, so no input value can make the
//! compiled code read or write outside a buffer; and an index outside [-extent,
//! extent) — an error in ONNX — is reported: a reduction over the index tensor feeds a
//! `glow.instr.check`, which glow-lower-checks turns into the call's error status
//! (glow-run prints the message; a bundle's `NAME_status()` returns it).

use super::{
    builder::{BodyBuilder, LinalgBuilder},
    data::predicate_code,
};
use crate::lower_nodes::builder::tensor_info;
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Identifier, OperationRef, Type, Value,
};

/// The integer element `raw` as a position inside a dimension of `extent`: negative
/// values count from the end, then the result is clamped to [0, extent - 1] (only an
/// index that the check reports can be changed by the clamp).
pub fn safe_index<'c, 'k>(
    body: &BodyBuilder<'c, 'k>,
    raw: Value<'c, 'k>,
    extent: i64,
) -> Value<'c, 'k> {
    let index = Type::index(body.context);
    let i1: Type = IntegerType::new(body.context, 1).into();
    let position = body.value("arith.index_cast", &[raw], index, &[]);
    let zero = body.index_constant(0);
    let size = body.index_constant(extent);
    let last = body.index_constant((extent - 1).max(0));
    let negative = body.value(
        "arith.cmpi",
        &[position, zero],
        i1,
        &[("predicate", &predicate_code("slt"))],
    );
    let wrapped = body.value("arith.addi", &[position, size], index, &[]);
    let wrapped = body.value("arith.select", &[negative, wrapped, position], index, &[]);
    let above = body.value("arith.maxsi", &[wrapped, zero], index, &[]);
    body.value("arith.minsi", &[above, last], index, &[])
}

/// Reports, when the call runs, an element of `indices` outside [-extent, extent):
/// a reduction of the whole index tensor to "all in range" and a `glow.instr.check`
/// on it, inserted before `op` (whose node name the message carries).
pub fn check_indices<'c>(
    b: &LinalgBuilder<'c, '_, '_>,
    op: OperationRef<'c, '_>,
    indices: Value<'c, '_>,
    extent: i64,
) {
    let Some((shape, element)) = tensor_info(indices) else {
        return;
    };
    let context = b.context;
    let i1: Type = IntegerType::new(context, 1).into();
    let rank = shape.len();
    let all_true = b.zeros(b.tensor(&[], i1), IntegerAttribute::new(i1, 1).into());
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let maps = [
        format!("affine_map<({}) -> ({})>", dims.join(", "), dims.join(", ")),
        format!("affine_map<({}) -> ()>", dims.join(", ")),
    ];
    let all_in_range = b.generic(
        &[indices],
        &[all_true],
        &maps,
        &vec!["reduction"; rank],
        |body, args| {
            let compare = |predicate: &str, bound: i64| {
                let limit = body.value(
                    "arith.constant",
                    &[],
                    element,
                    &[("value", &format!("{bound} : {}", element))],
                );
                body.value(
                    "arith.cmpi",
                    &[args[0], limit],
                    i1,
                    &[("predicate", &predicate_code(predicate))],
                )
            };
            let above = compare("sge", -extent);
            let below = compare("slt", extent);
            let inside = body.value("arith.andi", &[above, below], i1, &[]);
            vec![body.value("arith.andi", &[args[1], inside], i1, &[])]
        },
    );
    let extract = OperationBuilder::new("tensor.extract", b.location)
        .add_operands(&[all_in_range[0]])
        .add_results(&[i1])
        .build()
        .expect("valid tensor.extract");
    let ok = b.rewriter.insert(extract);
    let ok: Value = ok.result(0).expect("one result").into();
    let kind = op
        .name()
        .as_string_ref()
        .as_str()
        .unwrap_or("")
        .trim_start_matches("glow.graph.")
        .to_string();
    let message = match crate::framework::locations::node_name(op) {
        Some(name) => format!(
            "node '{name}' ({kind}): an index is outside [{}, {}]",
            -extent,
            extent - 1
        ),
        None => format!("{kind}: an index is outside [{}, {}]", -extent, extent - 1),
    };
    let check = OperationBuilder::new("glow.instr.check", b.location)
        .add_operands(&[ok])
        .add_attributes(&[(
            Identifier::new(context, "message"),
            StringAttribute::new(context, &message).into(),
        )])
        .build()
        .expect("valid glow.instr.check");
    b.rewriter.insert(check);
}
