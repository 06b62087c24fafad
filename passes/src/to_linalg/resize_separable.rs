//! resize along two or more dimensions, no crop -> one linalg.generic per resampled
//! dimension, the innermost first: each resamples one dimension of the previous
//! step's result with that dimension's tap tables ([`super::resize`]), keeping the sums
//! of weighted taps (linear, cubic) in f64 until the last step rounds them to the
//! element type; nearest steps move values in their own type. Taps multiply instead of combining (2 x 2 reads per output for a
//! bilinear 2-D resize become 2 + 2, 4 x 4 cubic 4 + 4), and the innermost dimension,
//! whose reads are gathers, is resampled while the outer ones are still at their input
//! size; the outer steps read whole rows. LR-ASPP's 21 x 28 x 28 -> 21 x 224 x 224
//! bilinear upsampling: 2.6 ms as one generic of gathers. Nearest 2x upsampling
//! gathers half the elements (the width step), the height step copies whole rows.

use super::builder::LinalgBuilder;
use super::resize::{table_constants, Axis, Tables};
use melior::ir::{Type, Value};

/// The resize of `input` (of `element`s and shape `shape`) along every dimension with
/// tables, one dimension per generic, innermost first.
pub(super) fn resample_each_dimension<'c, 'r>(
    b: &LinalgBuilder<'c, 'r, '_>,
    input: Value<'c, 'r>,
    element: Type<'c>,
    shape: &[i64],
    axes: &[Axis],
    per_dimension: &[Option<Tables>],
) -> Value<'c, 'r> {
    let f64_type = Type::float64(b.context);
    let index = Type::index(b.context);
    let rank = shape.len();
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let identity = format!("affine_map<({0}) -> ({0})>", dims.join(", "));
    let steps: Vec<(usize, &Tables)> = per_dimension
        .iter()
        .enumerate()
        .rev()
        .filter_map(|(d, t)| t.as_ref().map(|t| (d, t)))
        .collect();
    let mut current = input;
    let mut current_element = element;
    let mut current_shape = shape.to_vec();
    for (step, (d, tables)) in steps.iter().enumerate() {
        let last = step + 1 == steps.len();
        current_shape[*d] = axes[*d].output;
        // Nearest taps carry no weight: the values are only moved, in their own type.
        let weighted = tables.weights.is_some();
        let result_element = if last || !weighted { element } else { f64_type };
        let count = tables.indices.len();
        let mut ins = table_constants(b, tables, &axes[*d]);
        // Outer dimensions read their index tables with tensor.extract at the loop
        // index, which the vectorizer sees as invariant along a row: the row is then
        // one contiguous load, not a gather. (As operands they would be vectors.)
        let innermost = *d == rank - 1;
        let index_tables: Vec<Value> = if innermost {
            Vec::new()
        } else {
            ins.drain(..count).collect()
        };
        let mut maps = vec![format!("affine_map<({}) -> (d{d})>", dims.join(", ")); ins.len()];
        maps.push(identity.clone());
        let init = b.empty(b.tensor(&current_shape, result_element));
        let (source, source_element) = (current, current_element);
        current = b
            .generic(
                &ins,
                &[init],
                &maps,
                &vec!["parallel"; rank],
                |body, arguments| {
                    let mul = |x, y| body.value("arith.mulf", &[x, y], f64_type, &[]);
                    let mut sum: Option<Value> = None;
                    let weights = if innermost { count } else { 0 };
                    for k in 0..count {
                        let entry = if innermost {
                            arguments[k]
                        } else {
                            let table = index_tables[k];
                            let entry_type = crate::lower_nodes::builder::tensor_info(table)
                                .expect("a static table")
                                .1;
                            body.value("tensor.extract", &[table, body.index(*d)], entry_type, &[])
                        };
                        let tap = body.value("arith.index_cast", &[entry], index, &[]);
                        let mut operands = vec![source];
                        operands
                            .extend((0..rank).map(|e| if e == *d { tap } else { body.index(e) }));
                        let value = body.value("tensor.extract", &operands, source_element, &[]);
                        if !weighted {
                            sum = Some(value);
                            continue;
                        }
                        let wide = if source_element == f64_type {
                            value
                        } else {
                            body.value("arith.extf", &[value], f64_type, &[])
                        };
                        let term = mul(wide, arguments[weights + k]);
                        sum = Some(match sum {
                            Some(previous) => {
                                body.value("arith.addf", &[previous, term], f64_type, &[])
                            }
                            None => term,
                        });
                    }
                    let sum = sum.expect("at least one tap");
                    vec![if !weighted || result_element == f64_type {
                        sum
                    } else {
                        body.value("arith.truncf", &[sum], result_element, &[])
                    }]
                },
            )
            .remove(0);
        current_element = result_element;
    }
    current
}
