//! The recurrent layers LSTM, GRU and RNN, unrolled over their (static) sequence: the
//! input projection of every step is one matmul before the loop, as onnxruntime does
//! it; each step is a matmul of the hidden state with the recurrence weights, gate
//! slices and activations. Directions forward, reverse and bidirectional; layouts 0
//! (time-major) and 1 (batch-major); initial states, biases, LSTM peepholes, `clip`,
//! GRU's `linear_before_reset`, the activations ONNX lists with their alpha / beta, and
//! `sequence_lens` (a step past a sequence's length keeps its state and writes zeros
//! to Y; lengths are read as clamped to [0, T]: a zero-length sequence returns its
//! initial state, where onnxruntime returns zeros, and onnxruntime refuses lengths
//! above T). Each direction of each step is the same kernels with other
//! buffers, which glow-outline-kernels compiles once.

mod activations;

use super::compose::{bin, concat, matmul, reshape, scalar, select, slice, transpose, Bin};
use crate::{
    builder::{Converted, NodeContext, Slot},
    tensor::TensorData,
};
use activations::{activate, activations, Activation};

/// `x` limited to [-clip, clip] when the node has a clip.
fn clipped<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    x: &Slot<'c, 'a>,
    clip: Option<f64>,
) -> Result<Slot<'c, 'a>, String> {
    match clip {
        None => Ok(x.clone()),
        Some(c) => {
            let low = bin(cx, Bin::Max, x, &scalar(x.element, -c))?;
            bin(cx, Bin::Min, &low, &scalar(x.element, c))
        }
    }
}

/// The longest sequence (steps times directions) unrolled: each step is ~15-25 ops.
const MAX_STEPS: i64 = 4096;

/// Which recurrent layer.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Cell {
    Lstm,
    Gru,
    Rnn,
}

impl Cell {
    /// Gates per direction (rows of W and R in hidden-size blocks).
    fn gates(self) -> i64 {
        match self {
            Cell::Lstm => 4,
            Cell::Gru => 3,
            Cell::Rnn => 1,
        }
    }

    /// ONNX's default activations of one direction.
    pub(super) fn default_activations(self) -> &'static [&'static str] {
        match self {
            Cell::Lstm => &["Sigmoid", "Tanh", "Tanh"],
            Cell::Gru => &["Sigmoid", "Tanh"],
            Cell::Rnn => &["Tanh"],
        }
    }
}

/// Shapes and inputs common to the three layers, in time-major layout.
struct Layer<'c, 'a> {
    cell: Cell,
    /// [T, B, I]
    x: Slot<'c, 'a>,
    w: Slot<'c, 'a>,
    r: Slot<'c, 'a>,
    b: Option<Slot<'c, 'a>>,
    /// [D, B, H]
    initial_h: Option<Slot<'c, 'a>>,
    initial_c: Option<Slot<'c, 'a>>,
    peepholes: Option<Slot<'c, 'a>>,
    /// [B, 1] bool per step when some sequence is shorter than T: lens > t.
    lens: Option<Slot<'c, 'a>>,
    steps: i64,
    batch: i64,
    hidden: i64,
    directions: i64,
    clip: Option<f64>,
    activations: Vec<Activation>,
    linear_before_reset: bool,
}

fn expect_shape(what: &str, slot: &Slot, shape: &[i64]) -> Result<(), String> {
    if slot.shape != shape {
        return Err(format!(
            "{what} has shape {:?}, expected {shape:?}",
            slot.shape
        ));
    }
    Ok(())
}

fn layer<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, cell: Cell) -> Result<Layer<'c, 'a>, String> {
    let x = cx.input(0)?;
    if !x.element.is_float() {
        return Err(format!(
            "{:?} inputs are not supported (floats only)",
            x.element
        ));
    }
    if x.shape.len() != 3 {
        return Err(format!("X has shape {:?}; it needs rank 3", x.shape));
    }
    let batch_major = cx.attr_flag("layout", false)?;
    let x = if batch_major {
        transpose(cx, &x, &[1, 0, 2])?
    } else {
        x
    };
    let (steps, batch, input) = (x.shape[0], x.shape[1], x.shape[2]);
    let directions = match cx.attr_s("direction", "forward").as_str() {
        "forward" | "reverse" => 1,
        "bidirectional" => 2,
        other => {
            return Err(format!(
                "direction '{other}' is not forward, reverse or bidirectional"
            ))
        }
    };
    let (w, r) = (cx.input(1)?, cx.input(2)?);
    let rows = w.shape.get(1).copied().unwrap_or(0);
    let hidden = cx.attr_i("hidden_size", rows / cell.gates());
    let gh = cell.gates() * hidden;
    if hidden <= 0 {
        return Err(format!("hidden_size {hidden} is not positive"));
    }
    expect_shape("W", &w, &[directions, gh, input])?;
    expect_shape("R", &r, &[directions, gh, hidden])?;
    if steps * directions > MAX_STEPS {
        return Err(format!(
            "{steps} steps in {directions} direction(s) exceed the {MAX_STEPS} steps glow-import unrolls"
        ));
    }
    let optional =
        |cx: &mut NodeContext<'c, 'a, '_>, i: usize| -> Result<Option<Slot<'c, 'a>>, String> {
            if cx.has_input(i) {
                cx.input(i).map(Some)
            } else {
                Ok(None)
            }
        };
    let b = optional(cx, 3)?;
    if let Some(b) = &b {
        expect_shape("B", b, &[directions, 2 * gh])?;
    }
    let lens = optional(cx, 4)?;
    let state = |cx: &mut NodeContext<'c, 'a, '_>,
                 i: usize,
                 what: &str|
     -> Result<Option<Slot<'c, 'a>>, String> {
        let Some(s) = optional(cx, i)? else {
            return Ok(None);
        };
        let s = if batch_major {
            transpose(cx, &s, &[1, 0, 2])?
        } else {
            s
        };
        expect_shape(what, &s, &[directions, batch, hidden])?;
        Ok(Some(s))
    };
    let initial_h = state(cx, 5, "initial_h")?;
    let (initial_c, peepholes) = if cell == Cell::Lstm {
        if cx.attr_flag("input_forget", false)? {
            return Err(
                "input_forget = 1 (coupled input and forget gates) is not supported".into(),
            );
        }
        let p = optional(cx, 7)?;
        if let Some(p) = &p {
            expect_shape("P", p, &[directions, 3 * hidden])?;
        }
        (state(cx, 6, "initial_c")?, p)
    } else {
        (None, None)
    };
    let lens = match lens {
        Some(lens) => {
            expect_shape("sequence_lens", &lens, &[batch])?;
            let full = lens
                .constant
                .as_ref()
                .is_some_and(|data| data.to_i64s().iter().all(|l| *l == steps));
            (!full)
                .then(|| reshape(cx, &lens, &[batch, 1]))
                .transpose()?
        }
        None => None,
    };
    let clip = cx
        .has_attr("clip")
        .then(|| f64::from(cx.attr_f("clip", 0.0)));
    Ok(Layer {
        cell,
        x,
        w,
        r,
        b,
        initial_h,
        initial_c,
        peepholes,
        lens,
        steps,
        batch,
        hidden,
        directions,
        clip,
        activations: activations(cx, cell, directions)?,
        linear_before_reset: cx.attr_i("linear_before_reset", 0) != 0,
    })
}

/// Row `d` of a per-direction tensor, without its direction axis.
fn direction<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: &Slot<'c, 'a>,
    d: i64,
) -> Result<Slot<'c, 'a>, String> {
    let mut start = vec![0; a.shape.len()];
    start[0] = d;
    let mut sizes = a.shape.clone();
    sizes[0] = 1;
    let row = slice(cx, a, &start, &sizes)?;
    reshape(cx, &row, &a.shape[1..])
}

/// One direction's outputs: Y [T, 1, B, H], the last H [1, B, H] and C [1, B, H].
type DirectionOutputs<'c, 'a> = (Slot<'c, 'a>, Slot<'c, 'a>, Option<Slot<'c, 'a>>);

fn run_direction<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    layer: &Layer<'c, 'a>,
    d: i64,
    reverse: bool,
) -> Result<DirectionOutputs<'c, 'a>, String> {
    let (t_count, b, h) = (layer.steps, layer.batch, layer.hidden);
    let e = layer.x.element;
    let gh = layer.cell.gates() * h;
    let input = layer.x.shape[2];
    let w = direction(cx, &layer.w, d)?;
    let wt = transpose(cx, &w, &[1, 0])?;
    let r = direction(cx, &layer.r, d)?;
    // Biases: W's and R's added to the input projection, except GRU's R bias of the
    // candidate gate with linear_before_reset, which the reset gate scales.
    let zeros = |n: i64| Slot::constant(TensorData::from_f64s(e, vec![n], &vec![0.0; n as usize]));
    let (input_bias, candidate_bias) = match &layer.b {
        Some(bias) => {
            let bias = direction(cx, bias, d)?;
            let wb = slice(cx, &bias, &[0], &[gh])?;
            let rb = slice(cx, &bias, &[gh], &[gh])?;
            if layer.cell == Cell::Gru && layer.linear_before_reset {
                let rb_zr = slice(cx, &rb, &[0], &[2 * h])?;
                let rb_zr = concat(cx, &[rb_zr, zeros(h)], 0)?;
                let rb_h = slice(cx, &rb, &[2 * h], &[h])?;
                (Some(bin(cx, Bin::Add, &wb, &rb_zr)?), Some(rb_h))
            } else {
                (Some(bin(cx, Bin::Add, &wb, &rb)?), None)
            }
        }
        None => (None, None),
    };
    let flat_x = reshape(cx, &layer.x, &[t_count * b, input])?;
    let mut projected = matmul(cx, &flat_x, &wt)?;
    if let Some(bias) = &input_bias {
        projected = bin(cx, Bin::Add, &projected, bias)?;
    }
    let projected = reshape(cx, &projected, &[t_count, b, gh])?;
    // Recurrence weights transposed: [H, G*H]; GRU's candidate block apart.
    let (rt, rt_candidate) = if layer.cell == Cell::Gru {
        let zr = slice(cx, &r, &[0, 0], &[2 * h, h])?;
        let candidate = slice(cx, &r, &[2 * h, 0], &[h, h])?;
        (
            transpose(cx, &zr, &[1, 0])?,
            Some(transpose(cx, &candidate, &[1, 0])?),
        )
    } else {
        (transpose(cx, &r, &[1, 0])?, None)
    };
    let zero_state = || {
        Slot::constant(TensorData::from_f64s(
            e,
            vec![b, h],
            &vec![0.0; (b * h) as usize],
        ))
    };
    let mut hidden = match &layer.initial_h {
        Some(s) => direction(cx, s, d)?,
        None => zero_state(),
    };
    let mut cell_state = match &layer.initial_c {
        Some(s) => direction(cx, s, d)?,
        None => zero_state(),
    };
    let peephole =
        |cx: &mut NodeContext<'c, 'a, '_>, k: i64| -> Result<Option<Slot<'c, 'a>>, String> {
            match &layer.peepholes {
                Some(p) => {
                    let p = direction(cx, p, d)?;
                    slice(cx, &p, &[k * h], &[h]).map(Some)
                }
                None => Ok(None),
            }
        };
    let (p_i, p_o, p_f) = (peephole(cx, 0)?, peephole(cx, 1)?, peephole(cx, 2)?);
    let per = layer.cell.default_activations().len();
    let acts = &layer.activations[d as usize * per..(d as usize + 1) * per];
    let mut ys: Vec<Option<Slot>> = vec![None; t_count as usize];
    let order: Vec<i64> = if reverse {
        (0..t_count).rev().collect()
    } else {
        (0..t_count).collect()
    };
    for t in order {
        let step = slice(cx, &projected, &[t, 0, 0], &[1, b, gh])?;
        let step = reshape(cx, &step, &[b, gh])?;
        let recurrent = matmul(cx, &hidden, &rt)?;
        let gate = |cx: &mut NodeContext<'c, 'a, '_>, from: &Slot<'c, 'a>, k: i64| {
            slice(cx, from, &[0, k * h], &[b, h])
        };
        let (new_hidden, new_cell) = match layer.cell {
            Cell::Lstm => {
                let sum = bin(cx, Bin::Add, &step, &recurrent)?;
                let mut i = gate(cx, &sum, 0)?;
                let mut o = gate(cx, &sum, 1)?;
                let mut f = gate(cx, &sum, 2)?;
                let c = gate(cx, &sum, 3)?;
                if let Some(p) = &p_i {
                    let term = bin(cx, Bin::Mul, &cell_state, p)?;
                    i = bin(cx, Bin::Add, &i, &term)?;
                }
                if let Some(p) = &p_f {
                    let term = bin(cx, Bin::Mul, &cell_state, p)?;
                    f = bin(cx, Bin::Add, &f, &term)?;
                }
                let i = clipped(cx, &i, layer.clip)?;
                let i = activate(cx, &acts[0], &i)?;
                let f = clipped(cx, &f, layer.clip)?;
                let f = activate(cx, &acts[0], &f)?;
                let c = clipped(cx, &c, layer.clip)?;
                let c = activate(cx, &acts[1], &c)?;
                let kept = bin(cx, Bin::Mul, &f, &cell_state)?;
                let added = bin(cx, Bin::Mul, &i, &c)?;
                let new_cell = bin(cx, Bin::Add, &kept, &added)?;
                if let Some(p) = &p_o {
                    let term = bin(cx, Bin::Mul, &new_cell, p)?;
                    o = bin(cx, Bin::Add, &o, &term)?;
                }
                let o = clipped(cx, &o, layer.clip)?;
                let o = activate(cx, &acts[0], &o)?;
                let squashed = activate(cx, &acts[2], &new_cell)?;
                (bin(cx, Bin::Mul, &o, &squashed)?, Some(new_cell))
            }
            Cell::Gru => {
                let step_zr = slice(cx, &step, &[0, 0], &[b, 2 * h])?;
                let sum = bin(cx, Bin::Add, &step_zr, &recurrent)?;
                let z = gate(cx, &sum, 0)?;
                let z = clipped(cx, &z, layer.clip)?;
                let z = activate(cx, &acts[0], &z)?;
                let reset = gate(cx, &sum, 1)?;
                let reset = clipped(cx, &reset, layer.clip)?;
                let reset = activate(cx, &acts[0], &reset)?;
                let rt_candidate = rt_candidate.as_ref().expect("GRU has a candidate block");
                let recurrent_candidate = if layer.linear_before_reset {
                    let mut linear = matmul(cx, &hidden, rt_candidate)?;
                    if let Some(bias) = &candidate_bias {
                        linear = bin(cx, Bin::Add, &linear, bias)?;
                    }
                    bin(cx, Bin::Mul, &reset, &linear)?
                } else {
                    let gated = bin(cx, Bin::Mul, &reset, &hidden)?;
                    matmul(cx, &gated, rt_candidate)?
                };
                let candidate = gate(cx, &step, 2)?;
                let candidate = bin(cx, Bin::Add, &candidate, &recurrent_candidate)?;
                let candidate = clipped(cx, &candidate, layer.clip)?;
                let candidate = activate(cx, &acts[1], &candidate)?;
                // (1 - z) candidate + z H = candidate + z (H - candidate)
                let difference = bin(cx, Bin::Sub, &hidden, &candidate)?;
                let blended = bin(cx, Bin::Mul, &z, &difference)?;
                (bin(cx, Bin::Add, &candidate, &blended)?, None)
            }
            Cell::Rnn => {
                let sum = bin(cx, Bin::Add, &step, &recurrent)?;
                let sum = clipped(cx, &sum, layer.clip)?;
                (activate(cx, &acts[0], &sum)?, None)
            }
        };
        let y = match &layer.lens {
            Some(lens) => {
                // Steps past a sequence's end keep its state and write zeros.
                let position = Slot::constant(TensorData::from_i64s(lens.element, vec![], &[t]));
                let running = bin(cx, Bin::Less, &position, lens)?;
                hidden = select(cx, &running, &new_hidden, &hidden)?;
                if let Some(c) = &new_cell {
                    cell_state = select(cx, &running, c, &cell_state)?;
                }
                select(cx, &running, &new_hidden, &scalar(e, 0.0))?
            }
            None => {
                hidden = new_hidden.clone();
                if let Some(c) = new_cell {
                    cell_state = c;
                }
                new_hidden
            }
        };
        ys[t as usize] = Some(reshape(cx, &y, &[1, 1, b, h])?);
    }
    let ys: Vec<Slot> = ys.into_iter().map(|y| y.expect("every step ran")).collect();
    let y = concat(cx, &ys, 0)?;
    let last_h = reshape(cx, &hidden, &[1, b, h])?;
    let last_c = if layer.cell == Cell::Lstm {
        Some(reshape(cx, &cell_state, &[1, b, h])?)
    } else {
        None
    };
    Ok((y, last_h, last_c))
}

fn recurrent<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, cell: Cell) -> Converted<'c, 'a> {
    let layer = layer(cx, cell)?;
    let reverse_only = cx.attr_s("direction", "forward") == "reverse";
    let mut ys = Vec::new();
    let mut hs = Vec::new();
    let mut cs = Vec::new();
    for d in 0..layer.directions {
        let (y, h, c) = run_direction(cx, &layer, d, reverse_only || d == 1)?;
        ys.push(y);
        hs.push(h);
        cs.extend(c);
    }
    let y = concat(cx, &ys, 1)?;
    let y_h = concat(cx, &hs, 0)?;
    let y_c = if cs.is_empty() {
        None
    } else {
        Some(concat(cx, &cs, 0)?)
    };
    let mut outputs = if cx.attr_flag("layout", false)? {
        // Batch-major: Y [B, T, D, H], the states [B, D, H].
        vec![
            transpose(cx, &y, &[2, 0, 1, 3])?,
            transpose(cx, &y_h, &[1, 0, 2])?,
        ]
    } else {
        vec![y, y_h]
    };
    if let Some(c) = y_c {
        let c = if cx.attr_flag("layout", false)? {
            transpose(cx, &c, &[1, 0, 2])?
        } else {
            c
        };
        outputs.push(c);
    }
    Ok(outputs)
}

/// LSTM (gates i, o, f, c).
pub fn lstm<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    recurrent(cx, Cell::Lstm)
}

/// GRU (gates z, r, h).
pub fn gru<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    recurrent(cx, Cell::Gru)
}

/// RNN (one gate).
pub fn rnn<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    recurrent(cx, Cell::Rnn)
}
