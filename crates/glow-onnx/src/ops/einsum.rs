//! Einsum as the ops it names: labels that appear in one operand only and not in the
//! output are summed out (reduce_sum), operands are contracted pairwise left to right
//! as one (batch_)matmul each — shared labels still needed later are the batch,
//! shared labels needed nowhere else are the reduction, the rest are rows and columns
//! (transposes and reshapes put them in that order) — and the result is transposed to
//! the output's label order. `...` stands for the same broadcast dimensions in every
//! term; an implicit output (no `->`) is the labels used once, in alphabetical order
//! after the ellipsis, as numpy. Repeated labels within one operand (diagonals) are
//! not supported.

use super::broadcast::broadcast_to;
use super::compose::{reduce, reshape, transpose, Reduction};
use crate::builder::{Converted, NodeContext, Slot};
use glow_dialects::ods::glow_graph;

/// An operand with one label per dimension.
struct Term<'c, 'a> {
    slot: Slot<'c, 'a>,
    labels: Vec<char>,
}

/// The label of broadcast (ellipsis) dimension `i` counted from the right.
fn ellipsis_label(i: usize) -> char {
    char::from_u32(0x100 + i as u32).expect("a valid char")
}

/// Labels of one term, with `...` expanded to `ellipsis` dimensions.
fn parse_term(text: &str, ellipsis: usize) -> Result<Vec<char>, String> {
    let (before, after) = match text.split_once("...") {
        Some((b, a)) => (b, Some(a)),
        None => (text, None),
    };
    let letters = |s: &str| -> Result<Vec<char>, String> {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphabetic() {
                    Ok(c)
                } else {
                    Err(format!("'{c}' is not a label (letters and ... only)"))
                }
            })
            .collect()
    };
    let mut labels = letters(before)?;
    if let Some(after) = after {
        labels.extend((0..ellipsis).rev().map(ellipsis_label));
        labels.extend(letters(after)?);
    }
    Ok(labels)
}

/// Sums `term` over `labels` (which it has).
fn sum_out<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    term: Term<'c, 'a>,
    labels: &[char],
) -> Result<Term<'c, 'a>, String> {
    let axes: Vec<usize> = (0..term.labels.len())
        .filter(|d| labels.contains(&term.labels[*d]))
        .collect();
    if axes.is_empty() {
        return Ok(term);
    }
    let slot = reduce(cx, Reduction::Sum, &term.slot, &axes, false)?;
    let labels = term
        .labels
        .iter()
        .filter(|l| !labels.contains(l))
        .copied()
        .collect();
    Ok(Term { slot, labels })
}

/// `term` transposed to `order` (a permutation of its labels) and reshaped to the
/// products of consecutive `groups` of it.
fn arrange<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    term: &Term<'c, 'a>,
    order: &[char],
    groups: &[usize],
) -> Result<Slot<'c, 'a>, String> {
    let perm: Vec<usize> = order
        .iter()
        .map(|l| {
            term.labels
                .iter()
                .position(|t| t == l)
                .expect("label of the term")
        })
        .collect();
    let moved = transpose(cx, &term.slot, &perm)?;
    let mut shape = Vec::new();
    let mut start = 0;
    for size in groups {
        shape.push(moved.shape[start..start + size].iter().product());
        start += size;
    }
    reshape(cx, &moved, &shape)
}

/// The contraction of `a` and `b`, keeping the labels in `needed`.
fn contract<'c, 'a>(
    cx: &mut NodeContext<'c, 'a, '_>,
    a: Term<'c, 'a>,
    b: Term<'c, 'a>,
    needed: &[char],
) -> Result<Term<'c, 'a>, String> {
    let shared: Vec<char> = a
        .labels
        .iter()
        .filter(|l| b.labels.contains(l))
        .copied()
        .collect();
    let batch: Vec<char> = shared
        .iter()
        .filter(|l| needed.contains(l))
        .copied()
        .collect();
    let reduced: Vec<char> = shared
        .iter()
        .filter(|l| !needed.contains(l))
        .copied()
        .collect();
    let rows: Vec<char> = a
        .labels
        .iter()
        .filter(|l| !shared.contains(l))
        .copied()
        .collect();
    let columns: Vec<char> = b
        .labels
        .iter()
        .filter(|l| !shared.contains(l))
        .copied()
        .collect();
    let size =
        |t: &Term, l: char| t.slot.shape[t.labels.iter().position(|x| *x == l).expect("label")];
    // Shared dimensions of size 1 on one side broadcast to the other's size.
    let widen = |cx: &mut NodeContext<'c, 'a, '_>, t: Term<'c, 'a>, other: &Term<'c, 'a>| {
        let shape: Vec<i64> = t
            .labels
            .iter()
            .zip(&t.slot.shape)
            .map(|(l, d)| {
                if shared.contains(l) && *d == 1 {
                    size(other, *l)
                } else {
                    *d
                }
            })
            .collect();
        if shape == t.slot.shape {
            return Ok::<_, String>(t);
        }
        let value = broadcast_to(cx, &t.slot, &shape)?;
        Ok(Term {
            slot: Slot::value(value, shape, t.slot.element),
            labels: t.labels,
        })
    };
    let a = widen(cx, a, &b)?;
    let b = widen(cx, b, &a)?;
    for l in &shared {
        if size(&a, *l) != size(&b, *l) {
            return Err(format!(
                "label '{l}' has sizes {} and {}",
                size(&a, *l),
                size(&b, *l)
            ));
        }
    }
    let (nb, nr, nc, nk) = (batch.len(), rows.len(), columns.len(), reduced.len());
    let lhs_order = [batch.clone(), rows.clone(), reduced.clone()].concat();
    let rhs_order = [batch.clone(), reduced.clone(), columns.clone()].concat();
    let lhs = arrange(cx, &a, &lhs_order, &[nb, nr, nk])?;
    let rhs = arrange(cx, &b, &rhs_order, &[nb, nk, nc])?;
    // Without batch labels the product is one matmul of the 2-D operands.
    let product = if lhs.shape[0] == 1 {
        let l = reshape(cx, &lhs, &lhs.shape[1..])?;
        let r = reshape(cx, &rhs, &rhs.shape[1..])?;
        let (l, r) = (cx.materialize(&l)?, cx.materialize(&r)?);
        cx.emit(glow_graph::matmul(cx.context, l, r, cx.location).into())
    } else {
        let (l, r) = (cx.materialize(&lhs)?, cx.materialize(&rhs)?);
        cx.emit(glow_graph::batch_matmul(cx.context, l, r, cx.location).into())
    };
    let product = Slot::value(product, cx.shape_of(product), a.slot.element);
    let mut shape: Vec<i64> = batch.iter().map(|l| size(&a, *l)).collect();
    shape.extend(rows.iter().map(|l| size(&a, *l)));
    shape.extend(columns.iter().map(|l| size(&b, *l)));
    let slot = reshape(cx, &product, &shape)?;
    Ok(Term {
        slot,
        labels: [batch, rows, columns].concat(),
    })
}

pub fn einsum<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    let equation: String = cx
        .attr_s("equation", "")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let (inputs, output) = match equation.split_once("->") {
        Some((i, o)) => (i.to_string(), Some(o.to_string())),
        None => (equation.clone(), None),
    };
    let texts: Vec<&str> = inputs.split(',').collect();
    if texts.len() != cx.input_count() {
        return Err(format!(
            "equation '{equation}' names {} operands, the node has {}",
            texts.len(),
            cx.input_count()
        ));
    }
    let mut terms = Vec::new();
    let mut ellipsis = 0;
    for (i, text) in texts.iter().enumerate() {
        let slot = cx.input(i)?;
        let explicit = text.replace("...", "").chars().count();
        let dims = if text.contains("...") {
            slot.shape.len().checked_sub(explicit).ok_or_else(|| {
                format!(
                    "operand {i} has rank {}, fewer than '{text}' names",
                    slot.shape.len()
                )
            })?
        } else {
            0
        };
        ellipsis = ellipsis.max(dims);
        let labels = parse_term(text, dims)?;
        if labels.len() != slot.shape.len() {
            return Err(format!(
                "operand {i} has rank {}, '{text}' names {}",
                slot.shape.len(),
                labels.len()
            ));
        }
        if (1..labels.len()).any(|d| labels[..d].contains(&labels[d])) {
            return Err(format!(
                "repeated labels in '{text}' (diagonals) are not supported"
            ));
        }
        terms.push(Term { slot, labels });
    }
    let output: Vec<char> = match output {
        Some(text) => parse_term(&text, ellipsis)?,
        None => {
            let all: Vec<char> = terms.iter().flat_map(|t| t.labels.clone()).collect();
            let mut once: Vec<char> = all
                .iter()
                .filter(|l| l.is_ascii_alphabetic() && all.iter().filter(|x| x == l).count() == 1)
                .copied()
                .collect();
            once.sort_unstable();
            let mut labels: Vec<char> = (0..ellipsis).rev().map(ellipsis_label).collect();
            labels.extend(once);
            labels
        }
    };
    for l in &output {
        if !terms.iter().any(|t| t.labels.contains(l)) {
            return Err(format!("output label '{l}' is in no operand"));
        }
    }
    // Sum out what only one operand has and the output does not.
    let labels_of: Vec<Vec<char>> = terms.iter().map(|t| t.labels.clone()).collect();
    let mut pending = Vec::new();
    for (i, term) in terms.into_iter().enumerate() {
        let only_here: Vec<char> = term
            .labels
            .iter()
            .filter(|l| !output.contains(l))
            .filter(|l| {
                !labels_of
                    .iter()
                    .enumerate()
                    .any(|(j, ls)| j != i && ls.contains(l))
            })
            .copied()
            .collect();
        pending.push(sum_out(cx, term, &only_here)?);
    }
    let mut pending = pending.into_iter();
    let mut result = pending.next().ok_or("Einsum needs at least one operand")?;
    let rest: Vec<Term> = pending.collect();
    for (i, next) in rest.into_iter().enumerate() {
        // Labels still needed: the output's and those of operands not yet contracted.
        let mut needed = output.clone();
        needed.extend(labels_of[i + 2..].iter().flatten().copied());
        result = contract(cx, result, next, &needed)?;
        // Labels of the result needed nowhere later are summed out.
        let unused: Vec<char> = result
            .labels
            .iter()
            .filter(|l| !needed.contains(l))
            .copied()
            .collect();
        result = sum_out(cx, result, &unused)?;
    }
    let perm: Vec<usize> = output
        .iter()
        .map(|l| {
            result
                .labels
                .iter()
                .position(|x| x == l)
                .expect("output label kept")
        })
        .collect();
    Ok(vec![transpose(cx, &result.slot, &perm)?])
}
