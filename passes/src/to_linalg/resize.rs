//! resize -> one linalg.generic over the output that reads, per resampled dimension,
//! its taps from tables computed at compile time (the shapes are static), and sums
//! the weighted input values:
//! - nearest: one tap at the input coordinate x rounded by `nearest_mode`
//! - linear: taps floor(x), floor(x) + 1 with weights 1 - r, r (r = x - floor(x))
//! - cubic: taps floor(x) - 1 .. floor(x) + 2 with Keys' weights for `cubic_coeff_a`
//!   (zeroed outside the input and renormalized with `exclude_outside`)
//!
//! x is ONNX's coordinate transformation of the output index, in f64 as its reference
//! implementation evaluates it; tap indices are clamped to the input (edge
//! replication), so every read is in bounds. Each tap's index and weight along a
//! dimension are 1-D constants over that dimension's output index, operands of the
//! generic whose indexing maps pick that dimension: the body is only reads,
//! multiplies and adds (in f64, then rounded to the element type), not the
//! coordinate arithmetic per element (LR-ASPP's 21 x 224 x 224 bilinear upsampling:
//! 5.5 ms of coordinate arithmetic before). With tf_crop_and_resize, coordinates
//! outside the input give `extrapolation_value` (a third table per dimension flags
//! them, as bytes). Dimensions whose size and scale are 1:1 (and not cropped) keep the output
//! index. Without a crop, two or more resampled dimensions are resampled one at a time
//! instead ([`super::resize_separable`]).

use super::builder::{is_float, LinalgBuilder};
use crate::framework::attributes::{f64_array, f64_value, string};
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::ir::{operation::OperationLike, r#type::IntegerType, Type, Value, ValueLike};

/// How one dimension is resampled.
pub(super) struct Axis {
    /// Input length.
    pub input: i64,
    /// Output length.
    pub output: i64,
    scale: f64,
    roi: (f64, f64),
}

impl Axis {
    /// The input coordinate of output index `o` as ONNX's reference evaluates it
    /// (`width` is the unrounded output length, scale * input).
    fn coordinate(&self, o: f64, mode: &str) -> f64 {
        let input = self.input as f64;
        let width = self.scale * input;
        let half_pixel = (o + 0.5) / self.scale + -0.5;
        match mode {
            "asymmetric" => o / self.scale,
            "align_corners" if width == 1.0 => 0.0,
            "align_corners" => o * (input - 1.0) / (width - 1.0),
            "pytorch_half_pixel" if width == 1.0 => -0.5,
            "half_pixel_symmetric" => {
                let adjustment = self.output as f64 / width;
                half_pixel + input / 2.0 * (1.0 - adjustment)
            }
            "tf_crop_and_resize" => {
                let (start, end) = self.roi;
                if width == 1.0 {
                    (end - start) * (input - 1.0) / 2.0 + start * (input - 1.0)
                } else {
                    o * ((end - start) * (input - 1.0)) / (width - 1.0) + start * (input - 1.0)
                }
            }
            // half_pixel, and pytorch_half_pixel on outputs longer than 1.
            _ => half_pixel,
        }
    }

    /// An integral coordinate as an index clamped to [0, input - 1]; NaN becomes 0
    /// (as maxnum ignores it), so no value gives an index outside.
    fn clamped(&self, x: f64) -> i64 {
        x.max(0.0).min((self.input - 1) as f64) as i64
    }

    /// Whether `x` lies outside [0, input - 1] (false for NaN, as ordered compares).
    fn outside(&self, x: f64) -> bool {
        x < 0.0 || x > (self.input - 1) as f64
    }
}

/// Keys' cubic convolution weight at distance `d` (|d| < 2) for coefficient `a`.
fn keys(d: f64, a: f64, near: bool) -> f64 {
    if near {
        // ((a + 2) d - (a + 3)) d^2 + 1 for |d| <= 1
        ((d * (a + 2.0) + -(a + 3.0)) * d) * d + 1.0
    } else {
        // ((a d - 5a) d + 8a) d - 4a for 1 < |d| < 2
        ((d * a + -5.0 * a) * d + 8.0 * a) * d + -4.0 * a
    }
}

struct Options {
    mode: String,
    nearest_mode: String,
    cubic_a: f64,
    exclude_outside: bool,
}

/// One dimension's taps at one output index: (input index, weight) pairs.
type Taps = Vec<(i64, Option<f64>)>;

/// The taps of the input coordinate `x`; nearest has no weight.
fn taps(x: f64, axis: &Axis, options: &Options) -> Taps {
    match options.mode.as_str() {
        "nearest" => {
            let rounded = match options.nearest_mode.as_str() {
                "round_prefer_ceil" => (x + 0.5).floor(),
                "floor" => x.floor(),
                "ceil" => x.ceil(),
                // round_prefer_floor: halves go down.
                _ => (x + -0.5).ceil(),
            };
            vec![(axis.clamped(rounded), None)]
        }
        "linear" => {
            let floor = x.floor();
            let r = x - floor;
            vec![
                (axis.clamped(floor), Some(1.0 - r)),
                (axis.clamped(floor + 1.0), Some(r)),
            ]
        }
        _ => {
            let floor = x.floor();
            let r = x - floor;
            let distances = [
                (r + 1.0, false),
                (r, true),
                (1.0 - r, true),
                ((1.0 - r) + 1.0, false),
            ];
            let mut result: Taps = distances
                .into_iter()
                .enumerate()
                .map(|(k, (d, near))| {
                    let position = floor + (k as f64 - 1.0);
                    let weight = if options.exclude_outside && axis.outside(position) {
                        0.0
                    } else {
                        keys(d, options.cubic_a, near)
                    };
                    (axis.clamped(position), Some(weight))
                })
                .collect();
            if options.exclude_outside {
                let total = result[1..]
                    .iter()
                    .fold(result[0].1.unwrap_or(0.0), |sum, (_, w)| {
                        sum + w.unwrap_or(0.0)
                    });
                for tap in &mut result {
                    tap.1 = tap.1.map(|w| w / total);
                }
            }
            result
        }
    }
}

/// One resampled dimension's tables, each over its output index.
pub(super) struct Tables {
    /// Per tap, the clamped input index of each output index.
    pub indices: Vec<Vec<i64>>,
    /// Per tap, the weight of each output index (none for nearest).
    pub weights: Option<Vec<Vec<f64>>>,
    /// Whether each output index's coordinate lies outside the input (crops only).
    pub outside: Option<Vec<bool>>,
}

fn tables(axis: &Axis, options: &Options, coordinates: &str, crop: bool) -> Tables {
    let per_output: Vec<(f64, Taps)> = (0..axis.output)
        .map(|o| {
            let x = axis.coordinate(o as f64, coordinates);
            (x, taps(x, axis, options))
        })
        .collect();
    let count = per_output.first().map_or(0, |(_, t)| t.len());
    let indices = (0..count)
        .map(|k| per_output.iter().map(|(_, t)| t[k].0).collect())
        .collect();
    let weighted = options.mode != "nearest";
    let weights = weighted.then(|| {
        (0..count)
            .map(|k| {
                per_output
                    .iter()
                    .map(|(_, t)| t[k].1.unwrap_or(0.0))
                    .collect()
            })
            .collect()
    });
    let outside = crop.then(|| per_output.iter().map(|(x, _)| axis.outside(*x)).collect());
    Tables {
        indices,
        weights,
        outside,
    }
}

/// One dimension's tables as 1-D constants: its tap indices (i32 unless the input
/// dimension needs i64), then its tap weights (f64), then its outside flags (bytes).
pub(super) fn table_constants<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    tables: &Tables,
    axis: &Axis,
) -> Vec<Value<'c, 'r>> {
    let context = b.context;
    let (i8, i32, i64): (Type, Type, Type) = (
        IntegerType::new(context, 8).into(),
        IntegerType::new(context, 32).into(),
        IntegerType::new(context, 64).into(),
    );
    let mut columns: Vec<(Vec<u8>, Type)> = Vec::new();
    for column in &tables.indices {
        columns.push(if axis.input <= i64::from(i32::MAX) {
            let bytes = column.iter().flat_map(|i| (*i as i32).to_le_bytes());
            (bytes.collect(), i32)
        } else {
            (column.iter().flat_map(|i| i.to_le_bytes()).collect(), i64)
        });
    }
    for column in tables.weights.iter().flatten() {
        let bytes = column.iter().flat_map(|w| w.to_le_bytes());
        columns.push((bytes.collect(), Type::float64(context)));
    }
    if let Some(outside) = &tables.outside {
        columns.push((outside.iter().map(|o| u8::from(*o)).collect(), i8));
    }
    columns
        .into_iter()
        .map(|(bytes, element)| {
            let r#type = b.tensor(&[axis.output], element);
            let values = glow_dialects::elements::dense_elements(r#type, &bytes);
            b.constant(values, r#type)
        })
        .collect()
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
    if !is_float(element) || out_shape.contains(&0) {
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
    let per_dimension: Vec<Option<Tables>> = axes
        .iter()
        .enumerate()
        .map(|(d, axis)| resampled(d).then(|| tables(axis, &options, &coordinates, crop)))
        .collect();

    let b = LinalgBuilder::before(context, op, rewriter);
    // Two or more resampled dimensions: one dimension at a time.
    let resampled_count = per_dimension.iter().flatten().count();
    if !crop && resampled_count >= 2 {
        let resized = super::resize_separable::resample_each_dimension(
            &b,
            input,
            element,
            &in_shape,
            &axes,
            &per_dimension,
        );
        rewriter.replace_op_with_values(op, &[resized]);
        return true;
    }
    let f64_type = Type::float64(context);
    let i1: Type = IntegerType::new(context, 1).into();
    let index = Type::index(context);
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let identity = format!("affine_map<({0}) -> ({0})>", dims.join(", "));
    // The table operands, in the order the body reads them: per resampled dimension,
    // its tap indices, then its tap weights, then its outside flags.
    let mut ins: Vec<Value> = Vec::new();
    let mut maps: Vec<String> = Vec::new();
    for (d, tables) in per_dimension.iter().enumerate() {
        let Some(tables) = tables else { continue };
        let map = format!("affine_map<({}) -> (d{d})>", dims.join(", "));
        for table in table_constants(&b, tables, &axes[d]) {
            ins.push(table);
            maps.push(map.clone());
        }
    }
    maps.push(identity);
    let init = b.empty(result.r#type());
    let converted = b.generic(
        &ins,
        &[init],
        &maps,
        &vec!["parallel"; rank],
        |body, arguments| {
            let mut next = arguments.iter().copied();
            // Per dimension, its taps as (index, weight) values.
            let mut taps: Vec<Vec<(Value, Option<Value>)>> = Vec::new();
            let mut outside: Option<Value> = None;
            for (d, tables) in per_dimension.iter().enumerate() {
                let Some(tables) = tables else {
                    taps.push(vec![(body.index(d), None)]);
                    continue;
                };
                let count = tables.indices.len();
                let indices: Vec<Value> = next
                    .by_ref()
                    .take(count)
                    .map(|i| body.value("arith.index_cast", &[i], index, &[]))
                    .collect();
                let weights: Vec<Option<Value>> = match tables.weights {
                    Some(_) => next.by_ref().take(count).map(Some).collect(),
                    None => vec![None; count],
                };
                taps.push(indices.into_iter().zip(weights).collect());
                if tables.outside.is_some() {
                    let flag = next.next().expect("an outside table");
                    let flag = body.value("arith.trunci", &[flag], i1, &[]);
                    outside = Some(match outside {
                        Some(previous) => body.value("arith.ori", &[previous, flag], i1, &[]),
                        None => flag,
                    });
                }
            }
            // The weighted sum over the product of the dimensions' taps.
            let mut combinations: Vec<Vec<usize>> = vec![vec![]];
            for dimension in &taps {
                combinations = combinations
                    .into_iter()
                    .flat_map(|chosen| {
                        (0..dimension.len()).map(move |k| [chosen.clone(), vec![k]].concat())
                    })
                    .collect();
            }
            let mul = |a, b| body.value("arith.mulf", &[a, b], f64_type, &[]);
            let mut sum: Option<Value> = None;
            for choice in combinations {
                let mut operands = vec![input];
                let mut weight: Option<Value> = None;
                for (d, k) in choice.into_iter().enumerate() {
                    let (position, w) = taps[d][k];
                    operands.push(position);
                    if let Some(w) = w {
                        weight = Some(weight.map_or(w, |previous| mul(previous, w)));
                    }
                }
                let value = body.value("tensor.extract", &operands, element, &[]);
                let term = match weight {
                    Some(w) => {
                        let wide = if element == f64_type {
                            value
                        } else {
                            body.value("arith.extf", &[value], f64_type, &[])
                        };
                        mul(wide, w)
                    }
                    None => value,
                };
                sum = Some(match sum {
                    Some(previous) => body.value("arith.addf", &[previous, term], f64_type, &[]),
                    None => term,
                });
            }
            let sum = sum.expect("at least one tap");
            let weighted = options.mode != "nearest"
                && per_dimension
                    .iter()
                    .any(|t| t.as_ref().is_some_and(|t| t.weights.is_some()));
            let mut value = if weighted && element != f64_type {
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
