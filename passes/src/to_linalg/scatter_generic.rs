//! scatter_elements -> one linalg.generic over the output (glow-graph-to-linalg's
//! `scatter=generic`, which the glow-export-linalg pipeline uses): consumers such as
//! IREE compile structured ops, not the host-level scf.for of the default lowering.
//!
//! The iteration space is the output's dimensions plus one reduction dimension `k`
//! over the updates' extent along `axis`. Output element `o` starts as `data[o]` (taken
//! at k = 0 into a fresh accumulator); for
//! each `k`, the update at `u` (`u = o` with `u[axis] = k`) lands on `o` when `u` lies
//! inside the updates (`o[d] < updates[d]` off the axis) and its wrapped, clamped index
//! equals `o[axis]`; then the reduction (none / add / mul / max / min) combines it.
//! Later updates (larger `k`) win on duplicates with `reduction = none`, as in ONNX's
//! reference, when the reduction runs in order. Work is |output| x updates[axis], against
//! the loop's |updates|: the export trades it for a form any linalg consumer takes.
//! Indices outside their dimension are reported as in the loop form.

use super::{
    builder::LinalgBuilder,
    data::predicate_code,
    index_checks::{check_indices, safe_index},
    indexing::{axis_attribute, index_element, map, scatter_combine},
};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::ir::{
    attribute::StringAttribute, operation::OperationLike, r#type::IntegerType, Type, Value,
    ValueLike,
};

rule!(
    SCATTER_ELEMENTS_GENERIC,
    "glow.graph.scatter_elements",
    |context, op, rewriter| {
        let (Ok(data), Ok(indices), Ok(updates)) = (op.operand(0), op.operand(1), op.operand(2))
        else {
            return false;
        };
        let (Some((data_shape, element)), Some((update_shape, _))) =
            (tensor_info(data), tensor_info(indices))
        else {
            return false;
        };
        let rank = data_shape.len();
        let Some(axis) = axis_attribute(op, rank) else {
            return false;
        };
        if update_shape.len() != rank || update_shape.contains(&0) {
            return false;
        }
        let reduction = op
            .attribute("reduction")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map_or("none".to_string(), |a| a.value().to_string());
        if !matches!(reduction.as_str(), "none" | "add" | "mul" | "max" | "min") {
            return false;
        }
        let b = LinalgBuilder::before(context, op, rewriter);
        check_indices(&b, op, indices, data_shape[axis]);
        // The accumulator is a fresh tensor that takes the data at k = 0 (writing into
        // the data itself fails in consumers when it is a constant), and a tensor of
        // the updates' extent along the axis fixes the extent of `k`.
        let start = b.empty(data.r#type());
        let extent = b.empty(b.tensor(&[update_shape[axis]], element));
        let index = Type::index(context);
        let i1: Type = IntegerType::new(context, 1).into();
        let index_type = index_element(indices);
        let converted = b.generic(
            &[extent, data],
            &[start],
            &[
                map(rank + 1, &[rank]),
                map(rank + 1, &(0..rank).collect::<Vec<_>>()),
                map(rank + 1, &(0..rank).collect::<Vec<_>>()),
            ],
            &[vec!["parallel"; rank], vec!["reduction"]].concat(),
            |body, args| {
                let k = body.index(rank);
                let zero = body.index_constant(0);
                let first = body.value(
                    "arith.cmpi",
                    &[k, zero],
                    i1,
                    &[("predicate", &predicate_code("eq"))],
                );
                let accumulator =
                    body.value("arith.select", &[first, args[1], args[2]], element, &[]);
                // The update's coordinates, clamped into the updates (a position
                // outside them matches nothing, below).
                let mut coordinates: Vec<Value> = Vec::with_capacity(rank);
                let mut inside: Option<Value> = None;
                for (d, &extent) in update_shape.iter().enumerate() {
                    if d == axis {
                        coordinates.push(k);
                        continue;
                    }
                    let o = body.index(d);
                    let limit = body.index_constant(extent);
                    let last = body.index_constant(extent - 1);
                    let within = body.value(
                        "arith.cmpi",
                        &[o, limit],
                        i1,
                        &[("predicate", &predicate_code("ult"))],
                    );
                    inside = Some(match inside {
                        Some(all) => body.value("arith.andi", &[all, within], i1, &[]),
                        None => within,
                    });
                    coordinates.push(body.value("arith.minui", &[o, last], index, &[]));
                }
                let mut operands = vec![indices];
                operands.extend_from_slice(&coordinates);
                let raw = body.value("tensor.extract", &operands, index_type, &[]);
                operands[0] = updates;
                let update = body.value("tensor.extract", &operands, element, &[]);
                let position = safe_index(body, raw, data_shape[axis]);
                let target = body.index(axis);
                let mut hits = body.value(
                    "arith.cmpi",
                    &[position, target],
                    i1,
                    &[("predicate", &predicate_code("eq"))],
                );
                if let Some(inside) = inside {
                    hits = body.value("arith.andi", &[hits, inside], i1, &[]);
                }
                let combined = scatter_combine(body, &reduction, accumulator, update, element)
                    .expect("a reduction the verifier accepts");
                vec![body.value("arith.select", &[hits, combined, accumulator], element, &[])]
            },
        );
        rewriter.replace_op_with_values(op, &converted);
        true
    }
);

/// The rule, for glow-graph-to-linalg's rule list.
pub const RULES: &[&Rule] = &[&SCATTER_ELEMENTS_GENERIC];
