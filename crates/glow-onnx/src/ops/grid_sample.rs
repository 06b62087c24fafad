//! GridSample (opsets 16-22, 1 to 3 spatial dimensions) as gathers: the grid's
//! normalized coordinates are mapped to input positions (`align_corners`), rounded
//! (nearest) and brought inside the input by the padding mode (border: clamped;
//! reflection: mirrored at the borders as often as needed); then each interpolation
//! tap (1 for nearest, 2 per dimension for linear, 4 for cubic with Keys' a = -0.75)
//! is one `gather_elements` of the input flattened to [N, C, positions], weighted and
//! summed. A tap outside the input reads zeros (padding "zeros"), or the clamped /
//! mirrored position; indices are clamped into the input before the gather, so no
//! grid value makes the code read outside it. As ONNX's reference implementation,
//! except that cubic taps are padded one by one, as PyTorch and onnxruntime do.
//! AffineGrid, which makes the grids of spatial transformers, is here too.

use super::{
    broadcast::broadcast_to,
    compose::{bin, convert, reshape, scalar, select, slice, un, Bin, Un},
};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
};
use glow_dialects::ods::glow_graph;

/// Spatial dimensions GridSample takes (cubic reads 4^r taps).
const MAX_SPATIAL: usize = 3;

/// Keys' cubic convolution parameter, as ONNX's reference (and PyTorch) use it.
const CUBIC_ALPHA: f64 = -0.75;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Nearest,
    Linear,
    Cubic,
}

#[derive(Clone, Copy, PartialEq)]
enum Padding {
    Zeros,
    Border,
    Reflection,
}

type Result<T> = std::result::Result<T, String>;

/// `v` mirrored at `low` and `high` until it lies between them (ONNX's _gs_reflect).
fn reflect<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    v: &Slot<'c, 'a>,
    low: f64,
    high: f64,
) -> Result<Slot<'c, 'a>> {
    let e = v.element;
    let span = high - low;
    if span <= 0.0 {
        return scalar_like(cx, v, low);
    }
    let below = bin(cx, Bin::Less, v, &scalar(e, low))?;
    let above = bin(cx, Bin::Less, &scalar(e, high), v)?;
    let under = bin(cx, Bin::Sub, &scalar(e, low), v)?;
    let over = bin(cx, Bin::Sub, v, &scalar(e, high))?;
    let distance = select(cx, &below, &under, &over)?;
    let turns = bin(cx, Bin::Div, &distance, &scalar(e, span))?;
    let turns = un(cx, Un::Floor, &turns)?;
    let travelled = bin(cx, Bin::Mul, &turns, &scalar(e, span))?;
    let rest = bin(cx, Bin::Sub, &distance, &travelled)?;
    let halves = bin(cx, Bin::Mul, &turns, &scalar(e, 0.5))?;
    let halves = un(cx, Un::Floor, &halves)?;
    let pairs = bin(cx, Bin::Mul, &halves, &scalar(e, 2.0))?;
    let odd = bin(cx, Bin::Sub, &turns, &pairs)?;
    let even = bin(cx, Bin::Less, &odd, &scalar(e, 0.5))?;
    let from_low = bin(cx, Bin::Add, &rest, &scalar(e, low))?;
    let rest_neg = un(cx, Un::Neg, &rest)?;
    let from_high = bin(cx, Bin::Add, &rest_neg, &scalar(e, high))?;
    let low_side = select(cx, &even, &from_low, &from_high)?;
    let high_side = select(cx, &even, &from_high, &from_low)?;
    let outside_high = select(cx, &above, &high_side, v)?;
    select(cx, &below, &low_side, &outside_high)
}

/// A tensor of `v`'s shape filled with `value`.
fn scalar_like<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    v: &Slot<'c, 'a>,
    value: f64,
) -> Result<Slot<'c, 'a>> {
    let zero = bin(cx, Bin::Mul, v, &scalar(v.element, 0.0))?;
    bin(cx, Bin::Add, &zero, &scalar(v.element, value))
}

/// `v` rounded toward zero, in floats (a NaN or a huge value stays a float: only
/// [`index`] turns positions into integers, after clamping them).
fn truncate<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, v: &Slot<'c, 'a>) -> Result<Slot<'c, 'a>> {
    let negative = bin(cx, Bin::Less, v, &scalar(v.element, 0.0))?;
    let down = un(cx, Un::Floor, v)?;
    let flipped = un(cx, Un::Neg, v)?;
    let up = un(cx, Un::Floor, &flipped)?;
    let up = un(cx, Un::Neg, &up)?;
    select(cx, &negative, &up, &down)
}

/// The integer index of position `v` in a dimension of `length`: clamped into it, a
/// NaN position (from a NaN grid value) read as 0, so any grid reads inside the input.
fn index<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    v: &Slot<'c, 'a>,
    length: f64,
) -> Result<Slot<'c, 'a>> {
    let inside = clamp(cx, v, 0.0, length - 1.0)?;
    let number = bin(cx, Bin::Equal, &inside, &inside)?;
    let safe = select(cx, &number, &inside, &scalar(v.element, 0.0))?;
    convert(cx, &safe, Element::I64)
}

fn clamp<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    v: &Slot<'c, 'a>,
    low: f64,
    high: f64,
) -> Result<Slot<'c, 'a>> {
    let raised = bin(cx, Bin::Max, v, &scalar(v.element, low))?;
    bin(cx, Bin::Min, &raised, &scalar(v.element, high))
}

/// Keys' cubic weights of the taps at -1, 0, 1, 2 for the fraction `t` in [0, 1).
fn cubic_weights<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    t: &Slot<'c, 'a>,
) -> Result<Vec<Slot<'c, 'a>>> {
    let e = t.element;
    let a = CUBIC_ALPHA;
    // Outer taps (distance d in [1, 2)): ((a d - 5a) d + 8a) d - 4a.
    let outer = |cx: &mut NodeContext<'c, 'a, '_>, d: &Slot<'c, 'a>| -> Result<Slot<'c, 'a>> {
        let p = bin(cx, Bin::Mul, d, &scalar(e, a))?;
        let p = bin(cx, Bin::Add, &p, &scalar(e, -5.0 * a))?;
        let p = bin(cx, Bin::Mul, &p, d)?;
        let p = bin(cx, Bin::Add, &p, &scalar(e, 8.0 * a))?;
        let p = bin(cx, Bin::Mul, &p, d)?;
        bin(cx, Bin::Add, &p, &scalar(e, -4.0 * a))
    };
    // Inner taps (distance d in [0, 1]): ((a + 2) d - (a + 3)) d d + 1.
    let inner = |cx: &mut NodeContext<'c, 'a, '_>, d: &Slot<'c, 'a>| -> Result<Slot<'c, 'a>> {
        let p = bin(cx, Bin::Mul, d, &scalar(e, a + 2.0))?;
        let p = bin(cx, Bin::Add, &p, &scalar(e, -(a + 3.0)))?;
        let p = bin(cx, Bin::Mul, &p, d)?;
        let p = bin(cx, Bin::Mul, &p, d)?;
        bin(cx, Bin::Add, &p, &scalar(e, 1.0))
    };
    let t_plus_one = bin(cx, Bin::Add, t, &scalar(e, 1.0))?;
    let neg_t = un(cx, Un::Neg, t)?;
    let one_minus_t = bin(cx, Bin::Add, &neg_t, &scalar(e, 1.0))?;
    let two_minus_t = bin(cx, Bin::Add, &neg_t, &scalar(e, 2.0))?;
    Ok(vec![
        outer(cx, &t_plus_one)?,
        inner(cx, t)?,
        inner(cx, &one_minus_t)?,
        outer(cx, &two_minus_t)?,
    ])
}

/// One interpolation tap along one dimension: its (float, integral) position and
/// weight, `None` meaning 1.
struct Tap<'c, 'a> {
    position: Slot<'c, 'a>,
    weight: Option<Slot<'c, 'a>>,
}

pub fn grid_sample<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let (x, grid) = (cx.input(0)?, cx.input(1)?);
    if !x.element.is_float() || !grid.element.is_float() {
        return Err("X and grid must be float tensors".into());
    }
    let rank = x.shape.len();
    let spatial = rank.saturating_sub(2);
    if spatial == 0 || spatial > MAX_SPATIAL {
        return Err(format!(
            "X has shape {:?}; GridSample takes 1 to {MAX_SPATIAL} spatial dimensions",
            x.shape
        ));
    }
    if grid.shape.len() != rank
        || grid.shape[0] != x.shape[0]
        || grid.shape[rank - 1] != spatial as i64
    {
        return Err(format!(
            "grid has shape {:?}; X {:?} needs [{}, ..., {spatial}] of rank {rank}",
            grid.shape, x.shape, x.shape[0]
        ));
    }
    let mode = match cx.attr_s("mode", "linear").as_str() {
        "linear" | "bilinear" => Mode::Linear,
        "nearest" => Mode::Nearest,
        "cubic" | "bicubic" => Mode::Cubic,
        other => return Err(format!("mode '{other}' is not linear, nearest or cubic")),
    };
    let padding = match cx.attr_s("padding_mode", "zeros").as_str() {
        "zeros" => Padding::Zeros,
        "border" => Padding::Border,
        "reflection" => Padding::Reflection,
        other => {
            return Err(format!(
                "padding_mode '{other}' is not zeros, border or reflection"
            ))
        }
    };
    let align = cx.attr_flag("align_corners", false)?;
    let (n, c) = (x.shape[0], x.shape[1]);
    let dims = x.shape[2..].to_vec();
    let out = grid.shape[1..rank - 1].to_vec();
    let q: i64 = out.iter().product();
    let p: i64 = dims.iter().product();
    let g = convert(cx, &grid, Element::F32)?;
    let g = reshape(cx, &g, &[n, q, spatial as i64])?;
    let f = Element::F32;
    // Per spatial dimension (X's order; the grid lists them last first): its taps.
    let mut taps: Vec<Vec<Tap>> = Vec::new();
    for (d, &length) in dims.iter().enumerate() {
        let component = slice(cx, &g, &[0, 0, (spatial - 1 - d) as i64], &[n, q, 1])?;
        let normalized = reshape(cx, &component, &[n, q])?;
        let l = length as f64;
        let shifted = bin(cx, Bin::Add, &normalized, &scalar(f, 1.0))?;
        // In the reference's order of f32 operations: (g + 1) / 2 * (L - 1), or
        // ((g + 1) L - 1) / 2.
        let mut v = if align {
            let half = bin(cx, Bin::Mul, &shifted, &scalar(f, 0.5))?;
            bin(cx, Bin::Mul, &half, &scalar(f, l - 1.0))?
        } else {
            let scaled = bin(cx, Bin::Mul, &shifted, &scalar(f, l))?;
            let less = bin(cx, Bin::Sub, &scaled, &scalar(f, 1.0))?;
            bin(cx, Bin::Mul, &less, &scalar(f, 0.5))?
        };
        if mode == Mode::Nearest {
            v = un(cx, Un::Round, &v)?;
        }
        let (low, high) = if align {
            (0.0, l - 1.0)
        } else {
            (-0.5, l - 0.5)
        };
        // Cubic taps take the padding one by one (as PyTorch and onnxruntime do; ONNX's
        // reference first clamps / mirrors the position itself, which the node suite
        // does not exercise: its cubic cases pad with zeros).
        v = match padding {
            _ if mode == Mode::Cubic => v,
            Padding::Zeros => v,
            Padding::Border => {
                // Only positions outside [low, high] move (those inside stay, and a tap
                // outside the input is clamped when it is read).
                let below = bin(cx, Bin::Less, &v, &scalar(f, low))?;
                let above = bin(cx, Bin::Less, &scalar(f, high), &v)?;
                let outside = bin(cx, Bin::Or, &below, &above)?;
                let clamped = clamp(cx, &v, 0.0, l - 1.0)?;
                select(cx, &outside, &clamped, &v)?
            }
            Padding::Reflection => reflect(cx, &v, low, high)?,
        };
        let dimension_taps = match mode {
            Mode::Nearest => {
                // Truncated toward zero, as the reference's int cast.
                vec![Tap {
                    position: truncate(cx, &v)?,
                    weight: None,
                }]
            }
            Mode::Linear | Mode::Cubic => {
                let base = un(cx, Un::Floor, &v)?;
                let t = bin(cx, Bin::Sub, &v, &base)?;
                let (offsets, weights): (Vec<f64>, Vec<Slot>) = if mode == Mode::Linear {
                    let neg_t = un(cx, Un::Neg, &t)?;
                    let one_minus_t = bin(cx, Bin::Add, &neg_t, &scalar(f, 1.0))?;
                    (vec![0.0, 1.0], vec![one_minus_t, t])
                } else {
                    (vec![-1.0, 0.0, 1.0, 2.0], cubic_weights(cx, &t)?)
                };
                let mut list = Vec::new();
                for (offset, weight) in offsets.into_iter().zip(weights) {
                    let position = bin(cx, Bin::Add, &base, &scalar(f, offset))?;
                    list.push(Tap {
                        position,
                        weight: Some(weight),
                    });
                }
                list
            }
        };
        // Where each tap reads: zeros outside (a weight of 0), or the clamped / mirrored
        // position; the index is clamped into the dimension in every mode.
        let mut read = Vec::new();
        for tap in dimension_taps {
            let mut weight = tap.weight;
            let position = match padding {
                Padding::Zeros => {
                    let below = bin(cx, Bin::Less, &tap.position, &scalar(f, 0.0))?;
                    let above = bin(cx, Bin::Less, &scalar(f, l - 1.0), &tap.position)?;
                    let outside = bin(cx, Bin::Or, &below, &above)?;
                    let base = match &weight {
                        Some(w) => w.clone(),
                        None => scalar_like(cx, &tap.position, 1.0)?,
                    };
                    weight = Some(select(cx, &outside, &scalar(f, 0.0), &base)?);
                    tap.position
                }
                Padding::Border => tap.position,
                Padding::Reflection => {
                    let mirrored = reflect(cx, &tap.position, low, high)?;
                    truncate(cx, &mirrored)?
                }
            };
            read.push(Tap {
                position: index(cx, &position, l)?,
                weight,
            });
        }
        taps.push(read);
    }
    // Every combination of one tap per dimension: a gather, weighted.
    let strides: Vec<i64> = (0..spatial)
        .map(|d| dims[d + 1..].iter().product())
        .collect();
    let flat_x = reshape(cx, &x, &[n, c, p])?;
    let flat_x_value = cx.materialize(&flat_x)?;
    let mut total: Option<Slot> = None;
    let mut choice = vec![0usize; spatial];
    loop {
        let mut index: Option<Slot> = None;
        let mut weight: Option<Slot> = None;
        for d in 0..spatial {
            let tap = &taps[d][choice[d]];
            let term = bin(
                cx,
                Bin::Mul,
                &tap.position,
                &scalar(Element::I64, strides[d] as f64),
            )?;
            index = Some(match index {
                None => term,
                Some(i) => bin(cx, Bin::Add, &i, &term)?,
            });
            if let Some(w) = &tap.weight {
                weight = Some(match weight {
                    None => w.clone(),
                    Some(acc) => bin(cx, Bin::Mul, &acc, w)?,
                });
            }
        }
        let index = reshape(cx, &index.expect("at least one dimension"), &[n, 1, q])?;
        let wide = broadcast_to(cx, &index, &[n, c, q])?;
        let r#type = cx.tensor_type(&[n, c, q], x.element);
        let axis = cx.i64_attr(2);
        let gathered = cx.emit(
            glow_graph::gather_elements(cx.context, r#type, flat_x_value, wide, axis, cx.location)
                .into(),
        );
        let gathered = Slot::value(gathered, vec![n, c, q], x.element);
        let term = match weight {
            Some(w) => {
                let w = convert(cx, &w, x.element)?;
                let w = reshape(cx, &w, &[n, 1, q])?;
                bin(cx, Bin::Mul, &gathered, &w)?
            }
            None => gathered,
        };
        total = Some(match total {
            None => term,
            Some(t) => bin(cx, Bin::Add, &t, &term)?,
        });
        // Next combination (odometer over the taps of each dimension).
        let mut d = spatial;
        loop {
            if d == 0 {
                let mut shape = vec![n, c];
                shape.extend(&out);
                let y = reshape(cx, &total.expect("one tap at least"), &shape)?;
                return Ok(vec![y]);
            }
            d -= 1;
            choice[d] += 1;
            if choice[d] < taps[d].len() {
                break;
            }
            choice[d] = 0;
        }
    }
}

/// AffineGrid (opset 20), GridSample's companion: the sampling grid of an affine
/// transform, as a batch_matmul of the homogeneous base grid (each position's
/// normalized x, y[, z], 1; `align_corners` as GridSample reads them) with theta^T.
pub fn affine_grid<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let theta = cx.input(0)?;
    let size = cx.constant_input(1, "size")?.to_i64s();
    if !theta.element.is_float() {
        return Err(format!(
            "{:?} theta is not supported (floats only)",
            theta.element
        ));
    }
    let spatial = match size.len() {
        4 => 2,
        5 => 3,
        n => {
            return Err(format!(
                "size has {n} entries; AffineGrid takes [N, C, H, W] or [N, C, D, H, W]"
            ))
        }
    };
    let n = size[0];
    let dims = &size[2..];
    if theta.shape != [n, spatial as i64, spatial as i64 + 1] {
        return Err(format!(
            "theta has shape {:?}, expected [{n}, {spatial}, {}]",
            theta.shape,
            spatial + 1
        ));
    }
    if dims.iter().any(|d| *d <= 0) {
        return Err(format!("size {size:?} has an empty spatial dimension"));
    }
    let align = cx.attr_flag("align_corners", false)?;
    let coordinate = |i: i64, length: i64| -> f64 {
        let (i, l) = (i as f64, length as f64);
        if align {
            if length == 1 {
                -1.0
            } else {
                -1.0 + i * (2.0 / (l - 1.0))
            }
        } else {
            let step = 2.0 / l;
            -1.0 + step / 2.0 + i * step
        }
    };
    let positions: i64 = dims.iter().product();
    let mut base = Vec::with_capacity((positions as usize) * (spatial + 1));
    for p in 0..positions {
        // Position p's index along each dimension (X's order), then x first.
        let mut rest = p;
        let mut index = vec![0i64; spatial];
        for d in (0..spatial).rev() {
            index[d] = rest % dims[d];
            rest /= dims[d];
        }
        for d in (0..spatial).rev() {
            base.push(coordinate(index[d], dims[d]));
        }
        base.push(1.0);
    }
    let homogeneous = spatial as i64 + 1;
    let base = Slot::constant(crate::tensor::TensorData::from_f64s(
        theta.element,
        vec![1, positions, homogeneous],
        &base,
    ));
    let base = broadcast_to(cx, &base, &[n, positions, homogeneous])?;
    let base = Slot::value(base, vec![n, positions, homogeneous], theta.element);
    let theta_t = super::compose::transpose(cx, &theta, &[0, 2, 1])?;
    let grid = super::compose::matmul(cx, &base, &theta_t)?;
    let mut shape = vec![n];
    shape.extend_from_slice(dims);
    shape.push(spatial as i64);
    Ok(vec![reshape(cx, &grid, &shape)?])
}
