//! LpPool as the node suite's expected outputs define it: the sum of |x|^p over each
//! zero-padded window (an average pool counting the pads, times the window's element
//! count), to the power 1/p (p = 1: the sum of magnitudes; p = 2: a square root).

use super::{
    compose::{bin, scalar, un, Bin, Un},
    nn::pool_of,
};
use crate::builder::{Converted, NodeContext};

pub fn lp_pool<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let x = cx.input(0)?;
    if !x.element.is_float() {
        return Err(format!(
            "{:?} inputs are not supported (floats only)",
            x.element
        ));
    }
    let p = cx.attr_i("p", 2);
    if p < 1 {
        return Err(format!("p = {p}; LpPool needs p >= 1"));
    }
    let kernel = cx
        .attr_ints("kernel_shape")
        .ok_or("missing 'kernel_shape'")?;
    let count: i64 = kernel.iter().product();
    let e = x.element;
    let magnitude = un(cx, Un::Abs, &x)?;
    let powered = match p {
        1 => magnitude,
        2 => bin(cx, Bin::Mul, &magnitude, &magnitude)?,
        _ => bin(cx, Bin::Pow, &magnitude, &scalar(e, p as f64))?,
    };
    let mean = pool_of(cx, powered, false, true)?.remove(0);
    let total = bin(cx, Bin::Mul, &mean, &scalar(e, count as f64))?;
    let out = match p {
        1 => total,
        2 => un(cx, Un::Sqrt, &total)?,
        _ => bin(cx, Bin::Pow, &total, &scalar(e, 1.0 / p as f64))?,
    };
    Ok(vec![out])
}
