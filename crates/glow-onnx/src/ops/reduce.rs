//! Reductions: ReduceSum/Mean/Max/Min/Prod (axes as attribute or input by opset) and
//! ArgMax/ArgMin.

use crate::builder::{normalize_axis, Converted, NodeContext, Slot};
use glow_dialects::ods::glow_graph;
use melior::ir::{Attribute, Operation, Value};
use melior::Context;

type Build = for<'c> fn(
    &'c Context,
    Value<'c, '_>,
    Attribute<'c>,
    bool,
    melior::ir::Location<'c>,
) -> Operation<'c>;

/// The opset from which each reduction takes `axes` as an input instead of an attribute.
fn axes_input_opset(op_type: &str) -> i64 {
    if op_type == "ReduceSum" {
        13
    } else {
        18
    }
}

/// The axes a Reduce* node reduces (attribute or input by opset; all when empty), or
/// None when it is the identity (`noop_with_empty_axes` with no axes).
pub(super) fn reduction_axes(cx: &NodeContext, rank: usize) -> Result<Option<Vec<usize>>, String> {
    let axes: Vec<i64> = if cx.opset() >= axes_input_opset(cx.node.op_type()) {
        if cx.has_input(1) {
            cx.constant_input(1, "axes")?.to_i64s()
        } else {
            Vec::new()
        }
    } else {
        cx.attr_ints("axes").unwrap_or_default()
    };
    if axes.is_empty() && cx.attr_flag("noop_with_empty_axes", false)? {
        return Ok(None);
    }
    if axes.is_empty() {
        return Ok(Some((0..rank).collect()));
    }
    let mut axes = axes
        .iter()
        .map(|a| normalize_axis(*a, rank))
        .collect::<Result<Vec<_>, _>>()?;
    axes.sort_unstable();
    axes.dedup();
    Ok(Some(axes))
}

fn reduce<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, build: Build) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let Some(axes) = reduction_axes(cx, rank)? else {
        return Ok(vec![x]);
    };
    let keep = cx.attr_flag("keepdims", true)?;
    let shape: Vec<i64> = (0..rank)
        .filter_map(|d| match (axes.contains(&d), keep) {
            (false, _) => Some(x.shape[d]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let value = cx.value(0)?;
    let axes: Vec<i64> = axes.iter().map(|a| *a as i64).collect();
    let attr = cx.array_attr(&axes);
    let out = cx.emit(build(cx.context, value, attr, keep, cx.location));
    Ok(vec![Slot::value(out, shape, x.element)])
}

macro_rules! reduction {
    ($name:ident, $builder:ident) => {
        pub fn $name<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
            reduce(cx, |c, v, axes, keep, l| {
                // keep_dims must be set before the result type is inferred.
                let builder = glow_graph::$builder::new(c, l).input(v).axes(axes);
                if keep {
                    builder.keep_dims(Attribute::unit(c)).build().into()
                } else {
                    builder.build().into()
                }
            })
        }
    };
}

reduction!(reduce_sum, ReduceSumOperationBuilder);
reduction!(reduce_mean, ReduceMeanOperationBuilder);
reduction!(reduce_max, ReduceMaxOperationBuilder);
reduction!(reduce_min, ReduceMinOperationBuilder);
reduction!(reduce_prod, ReduceProdOperationBuilder);

fn arg<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, max: bool) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let axis = normalize_axis(cx.attr_i("axis", 0), x.shape.len())?;
    let keep = cx.attr_flag("keepdims", true)?;
    let value = cx.value(0)?;
    let attr = cx.i64_attr(axis as i64);
    // keep_dims must be set before the result type is inferred.
    let unit = Attribute::unit(cx.context);
    let last = cx.attr_flag("select_last_index", false)?;
    let op: Operation = if max {
        let builder = glow_graph::ArgMaxOperationBuilder::new(cx.context, cx.location)
            .input(value)
            .axis(attr);
        let mut op = if keep {
            builder.keep_dims(unit).build()
        } else {
            builder.build()
        };
        if last {
            op.set_select_last_index(unit);
        }
        op.into()
    } else {
        let builder = glow_graph::ArgMinOperationBuilder::new(cx.context, cx.location)
            .input(value)
            .axis(attr);
        let mut op = if keep {
            builder.keep_dims(unit).build()
        } else {
            builder.build()
        };
        if last {
            op.set_select_last_index(unit);
        }
        op.into()
    };
    let out = cx.emit(op);
    let shape = cx.shape_of(out);
    Ok(vec![Slot::value(out, shape, crate::element::Element::I64)])
}

pub fn arg_max<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    arg(cx, true)
}

pub fn arg_min<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    arg(cx, false)
}
