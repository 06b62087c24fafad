//! CausalConvWithState (opset 27; the short convolution of Mamba and Gated DeltaNet):
//! the carried state (zeros when absent) is concatenated before the input along the
//! length, each output position is the sum over the k taps of that padded sequence
//! times its channel's weight (k slices, multiplied and added elementwise, which the
//! CPU pipeline fuses into one loop), plus the bias, optionally through SiLU; the new
//! state is the padded sequence's last k - 1 positions. Half-precision inputs are
//! computed in f32 and rounded once at the end, as the reference does.

use super::compose::{bin, concat, convert, reshape, slice, un, Bin, Un};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};

/// CausalConvWithState: see the module comment.
pub fn causal_conv_with_state<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    let weight = cx.input(1)?;
    let [batch, channels, length] = x.shape[..] else {
        return Err("the input is [batch, channels, length]".into());
    };
    let [weight_channels, 1, taps] = weight.shape[..] else {
        return Err("the weight is [channels, 1, k]".into());
    };
    if weight_channels != channels || taps < 1 {
        return Err(format!(
            "the weight is [{weight_channels}, 1, {taps}] for {channels} channels"
        ));
    }
    if !x.element.is_float() || weight.element != x.element {
        return Err("the input and weight are floats of one type".into());
    }
    let activation = cx.attr_s("activation", "none");
    let silu = match activation.as_str() {
        "silu" | "swish" => true,
        "none" => false,
        other => {
            return Err(format!(
                "activation '{other}' is not one of silu, swish, none"
            ))
        }
    };
    let element = x.element;
    let compute = match element {
        Element::F16 | Element::BF16 => Element::F32,
        other => other,
    };
    let (x, weight) = (convert(cx, &x, compute)?, convert(cx, &weight, compute)?);
    let state_shape = [batch, channels, taps - 1];
    let past = if cx.has_input(3) {
        let past = cx.input(3)?;
        if past.shape != state_shape {
            return Err(format!(
                "past_state is {:?}, not {state_shape:?}",
                past.shape
            ));
        }
        convert(cx, &past, compute)?
    } else {
        let zeros = vec![0.0; state_shape.iter().product::<i64>() as usize];
        Slot::constant(TensorData::from_f64s(compute, state_shape.to_vec(), &zeros))
    };
    let padded = if taps > 1 {
        concat(cx, &[past, x.clone()], 2)?
    } else {
        x.clone()
    };
    let mut sum: Option<Slot> = None;
    for tap in 0..taps {
        let window = slice(cx, &padded, &[0, 0, tap], &[batch, channels, length])?;
        let factor = slice(cx, &weight, &[0, 0, tap], &[channels, 1, 1])?;
        let factor = reshape(cx, &factor, &[1, channels, 1])?;
        let term = bin(cx, Bin::Mul, &window, &factor)?;
        sum = Some(match sum {
            None => term,
            Some(partial) => bin(cx, Bin::Add, &partial, &term)?,
        });
    }
    let mut out = sum.expect("at least one tap");
    if cx.has_input(2) {
        let bias = cx.input(2)?;
        if bias.shape != [channels] {
            return Err(format!("the bias is {:?}, not [{channels}]", bias.shape));
        }
        let bias = convert(cx, &bias, compute)?;
        let bias = reshape(cx, &bias, &[1, channels, 1])?;
        out = bin(cx, Bin::Add, &out, &bias)?;
    }
    if silu {
        let gate = un(cx, Un::Sigmoid, &out)?;
        out = bin(cx, Bin::Mul, &out, &gate)?;
    }
    let present = slice(cx, &padded, &[0, 0, length], &state_shape)?;
    Ok(vec![
        convert(cx, &out, element)?,
        convert(cx, &present, element)?,
    ])
}
