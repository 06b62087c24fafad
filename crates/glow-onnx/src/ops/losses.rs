//! The loss ops NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (log-softmax over
//! the classes, then the same loss; optionally the log-probabilities as a second
//! output), as ONNX's reference computes them: the input picked at each target class
//! by a `gather_elements` over [N, C, positions] (a target equal to `ignore_index` is
//! read at class 0 and contributes nothing), negated, scaled by the class weight
//! (`weight[target]`, the target clamped into the classes as numpy's `take(mode=clip)`),
//! then `none` / `sum` / `mean` (the weighted mean divides by the weights' sum). A
//! target outside the classes that is not `ignore_index` is reported by the gather's
//! runtime bounds check, as an index error.

use super::compose::{
    bin, convert, gather, reduce, reshape, scalar, select, un, Bin, Reduction, Un,
};
use crate::{
    builder::{Converted, NodeContext, Slot},
    element::Element,
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;

/// Which loss.
#[derive(Clone, Copy, PartialEq)]
enum Loss {
    NegativeLogLikelihood,
    SoftmaxCrossEntropy,
}

/// The elements of `shape` as one scalar of `element`.
fn count(shape: &[i64]) -> f64 {
    shape.iter().product::<i64>() as f64
}

fn loss<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>, kind: Loss) -> Converted<'c, 'a> {
    let (x, target) = (cx.input(0)?, cx.input(1)?);
    if !x.element.is_float() {
        return Err(format!(
            "{:?} scores are not supported (floats only)",
            x.element
        ));
    }
    if !matches!(target.element, Element::I32 | Element::I64) {
        return Err(format!(
            "{:?} targets are not supported (int32 / int64)",
            target.element
        ));
    }
    if x.shape.len() < 2 {
        return Err(format!("scores of shape {:?} need [N, C, ...]", x.shape));
    }
    let (n, classes) = (x.shape[0], x.shape[1]);
    let mut expected = vec![n];
    expected.extend_from_slice(&x.shape[2..]);
    if target.shape != expected {
        return Err(format!(
            "target has shape {:?}; scores {:?} need {expected:?}",
            target.shape, x.shape
        ));
    }
    let weight = if cx.has_input(2) {
        let w = cx.input(2)?;
        if w.shape != [classes] {
            return Err(format!(
                "weight has shape {:?}, expected [{classes}]",
                w.shape
            ));
        }
        Some(w)
    } else {
        None
    };
    let reduction = cx.attr_s("reduction", "mean");
    if !matches!(reduction.as_str(), "none" | "sum" | "mean") {
        return Err(format!("reduction '{reduction}' is not none, sum or mean"));
    }
    let ignore = cx
        .has_attr("ignore_index")
        .then(|| cx.attr_i("ignore_index", 0));
    let e = x.element;
    // Log-probabilities for the cross entropy.
    let scores = if kind == Loss::SoftmaxCrossEntropy {
        let value = cx.materialize(&x)?;
        let op = glow_graph::LogSoftMaxOperationBuilder::new(cx.context, cx.location)
            .input(value)
            .axis(cx.i64_attr(1))
            .build();
        Slot::value(cx.emit(op.into()), x.shape.clone(), e)
    } else {
        x.clone()
    };
    let positions: i64 = x.shape[2..].iter().product();
    let flat_scores = reshape(cx, &scores, &[n, classes, positions])?;
    let flat_target = reshape(cx, &target, &[n, positions])?;
    let target_element = target.element;
    let ignored = match ignore {
        Some(i) => Some(bin(
            cx,
            Bin::Equal,
            &flat_target,
            &scalar(target_element, i as f64),
        )?),
        None => None,
    };
    // The class each position reads: its target, or class 0 where the target is ignored.
    let read = match &ignored {
        Some(mask) => select(cx, mask, &scalar(target_element, 0.0), &flat_target)?,
        None => flat_target.clone(),
    };
    let read = convert(cx, &read, Element::I64)?;
    let indices = reshape(cx, &read, &[n, 1, positions])?;
    let (data, index) = (cx.materialize(&flat_scores)?, cx.materialize(&indices)?);
    let picked_type = cx.tensor_type(&[n, 1, positions], e);
    let picked = cx.emit(
        glow_graph::gather_elements(
            cx.context,
            picked_type,
            data,
            index,
            cx.i64_attr(1),
            cx.location,
        )
        .into(),
    );
    let picked = reshape(
        cx,
        &Slot::value(picked, vec![n, 1, positions], e),
        &[n, positions],
    )?;
    let mut losses = un(cx, Un::Neg, &picked)?;
    if let Some(mask) = &ignored {
        losses = select(cx, mask, &scalar(e, 0.0), &losses)?;
    }
    // The per-position weights (ONNX's gather_weight): the class weight, or 1, zero
    // where ignored. NegativeLogLikelihoodLoss's reference has none when there is no
    // class weight and ignore_index is -1; its plain mean then counts every position.
    let gather_weight = match &weight {
        Some(w) => {
            let clamped = bin(cx, Bin::Max, &flat_target, &scalar(target_element, 0.0))?;
            let clamped = bin(
                cx,
                Bin::Min,
                &clamped,
                &scalar(target_element, (classes - 1) as f64),
            )?;
            let gathered = gather(cx, w, &clamped, 0)?;
            let gathered = convert(cx, &gathered, e)?;
            Some(match &ignored {
                Some(mask) => select(cx, mask, &scalar(e, 0.0), &gathered)?,
                None => gathered,
            })
        }
        None => {
            let weighted = match kind {
                Loss::NegativeLogLikelihood => ignore != Some(-1),
                Loss::SoftmaxCrossEntropy => ignore.is_some(),
            };
            match (&ignored, weighted) {
                (Some(mask), true) => Some(select(cx, mask, &scalar(e, 0.0), &scalar(e, 1.0))?),
                (None, true) => Some(Slot::constant(TensorData::from_f64s(
                    e,
                    vec![n, positions],
                    &vec![1.0; (n * positions) as usize],
                ))),
                (_, false) => None,
            }
        }
    };
    if let Some(w) = &gather_weight {
        losses = bin(cx, Bin::Mul, &losses, w)?;
    }
    let all = [0usize, 1];
    let result = match reduction.as_str() {
        "none" => reshape(cx, &losses, &target.shape)?,
        "sum" => reduce(cx, Reduction::Sum, &losses, &all, false)?,
        _ => match &gather_weight {
            Some(w) => {
                let total = reduce(cx, Reduction::Sum, &losses, &all, false)?;
                let weights = reduce(cx, Reduction::Sum, w, &all, false)?;
                bin(cx, Bin::Div, &total, &weights)?
            }
            None => {
                let total = reduce(cx, Reduction::Sum, &losses, &all, false)?;
                bin(cx, Bin::Div, &total, &scalar(e, count(&[n, positions])))?
            }
        },
    };
    let mut outputs = vec![result];
    if kind == Loss::SoftmaxCrossEntropy {
        outputs.push(scores);
    }
    Ok(outputs)
}

pub fn negative_log_likelihood_loss<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    loss(cx, Loss::NegativeLogLikelihood)
}

pub fn softmax_cross_entropy_loss<'c, 'a>(cx: &mut NodeContext<'c, 'a, '_>) -> Converted<'c, 'a> {
    loss(cx, Loss::SoftmaxCrossEntropy)
}
