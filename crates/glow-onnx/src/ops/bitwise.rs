//! ONNX's bitwise ops on integers: BitwiseAnd / Or / Xor as glow.graph.and / or / xor
//! (which act bit by bit on integers, logically on bools), BitwiseNot as xor with all
//! ones; constants folded at import.

use super::elementwise::{integer_and, integer_or, integer_xor, small_constant};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    folding,
};
use glow_dialects::ods::glow_graph;

/// The Bitwise* ops take integers (not bool, not floats).
fn integers_only(cx: &NodeContext) -> Result<(), String> {
    for i in 0..cx.input_count() {
        let element = cx.input(i)?.element;
        if element.is_float() || element == Element::Bool {
            return Err(format!(
                "{element:?} inputs are not supported (integers only)"
            ));
        }
    }
    Ok(())
}

pub fn bitwise_and<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    integers_only(cx)?;
    integer_and(cx)
}

pub fn bitwise_or<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    integers_only(cx)?;
    integer_or(cx)
}

pub fn bitwise_xor<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    integers_only(cx)?;
    integer_xor(cx)
}

/// BitwiseNot: x xor all ones.
pub fn bitwise_not<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    integers_only(cx)?;
    let x = cx.input(0)?;
    if let Some(data) = small_constant(&x) {
        let folded = folding::elementwise_int(&[&data], x.element, |v| Ok(!v[0]))?;
        return Ok(vec![Slot::constant(folded)]);
    }
    let value = cx.value(0)?;
    let r#type = cx.tensor_type(&x.shape, x.element);
    let ones = cx.scalar_attr(x.element, -1.0);
    let all_ones = cx.emit(glow_graph::splat(cx.context, r#type, ones, cx.location).into());
    let out = cx.emit(glow_graph::xor(cx.context, value, all_ones, cx.location).into());
    Ok(vec![Slot::value(out, x.shape, x.element)])
}
