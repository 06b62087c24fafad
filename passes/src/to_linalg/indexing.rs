//! Ops that address their input by computed indices, as linalg.generic:
//! - gather -> out[o] = data[o[..axis], idx[o[axis..axis+q]], o[axis+q..]]
//! - gather_elements -> out[i] = data[i with dimension axis replaced by idx[i]]
//! - tile -> out[i] = in[i mod in_shape]
//! - arg_max / arg_min -> a reduction along the axis carrying (best value, its index)
//! - top_k -> each element's rank along the axis (how many elements beat it, ties to
//!   the lower index), then a reduction that picks, for output position j, the element
//!   of rank j: O(n^2) along the axis, no sort
//!
//! - scatter_elements -> an scf.for over the update positions carrying the output
//!   tensor (initialized with the data): tensor.extract of index and update,
//!   the reduction (none / add / mul / max / min) with the current value, tensor.insert;
//!   later updates win on duplicate indices, as in ONNX's reference
//!
//! Index tensors may hold negative indices (counted from the end, as ONNX); they are
//! wrapped in the body, clamped into the dimension, and an index outside it is
//! reported at run time ([`super::index_checks`]).

use super::builder::{is_float, BodyBuilder, LinalgBuilder};
use super::data::predicate_code;
use super::index_checks::{check_indices, safe_index};
use crate::framework::attributes::i64_array;
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        Attribute, BlockLike, OperationRef, Type, Value, ValueLike,
    },
    Context,
};

/// `affine_map<(d0, ..) -> (results)>` over `rank` dimensions.
pub(super) fn map(rank: usize, results: &[usize]) -> String {
    let dim = |d: &usize| format!("d{d}");
    format!(
        "affine_map<({}) -> ({})>",
        (0..rank).map(|d| dim(&d)).collect::<Vec<_>>().join(", "),
        results.iter().map(dim).collect::<Vec<_>>().join(", ")
    )
}

fn identity(rank: usize) -> String {
    map(rank, &(0..rank).collect::<Vec<_>>())
}

/// An integer attribute of `op`, negative values counted from the back of `rank`.
pub(super) fn axis_attribute(op: OperationRef, rank: usize) -> Option<usize> {
    let axis = IntegerAttribute::try_from(op.attribute("axis").ok()?)
        .ok()?
        .value();
    let axis = if axis < 0 { axis + rank as i64 } else { axis };
    (0..rank as i64).contains(&axis).then_some(axis as usize)
}

rule!(GATHER, "glow.graph.gather", |context, op, rewriter| {
    let (Ok(data), Ok(indices), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let (Some((data_shape, element)), Some((index_shape, _)), Some((result_shape, _))) = (
        tensor_info(data),
        tensor_info(indices),
        tensor_info(result.into()),
    ) else {
        return false;
    };
    let Some(axis) = axis_attribute(op, data_shape.len()) else {
        return false;
    };
    let rank = result_shape.len();
    let q = index_shape.len();
    let b = LinalgBuilder::before(context, op, rewriter);
    check_indices(&b, op, indices, data_shape[axis]);
    let init = b.empty(result.r#type());
    let index_element = index_element(indices);
    // The index is read in the body at the output's loop indices, not as an input:
    // along the axes after `axis + q` (an embedding row) it is a value of the loop
    // nest outside those axes, so a vectorized row reads its slice of `data` with
    // contiguous vector loads, where an input's block argument counts as varying in
    // every lane and makes each read a gather.
    let converted = b.generic(
        &[],
        &[init],
        &[identity(rank)],
        &vec!["parallel"; rank],
        |body, _| {
            let mut at = vec![indices];
            at.extend((axis..axis + q).map(|d| body.index(d)));
            let index = body.value("tensor.extract", &at, index_element, &[]);
            let position = safe_index(body, index, data_shape[axis]);
            let mut operands = vec![data];
            for d in 0..data_shape.len() {
                operands.push(match d {
                    d if d == axis => position,
                    d if d < axis => body.index(d),
                    d => body.index(d - 1 + q),
                });
            }
            vec![body.value("tensor.extract", &operands, element, &[])]
        },
    );
    rewriter.replace_op_with_values(op, &converted);
    true
});

rule!(
    GATHER_ELEMENTS,
    "glow.graph.gather_elements",
    |context, op, rewriter| {
        let (Ok(data), Ok(indices), Ok(result)) = (op.operand(0), op.operand(1), op.result(0))
        else {
            return false;
        };
        let (Some((data_shape, element)), Some((index_shape, _))) =
            (tensor_info(data), tensor_info(indices))
        else {
            return false;
        };
        let rank = index_shape.len();
        let Some(axis) = axis_attribute(op, rank) else {
            return false;
        };
        let b = LinalgBuilder::before(context, op, rewriter);
        check_indices(&b, op, indices, data_shape[axis]);
        let init = b.empty(result.r#type());
        let converted =
            b.generic(
                &[indices],
                &[init],
                &[identity(rank), identity(rank)],
                &vec!["parallel"; rank],
                |body, args| {
                    let position = safe_index(body, args[0], data_shape[axis]);
                    let mut operands = vec![data];
                    operands.extend((0..rank).map(|d| {
                        if d == axis {
                            position
                        } else {
                            body.index(d)
                        }
                    }));
                    vec![body.value("tensor.extract", &operands, element, &[])]
                },
            );
        rewriter.replace_op_with_values(op, &converted);
        true
    }
);

rule!(TILE, "glow.graph.tile", |context, op, rewriter| {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((shape, element)), Some(repeats)) = (tensor_info(input), i64_array(op, "repeats"))
    else {
        return false;
    };
    let rank = shape.len();
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.empty(result.r#type());
    let converted = b.generic(
        &[],
        &[init],
        &[identity(rank)],
        &vec!["parallel"; rank],
        |body, _| {
            let index = Type::index(body.context);
            let mut operands = vec![input];
            for d in 0..rank {
                let position = body.index(d);
                operands.push(if repeats[d] == 1 {
                    position
                } else {
                    let extent = body.index_constant(shape[d]);
                    body.value("arith.remui", &[position, extent], index, &[])
                });
            }
            vec![body.value("tensor.extract", &operands, element, &[])]
        },
    );
    rewriter.replace_op_with_values(op, &converted);
    true
});

/// arg_max (`largest`) / arg_min: a reduction along the axis whose accumulators are
/// the best value so far (starting at the type's extreme) and its i64 index; ties keep
/// the first index, or the last with `select_last_index`.
fn arg_extreme<'c>(
    largest: bool,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &melior::RewriterBase<'c, '_>,
) -> bool {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((shape, element)), Some((result_shape, i64_type))) =
        (tensor_info(input), tensor_info(result.into()))
    else {
        return false;
    };
    let rank = shape.len();
    let Some(axis) = axis_attribute(op, rank) else {
        return false;
    };
    let last = op.attribute("select_last_index").is_ok();
    let float = is_float(element);
    let unsigned = IntegerType::try_from(element).is_ok_and(|t| t.is_unsigned());
    let width = IntegerType::try_from(element).map_or(64, |t| t.width());
    let start: Attribute = match (float, unsigned, largest) {
        (true, _, true) => FloatAttribute::new(context, element, f64::NEG_INFINITY).into(),
        (true, _, false) => FloatAttribute::new(context, element, f64::INFINITY).into(),
        (false, true, true) => IntegerAttribute::new(element, 0).into(),
        (false, true, false) => IntegerAttribute::new(element, -1).into(),
        (false, false, true) => IntegerAttribute::new(element, i64::MIN >> (64 - width)).into(),
        (false, false, false) => IntegerAttribute::new(element, i64::MAX >> (64 - width)).into(),
    };
    let (comparison, predicate) = match (float, unsigned, largest, last) {
        (true, _, true, false) => ("arith.cmpf", "ogt"),
        (true, _, true, true) => ("arith.cmpf", "oge"),
        (true, _, false, false) => ("arith.cmpf", "olt"),
        (true, _, false, true) => ("arith.cmpf", "ole"),
        (false, false, true, false) => ("arith.cmpi", "sgt"),
        (false, false, true, true) => ("arith.cmpi", "sge"),
        (false, false, false, false) => ("arith.cmpi", "slt"),
        (false, false, false, true) => ("arith.cmpi", "sle"),
        (false, true, true, false) => ("arith.cmpi", "ugt"),
        (false, true, true, true) => ("arith.cmpi", "uge"),
        (false, true, false, false) => ("arith.cmpi", "ult"),
        (false, true, false, true) => ("arith.cmpi", "ule"),
    };
    let kept: Vec<usize> = (0..rank).filter(|d| *d != axis).collect();
    let reduced: Vec<i64> = kept.iter().map(|d| shape[*d]).collect();
    let b = LinalgBuilder::before(context, op, rewriter);
    let best = b.zeros(b.tensor(&reduced, element), start);
    let best_index = b.zeros(
        b.tensor(&reduced, i64_type),
        IntegerAttribute::new(i64_type, 0).into(),
    );
    let iterators: Vec<&str> = (0..rank)
        .map(|d| if d == axis { "reduction" } else { "parallel" })
        .collect();
    let results = b.generic(
        &[input],
        &[best, best_index],
        &[identity(rank), map(rank, &kept), map(rank, &kept)],
        &iterators,
        |body, args| {
            let i1: Type = IntegerType::new(body.context, 1).into();
            let better = body.value(
                comparison,
                &[args[0], args[1]],
                i1,
                &[("predicate", &predicate_code(predicate))],
            );
            let position = body.index(axis);
            let position = body.value("arith.index_cast", &[position], i64_type, &[]);
            vec![
                body.value("arith.select", &[better, args[0], args[1]], element, &[]),
                body.value("arith.select", &[better, position, args[2]], i64_type, &[]),
            ]
        },
    );
    let indices = if reduced == result_shape {
        results[1]
    } else {
        b.reshape(results[1], &result_shape, i64_type)
    };
    rewriter.replace_op_with_values(op, &[indices]);
    true
}

rule!(ARG_MAX, "glow.graph.arg_max", |c, o, r| arg_extreme(
    true, c, o, r
));
rule!(ARG_MIN, "glow.graph.arg_min", |c, o, r| arg_extreme(
    false, c, o, r
));

/// Whether `a` beats `b` for top_k (`largest`: greater; else smaller), as the cmp op
/// and predicate for the element type.
fn strict_order(element: Type, largest: bool) -> (&'static str, &'static str) {
    let unsigned = IntegerType::try_from(element).is_ok_and(|t| t.is_unsigned());
    match (is_float(element), unsigned, largest) {
        (true, _, true) => ("arith.cmpf", "ogt"),
        (true, _, false) => ("arith.cmpf", "olt"),
        (false, true, true) => ("arith.cmpi", "ugt"),
        (false, true, false) => ("arith.cmpi", "ult"),
        (false, false, true) => ("arith.cmpi", "sgt"),
        (false, false, false) => ("arith.cmpi", "slt"),
    }
}

rule!(TOP_K, "glow.graph.top_k", |context, op, rewriter| {
    let (Ok(input), Ok(values), Ok(indices)) = (op.operand(0), op.result(0), op.result(1)) else {
        return false;
    };
    let (Some((shape, element)), Some((_, i64_type))) =
        (tensor_info(input), tensor_info(indices.into()))
    else {
        return false;
    };
    let rank = shape.len();
    let Some(axis) = axis_attribute(op, rank) else {
        return false;
    };
    let largest = op.attribute("smallest").is_err();
    let (comparison, predicate) = strict_order(element, largest);
    let equal = if is_float(element) {
        ("arith.cmpf", "oeq")
    } else {
        ("arith.cmpi", "eq")
    };
    // Loop dimension `rank` walks the axis a second time.
    let all: Vec<usize> = (0..rank).collect();
    let other: Vec<usize> = (0..rank)
        .map(|d| if d == axis { rank } else { d })
        .collect();
    let mut iterators = vec!["parallel"; rank];
    iterators.push("reduction");
    let b = LinalgBuilder::before(context, op, rewriter);
    let zero_index = IntegerAttribute::new(i64_type, 0).into();
    let ranks_init = b.zeros(b.tensor(&shape, i64_type), zero_index);
    // rank[i] = #{m : x[m] beats x[i], or equals it with m < i}
    let ranks = b.generic(
        &[input, input],
        &[ranks_init],
        &[
            map(rank + 1, &all),
            map(rank + 1, &other),
            map(rank + 1, &all),
        ],
        &iterators,
        |body, args| {
            let i1: Type = IntegerType::new(body.context, 1).into();
            let cmp = |(name, p): (&str, &str)| {
                body.value(
                    name,
                    &[args[1], args[0]],
                    i1,
                    &[("predicate", &predicate_code(p))],
                )
            };
            let beats = cmp((comparison, predicate));
            let ties = cmp(equal);
            let (i, m) = (body.index(axis), body.index(rank));
            let before = body.value(
                "arith.cmpi",
                &[m, i],
                i1,
                &[("predicate", &predicate_code("ult"))],
            );
            let tie_before = body.value("arith.andi", &[ties, before], i1, &[]);
            let counted = body.value("arith.ori", &[beats, tie_before], i1, &[]);
            let one = body.value("arith.extui", &[counted], i64_type, &[]);
            vec![body.value("arith.addi", &[args[2], one], i64_type, &[])]
        },
    );
    // values[j] / indices[j] = the element of rank j and its position.
    let value_init = b.zeros(
        values.r#type(),
        super::windows::scalar(context, element, 0.0),
    );
    let index_init = b.zeros(indices.r#type(), zero_index);
    let picked = b.generic(
        &[input, ranks[0]],
        &[value_init, index_init],
        &[
            map(rank + 1, &other),
            map(rank + 1, &other),
            map(rank + 1, &all),
            map(rank + 1, &all),
        ],
        &iterators,
        |body, args| {
            let i1: Type = IntegerType::new(body.context, 1).into();
            let j = body.index(axis);
            let j = body.value("arith.index_cast", &[j], i64_type, &[]);
            let position = body.index(rank);
            let position = body.value("arith.index_cast", &[position], i64_type, &[]);
            let hit = body.value(
                "arith.cmpi",
                &[args[1], j],
                i1,
                &[("predicate", &predicate_code("eq"))],
            );
            vec![
                body.value("arith.select", &[hit, args[0], args[2]], element, &[]),
                body.value("arith.select", &[hit, position, args[3]], i64_type, &[]),
            ]
        },
    );
    rewriter.replace_op_with_values(op, &picked);
    true
});

/// The scalar combination of scatter_elements' `reduction` of `old` and `update`.
pub(super) fn scatter_combine<'c, 'k>(
    body: &BodyBuilder<'c, 'k>,
    reduction: &str,
    old: Value<'c, 'k>,
    update: Value<'c, 'k>,
    element: Type<'c>,
) -> Option<Value<'c, 'k>> {
    let float = is_float(element);
    let unsigned = IntegerType::try_from(element).is_ok_and(|t| t.is_unsigned());
    let name = match (reduction, float, unsigned) {
        ("none", _, _) => return Some(update),
        ("add", true, _) => "arith.addf",
        ("add", false, _) => "arith.addi",
        ("mul", true, _) => "arith.mulf",
        ("mul", false, _) => "arith.muli",
        ("max", true, _) => "arith.maximumf",
        ("max", false, false) => "arith.maxsi",
        ("max", false, true) => "arith.maxui",
        ("min", true, _) => "arith.minimumf",
        ("min", false, false) => "arith.minsi",
        ("min", false, true) => "arith.minui",
        _ => return None,
    };
    Some(body.value(name, &[old, update], element, &[]))
}

rule!(
    SCATTER_ELEMENTS,
    "glow.graph.scatter_elements",
    |context, op, rewriter| {
        let (Ok(data), Ok(indices), Ok(updates), Ok(result)) =
            (op.operand(0), op.operand(1), op.operand(2), op.result(0))
        else {
            return false;
        };
        let (Some((data_shape, element)), Some((shape, _))) =
            (tensor_info(data), tensor_info(indices))
        else {
            return false;
        };
        let rank = shape.len();
        let Some(axis) = axis_attribute(op, rank) else {
            return false;
        };
        let reduction = op
            .attribute("reduction")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map_or("none".to_string(), |a| a.value().to_string());
        let count: i64 = shape.iter().product();
        let b = LinalgBuilder::before(context, op, rewriter);
        check_indices(&b, op, indices, data_shape[axis]);
        let index = Type::index(context);
        let constant = |n: i64| {
            b.constant(
                Attribute::parse(context, &format!("{n} : index")).expect("index attribute"),
                index,
            )
        };
        let (lower, upper, step) = (constant(0), constant(count), constant(1));
        let location = op.location();
        let tensor = result.r#type();
        let block = melior::ir::Block::new(&[(index, location), (tensor, location)]);
        let body = BodyBuilder {
            context,
            block: &block,
            location,
        };
        let linear: Value = block.argument(0).expect("induction variable").into();
        let accumulator: Value = block.argument(1).expect("iteration argument").into();
        // The update position's coordinates, innermost dimension fastest.
        let mut coordinates = vec![linear; rank];
        let mut rest = linear;
        for d in (0..rank).rev() {
            let extent = body.index_constant(shape[d]);
            coordinates[d] = body.value("arith.remui", &[rest, extent], index, &[]);
            rest = body.value("arith.divui", &[rest, extent], index, &[]);
        }
        let mut operands = vec![indices];
        operands.extend_from_slice(&coordinates);
        let raw = body.value("tensor.extract", &operands, index_element(indices), &[]);
        operands[0] = updates;
        let update = body.value("tensor.extract", &operands, element, &[]);
        coordinates[axis] = safe_index(&body, raw, data_shape[axis]);
        let mut target = vec![accumulator];
        target.extend_from_slice(&coordinates);
        let old = body.value("tensor.extract", &target, element, &[]);
        let Some(new) = scatter_combine(&body, &reduction, old, update, element) else {
            return false;
        };
        let mut insert = vec![new, accumulator];
        insert.extend_from_slice(&coordinates);
        let written = body.value("tensor.insert", &insert, tensor, &[]);
        block.append_operation(
            melior::ir::operation::OperationBuilder::new("scf.yield", location)
                .add_operands(&[written])
                .build()
                .expect("valid scf.yield"),
        );
        let region = melior::ir::Region::new();
        melior::ir::RegionLike::append_block(&region, block);
        let Ok(for_op) = melior::ir::operation::OperationBuilder::new("scf.for", location)
            .add_operands(&[lower, upper, step, data])
            .add_results(&[tensor])
            .add_regions([region])
            .build()
        else {
            return false;
        };
        let inserted = rewriter.insert(for_op);
        let Ok(value) = inserted.result(0) else {
            return false;
        };
        rewriter.replace_op_with_values(op, &[value.into()]);
        true
    }
);

/// The element type of a static tensor value.
pub(super) fn index_element<'c>(value: Value<'c, '_>) -> Type<'c> {
    tensor_info(value).expect("static tensor").1
}

/// Every rule of this file.
pub const RULES: &[&Rule] = &[
    &GATHER,
    &GATHER_ELEMENTS,
    &TILE,
    &ARG_MAX,
    &ARG_MIN,
    &TOP_K,
    &SCATTER_ELEMENTS,
];
