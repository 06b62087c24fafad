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

fn reduce<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, build: Build) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let rank = x.shape.len();
    let axes: Vec<i64> = if cx.opset() >= axes_input_opset(cx.node.op_type()) {
        if cx.has_input(1) {
            cx.constant_input(1, "axes")?.to_i64s()
        } else {
            Vec::new()
        }
    } else {
        cx.attr_ints("axes").unwrap_or_default()
    };
    if axes.is_empty() && cx.attr_i("noop_with_empty_axes", 0) != 0 {
        return Ok(vec![x]);
    }
    let axes: Vec<usize> = if axes.is_empty() {
        (0..rank).collect()
    } else {
        axes.iter()
            .map(|a| normalize_axis(*a, rank))
            .collect::<Result<_, _>>()?
    };
    let keep = cx.attr_i("keepdims", 1) != 0;
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
                let mut op = glow_graph::$builder(c, v, axes, l);
                if keep {
                    op.set_keep_dims(melior::ir::Attribute::unit(c));
                }
                op.into()
            })
        }
    };
}

reduction!(reduce_sum, reduce_sum);
reduction!(reduce_mean, reduce_mean);
reduction!(reduce_max, reduce_max);
reduction!(reduce_min, reduce_min);
reduction!(reduce_prod, reduce_prod);

fn arg<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, max: bool) -> Converted<'c, 'a> {
    if cx.attr_i("select_last_index", 0) != 0 {
        return Err("select_last_index=1 is not supported".into());
    }
    let x = cx.input(0)?;
    let axis = normalize_axis(cx.attr_i("axis", 0), x.shape.len())?;
    let keep = cx.attr_i("keepdims", 1) != 0;
    let value = cx.value(0)?;
    let attr = cx.i64_attr(axis as i64);
    let out = if max {
        let mut op = glow_graph::arg_max(cx.context, value, attr, cx.location);
        if keep {
            op.set_keep_dims(melior::ir::Attribute::unit(cx.context));
        }
        cx.emit(op.into())
    } else {
        let mut op = glow_graph::arg_min(cx.context, value, attr, cx.location);
        if keep {
            op.set_keep_dims(melior::ir::Attribute::unit(cx.context));
        }
        cx.emit(op.into())
    };
    let shape = cx.shape_of(out);
    Ok(vec![Slot::value(out, shape, crate::element::Element::I64)])
}

pub fn arg_max<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    arg(cx, true)
}

pub fn arg_min<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    arg(cx, false)
}
