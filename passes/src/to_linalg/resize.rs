//! resize -> one linalg.generic over the output whose body computes, per resampled
//! dimension, the input coordinate x (in f64, with ONNX's formula for the coordinate
//! transformation mode, as its reference implementation evaluates it) and then:
//! - nearest: one tap at x rounded by `nearest_mode`
//! - linear: taps floor(x), floor(x) + 1 with weights 1 - r, r (r = x - floor(x))
//! - cubic: taps floor(x) - 1 .. floor(x) + 2 with Keys' weights for `cubic_coeff_a`
//!   (zeroed outside the input and renormalized with `exclude_outside`)
//!
//! Tap indices are clamped to the input (edge replication); the output is the
//! weighted sum over the product of every dimension's taps, read with tensor.extract.
//! With tf_crop_and_resize, coordinates outside the input give `extrapolation_value`.
//! Dimensions whose size and scale are 1:1 (and not cropped) keep the output index.

use super::builder::{is_float, BodyBuilder, LinalgBuilder};
use crate::framework::attributes::{f64_array, f64_value, string};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::ir::{operation::OperationLike, r#type::IntegerType, Type, Value, ValueLike};

/// How one dimension is resampled.
struct Axis {
    input: i64,
    output: i64,
    scale: f64,
    roi: (f64, f64),
}

/// Scalar f64 helpers over a body.
struct Scalar<'a, 'c, 'k> {
    body: &'a BodyBuilder<'c, 'k>,
    f64: Type<'c>,
}

impl<'c, 'k> Scalar<'_, 'c, 'k> {
    fn constant(&self, value: f64) -> Value<'c, 'k> {
        self.body.value(
            "arith.constant",
            &[],
            self.f64,
            &[("value", &format!("{value:.17e} : f64"))],
        )
    }
    fn binary(&self, name: &str, a: Value<'c, 'k>, b: Value<'c, 'k>) -> Value<'c, 'k> {
        self.body.value(name, &[a, b], self.f64, &[])
    }
    fn add(&self, a: Value<'c, 'k>, b: f64) -> Value<'c, 'k> {
        let b = self.constant(b);
        self.binary("arith.addf", a, b)
    }
    fn mul(&self, a: Value<'c, 'k>, b: f64) -> Value<'c, 'k> {
        let b = self.constant(b);
        self.binary("arith.mulf", a, b)
    }
    fn div(&self, a: Value<'c, 'k>, b: f64) -> Value<'c, 'k> {
        let b = self.constant(b);
        self.binary("arith.divf", a, b)
    }
    fn unary(&self, name: &str, a: Value<'c, 'k>) -> Value<'c, 'k> {
        self.body.value(name, &[a], self.f64, &[])
    }
    fn compare(&self, predicate: &str, a: Value<'c, 'k>, b: Value<'c, 'k>) -> Value<'c, 'k> {
        let i1: Type = IntegerType::new(self.body.context, 1).into();
        self.body.value(
            "arith.cmpf",
            &[a, b],
            i1,
            &[("predicate", &super::data::predicate_code(predicate))],
        )
    }
    /// Whether `x` lies outside [0, extent - 1] (an i1).
    fn outside(&self, x: Value<'c, 'k>, extent: i64) -> Value<'c, 'k> {
        let low = self.constant(0.0);
        let high = self.constant((extent - 1) as f64);
        let below = self.compare("olt", x, low);
        let above = self.compare("ogt", x, high);
        let i1: Type = IntegerType::new(self.body.context, 1).into();
        self.body.value("arith.ori", &[below, above], i1, &[])
    }
    /// An f64 holding an integer, as an index clamped to [0, extent - 1]; a NaN
    /// coordinate (maxnumf ignores it) becomes 0, so no value gives an index outside.
    fn clamped_index(&self, x: Value<'c, 'k>, extent: i64) -> Value<'c, 'k> {
        let low = self.constant(0.0);
        let high = self.constant((extent - 1) as f64);
        let x = self.binary("arith.maxnumf", x, low);
        let x = self.binary("arith.minnumf", x, high);
        let i64_type: Type = IntegerType::new(self.body.context, 64).into();
        let as_int = self.body.value("arith.fptosi", &[x], i64_type, &[]);
        self.body.value(
            "arith.index_cast",
            &[as_int],
            Type::index(self.body.context),
            &[],
        )
    }
}

/// The input coordinate of output index `o` (an f64) along `axis`, as ONNX's
/// reference evaluates it: `width` is the unrounded output length (scale * input).
fn coordinate<'c, 'k>(
    s: &Scalar<'_, 'c, 'k>,
    o: Value<'c, 'k>,
    axis: &Axis,
    mode: &str,
) -> Value<'c, 'k> {
    let input = axis.input as f64;
    let width = axis.scale * input;
    let half_pixel = |s: &Scalar<'_, 'c, 'k>| {
        let shifted = s.add(o, 0.5);
        let scaled = s.div(shifted, axis.scale);
        s.add(scaled, -0.5)
    };
    match mode {
        "asymmetric" => s.div(o, axis.scale),
        "align_corners" if width == 1.0 => s.constant(0.0),
        "align_corners" => {
            let stretched = s.mul(o, input - 1.0);
            s.div(stretched, width - 1.0)
        }
        "pytorch_half_pixel" if width == 1.0 => s.constant(-0.5),
        "half_pixel_symmetric" => {
            let adjustment = axis.output as f64 / width;
            let offset = input / 2.0 * (1.0 - adjustment);
            let x = half_pixel(s);
            s.add(x, offset)
        }
        "tf_crop_and_resize" => {
            let (start, end) = axis.roi;
            if width == 1.0 {
                s.constant((end - start) * (input - 1.0) / 2.0 + start * (input - 1.0))
            } else {
                let step = s.mul(o, (end - start) * (input - 1.0));
                let step = s.div(step, width - 1.0);
                s.add(step, start * (input - 1.0))
            }
        }
        // half_pixel, and pytorch_half_pixel on outputs longer than 1.
        _ => half_pixel(s),
    }
}

/// Keys' cubic convolution weight at distance `d` (|d| < 2) for coefficient `a`.
fn keys<'c, 'k>(s: &Scalar<'_, 'c, 'k>, d: Value<'c, 'k>, a: f64, near: bool) -> Value<'c, 'k> {
    if near {
        // ((a + 2) d - (a + 3)) d^2 + 1 for |d| <= 1
        let t = s.mul(d, a + 2.0);
        let t = s.add(t, -(a + 3.0));
        let t = s.binary("arith.mulf", t, d);
        let t = s.binary("arith.mulf", t, d);
        s.add(t, 1.0)
    } else {
        // ((a d - 5a) d + 8a) d - 4a for 1 < |d| < 2
        let t = s.mul(d, a);
        let t = s.add(t, -5.0 * a);
        let t = s.binary("arith.mulf", t, d);
        let t = s.add(t, 8.0 * a);
        let t = s.binary("arith.mulf", t, d);
        s.add(t, -4.0 * a)
    }
}

/// One dimension's taps: (index, weight) pairs; nearest has no weight.
type Taps<'c, 'k> = Vec<(Value<'c, 'k>, Option<Value<'c, 'k>>)>;

struct Options {
    mode: String,
    nearest_mode: String,
    cubic_a: f64,
    exclude_outside: bool,
}

fn taps<'c, 'k>(
    s: &Scalar<'_, 'c, 'k>,
    x: Value<'c, 'k>,
    axis: &Axis,
    options: &Options,
) -> Taps<'c, 'k> {
    match options.mode.as_str() {
        "nearest" => {
            let rounded = match options.nearest_mode.as_str() {
                "round_prefer_ceil" => {
                    let x = s.add(x, 0.5);
                    s.unary("math.floor", x)
                }
                "floor" => s.unary("math.floor", x),
                "ceil" => s.unary("math.ceil", x),
                // round_prefer_floor: halves go down.
                _ => {
                    let x = s.add(x, -0.5);
                    s.unary("math.ceil", x)
                }
            };
            vec![(s.clamped_index(rounded, axis.input), None)]
        }
        "linear" => {
            let floor = s.unary("math.floor", x);
            let r = s.binary("arith.subf", x, floor);
            let one = s.constant(1.0);
            let upper = s.add(floor, 1.0);
            vec![
                (
                    s.clamped_index(floor, axis.input),
                    Some(s.binary("arith.subf", one, r)),
                ),
                (s.clamped_index(upper, axis.input), Some(r)),
            ]
        }
        _ => {
            let floor = s.unary("math.floor", x);
            let r = s.binary("arith.subf", x, floor);
            let one = s.constant(1.0);
            let r_plus = s.add(r, 1.0);
            let one_minus = s.binary("arith.subf", one, r);
            let two_minus = s.add(one_minus, 1.0);
            let distances = [
                (r_plus, false),
                (r, true),
                (one_minus, true),
                (two_minus, false),
            ];
            let mut result: Taps = Vec::new();
            let mut weights = Vec::new();
            for (k, (d, near)) in distances.into_iter().enumerate() {
                let position = s.add(floor, k as f64 - 1.0);
                let mut weight = keys(s, d, options.cubic_a, near);
                if options.exclude_outside {
                    let outside = s.outside(position, axis.input);
                    let zero = s.constant(0.0);
                    weight = s
                        .body
                        .value("arith.select", &[outside, zero, weight], s.f64, &[]);
                }
                weights.push(weight);
                result.push((s.clamped_index(position, axis.input), Some(weight)));
            }
            if options.exclude_outside {
                let total = weights[1..]
                    .iter()
                    .fold(weights[0], |sum, w| s.binary("arith.addf", sum, *w));
                for tap in &mut result {
                    tap.1 = tap.1.map(|w| s.binary("arith.divf", w, total));
                }
            }
            result
        }
    }
}

rule!(RESIZE, "glow.graph.resize", |context, op, rewriter| {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((in_shape, element)), Some((out_shape, _))) =
        (tensor_info(input), tensor_info(result.into()))
    else {
        return false;
    };
    let (Some(mode), Some(coordinates)) = (string(op, "mode"), string(op, "coordinates")) else {
        return false;
    };
    if !is_float(element) {
        return false;
    }
    let rank = in_shape.len();
    let scales = f64_array(op, "scales").unwrap_or_else(|| {
        (0..rank)
            .map(|d| out_shape[d] as f64 / in_shape[d] as f64)
            .collect()
    });
    let roi = f64_array(op, "roi");
    let options = Options {
        mode,
        nearest_mode: string(op, "nearest_mode").unwrap_or("round_prefer_floor".into()),
        cubic_a: f64_value(op, "cubic_coeff_a").unwrap_or(-0.75),
        exclude_outside: op.attribute("exclude_outside").is_ok(),
    };
    let extrapolation = f64_value(op, "extrapolation_value").unwrap_or(0.0);
    let crop = coordinates == "tf_crop_and_resize";
    let axes: Vec<Axis> = (0..rank)
        .map(|d| Axis {
            input: in_shape[d],
            output: out_shape[d],
            scale: scales[d],
            roi: roi.as_ref().map_or((0.0, 1.0), |r| (r[d], r[rank + d])),
        })
        .collect();
    let resampled = |d: usize| crop || axes[d].input != axes[d].output || axes[d].scale != 1.0;
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.empty(result.r#type());
    let identity = {
        let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
        format!("affine_map<({0}) -> ({0})>", dims.join(", "))
    };
    let converted = b.generic(
        &[],
        &[init],
        &[identity],
        &vec!["parallel"; rank],
        |body, _| {
            let s = Scalar {
                body,
                f64: Type::float64(body.context),
            };
            let i64_type: Type = IntegerType::new(body.context, 64).into();
            let i1: Type = IntegerType::new(body.context, 1).into();
            let mut per_dimension: Vec<Taps> = Vec::new();
            let mut outside: Option<Value> = None;
            for (d, axis) in axes.iter().enumerate() {
                let index = body.index(d);
                if !resampled(d) {
                    per_dimension.push(vec![(index, None)]);
                    continue;
                }
                let o = body.value("arith.index_cast", &[index], i64_type, &[]);
                let o = body.value("arith.sitofp", &[o], s.f64, &[]);
                let x = coordinate(&s, o, axis, &coordinates);
                if crop {
                    let out = s.outside(x, axis.input);
                    outside = Some(match outside {
                        Some(previous) => body.value("arith.ori", &[previous, out], i1, &[]),
                        None => out,
                    });
                }
                per_dimension.push(taps(&s, x, axis, &options));
            }
            // The weighted sum over the product of the dimensions' taps.
            let mut combinations: Vec<Vec<usize>> = vec![vec![]];
            for taps in &per_dimension {
                combinations = combinations
                    .into_iter()
                    .flat_map(|chosen| {
                        (0..taps.len()).map(move |k| [chosen.clone(), vec![k]].concat())
                    })
                    .collect();
            }
            let mut sum: Option<Value> = None;
            for choice in combinations {
                let mut operands = vec![input];
                let mut weight: Option<Value> = None;
                for (d, k) in choice.into_iter().enumerate() {
                    let (index, w) = per_dimension[d][k];
                    operands.push(index);
                    if let Some(w) = w {
                        weight = Some(match weight {
                            Some(previous) => s.binary("arith.mulf", previous, w),
                            None => w,
                        });
                    }
                }
                let value = body.value("tensor.extract", &operands, element, &[]);
                let term = match weight {
                    Some(w) => {
                        let wide = if element == s.f64 {
                            value
                        } else {
                            body.value("arith.extf", &[value], s.f64, &[])
                        };
                        s.binary("arith.mulf", wide, w)
                    }
                    None => value,
                };
                sum = Some(match sum {
                    Some(previous) => s.binary("arith.addf", previous, term),
                    None => term,
                });
            }
            let sum = sum.expect("at least one tap");
            let weighted = per_dimension
                .iter()
                .any(|t| t.iter().any(|(_, w)| w.is_some()));
            let mut value = if weighted && element != s.f64 {
                body.value("arith.truncf", &[sum], element, &[])
            } else {
                sum
            };
            if let Some(outside) = outside {
                let fill = body.value(
                    "arith.constant",
                    &[],
                    element,
                    &[("value", &format!("{extrapolation:.17e} : {element}"))],
                );
                value = body.value("arith.select", &[outside, fill, value], element, &[]);
            }
            vec![value]
        },
    );
    rewriter.replace_op_with_values(op, &converted);
    true
});
