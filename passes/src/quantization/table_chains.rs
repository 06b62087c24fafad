//! `glow-fold-table-chains` (on `func.func`): an elementwise computation from one
//! 8-bit per-tensor quantized value to an 8-bit per-tensor quantized result becomes one
//! `glow.quant.lookup_table`, its 256 entries the computation evaluated at compile time
//! on every storage value. The computation is any DAG of dequantize, quantize,
//! rescale, the integer add / mul / lookup_table and float arithmetic, comparisons,
//! selects and activations, with splat constants as its only other operands, whose
//! intermediate values have no user outside it and are quantized, if at all, per
//! tensor.
//!
//! onnxruntime's QDQ graphs keep activations the integer ops do not fold as such
//! chains, with quantizes between the float ops: GELU (ConvNeXt's `x * (1 + erf(x /
//! sqrt 2)) / 2` in four ops and two quantizes), HardSwish (`x * HardSigmoid(x)`),
//! SiLU (`x * sigmoid(x)`). Each op was a full pass over the tensor; the table is one
//! byte gather.
//!
//! The evaluation follows the reference lowering's arithmetic (f32, rounding to even,
//! clamping to the storage range, the integer ops' fused clamps); float functions are
//! computed in f64 and rounded to f32, as the graph's constant folders do, where the
//! compiled code uses polynomial approximations: an entry can differ from the
//! unfolded chain's by one step where a value falls within an f32 rounding of a
//! quantization boundary.

use super::ir::{name_of, operand, producer, quantized, quantized_constant, users, Emitter};
use crate::{
    framework::{
        apply_rules, attributes::f64_value, emit_error, PassDefinition, PassOptions, Rule,
    },
    lower_nodes::builder::tensor_info,
    to_linalg::quantized_contraction::clamp_bounds,
};
use glow_dialects::quant_types::UniformQuantization;
use melior::{
    ir::{
        attribute::AttributeLike,
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        r#type::TypeLike,
        OperationRef, Value, ValueLike,
    },
    Context, RewriterBase,
};
use std::collections::HashMap;

/// The pass definition registered as `glow-fold-table-chains`.
pub static FOLD_TABLE_CHAINS: PassDefinition = PassDefinition {
    argument: "glow-fold-table-chains",
    description: "Fold elementwise computations from one 8-bit quantized value to an 8-bit quantized result (QDQ GELU, HardSwish, SiLU) into one 256-entry glow.quant.lookup_table",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: super::quantization_dialects,
    validate: |_: &PassOptions| Ok(()),
    run,
};

macro_rules! chain_rules {
    ($($name:ident => $root:literal),* $(,)?) => {
        $(
            #[doc = concat!("A table chain ending in `", $root, "` -> one lookup_table.")]
            pub static $name: Rule = Rule {
                root: $root,
                generates: &["glow.quant.lookup_table"],
                rewrite: fold_chain,
            };
        )*
        /// One rule per op a chain can end in.
        pub static CHAIN_RULES: &[&Rule] = &[$(&$name),*];
    };
}

chain_rules! {
    CHAIN_ENDING_IN_QUANTIZE => "glow.quant.quantize",
    CHAIN_ENDING_IN_ADD => "glow.quant.add",
    CHAIN_ENDING_IN_MUL => "glow.quant.mul",
    CHAIN_ENDING_IN_RESCALE => "glow.quant.rescale",
    CHAIN_ENDING_IN_LOOKUP_TABLE => "glow.quant.lookup_table",
}

/// The ops a chain is made of.
const CHAIN_OPS: &[&str] = &[
    "glow.quant.quantize",
    "glow.quant.dequantize",
    "glow.quant.rescale",
    "glow.quant.add",
    "glow.quant.mul",
    "glow.quant.lookup_table",
    "glow.graph.add",
    "glow.graph.sub",
    "glow.graph.mul",
    "glow.graph.div",
    "glow.graph.max",
    "glow.graph.min",
    "glow.graph.pow",
    "glow.graph.cmp_eq",
    "glow.graph.cmp_neq",
    "glow.graph.cmp_lt",
    "glow.graph.cmp_lte",
    "glow.graph.select",
    "glow.graph.neg",
    "glow.graph.abs",
    "glow.graph.relu",
    "glow.graph.sqrt",
    "glow.graph.rsqrt",
    "glow.graph.exp",
    "glow.graph.log",
    "glow.graph.erf",
    "glow.graph.tanh",
    "glow.graph.sigmoid",
    "glow.graph.hard_swish",
    "glow.graph.floor",
    "glow.graph.ceil",
    "glow.graph.round",
    "glow.graph.clip",
    "glow.graph.leaky_relu",
    "glow.graph.hard_sigmoid",
    "glow.graph.gelu",
];

/// At most this many ops in a chain.
const MAX_CHAIN: usize = 64;

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_rules(op, CHAIN_RULES).map_err(|_| {
        emit_error(
            op.location(),
            "glow-fold-table-chains: the rewrite did not converge",
        )
    })
}

/// A chain found backwards from its last op: its ops (last first), its one input and
/// its splat constants.
struct Chain<'c, 'a> {
    ops: Vec<OperationRef<'c, 'a>>,
    input: Option<Value<'c, 'a>>,
    constants: HashMap<usize, f64>,
    shape: Vec<i64>,
}

impl<'c, 'a> Chain<'c, 'a> {
    /// Adds `value` (an operand of a chain op): a splat constant, the input, or the
    /// result of a chain op whose operands are added in turn. False when it is none.
    fn visit(&mut self, value: Value<'c, 'a>) -> bool {
        let key = value.to_raw().ptr as usize;
        if Some(value) == self.input || self.constants.contains_key(&key) {
            return true;
        }
        if let Some(scalar) = splat_scalar(value) {
            self.constants.insert(key, scalar);
            return true;
        }
        chain_producer(value, &self.shape).is_some_and(|op| self.add(op))
    }

    /// Adds `op` and its operands.
    fn add(&mut self, op: OperationRef<'c, 'a>) -> bool {
        if self.ops.contains(&op) {
            return true;
        }
        if self.ops.len() == MAX_CHAIN {
            return false;
        }
        self.ops.push(op);
        (0..op.operand_count()).all(|i| operand(op, i).is_some_and(|v| self.visit(v)))
    }
}

/// The scalar of a splat constant (`glow.graph.splat`, a splat or one-element dense
/// constant, a broadcast of one, or a quantized one's storage value).
fn splat_scalar(value: Value) -> Option<f64> {
    let op = producer(value)?;
    match name_of(op).as_str() {
        "glow.graph.splat" => {
            let attribute = op.attribute("value").ok()?;
            FloatAttribute::try_from(attribute)
                .map(|f| f.value())
                .ok()
                .or_else(|| {
                    IntegerAttribute::try_from(attribute)
                        .ok()
                        .map(|i| i.value() as f64)
                })
        }
        "glow.graph.constant" | "arith.constant" => {
            let raw = op.attribute("value").ok()?.to_raw();
            let (_, element) = tensor_info(value)?;
            // SAFETY: queries on a live attribute; the value getter only on a dense f32
            // one that is a splat or has one element.
            unsafe {
                let dense = mlir_sys::mlirAttributeIsADenseElements(raw);
                let one = mlir_sys::mlirElementsAttrGetNumElements(raw) == 1;
                (dense && element.is_f32() && (one || mlir_sys::mlirDenseElementsAttrIsSplat(raw)))
                    .then(|| mlir_sys::mlirDenseElementsAttrGetFloatValue(raw, 0) as f64)
            }
        }
        "glow.graph.broadcast" => splat_scalar(operand(op, 0)?),
        "quant.scast" => {
            let (_, values, q) = quantized_constant(value)?;
            let first = *values.first()?;
            (q.axis.is_none() && values.iter().all(|v| *v == first)).then_some(first as f64)
        }
        _ => None,
    }
}

/// The op making `value` if it is a chain op of the chain's shape, quantized (if at
/// all) per tensor: a per-axis value's scale depends on the element's position.
fn chain_producer<'c, 'a>(value: Value<'c, 'a>, shape: &[i64]) -> Option<OperationRef<'c, 'a>> {
    producer(value).filter(|op| {
        CHAIN_OPS.contains(&name_of(*op).as_str())
            && tensor_info(value).is_some_and(|(s, _)| s == shape)
            && !crate::graph_optimize::sink_movement::per_axis_quantized(*op)
    })
}

/// Whether `value` is 8-bit quantized per tensor (a chain's input or result).
fn is_table_index(value: Value) -> bool {
    quantized(value).is_some_and(|(_, q)| q.width == 8 && q.axis.is_none())
}

/// The longest chain ending in `root`: for each 8-bit value the chain ops before
/// `root` reach (nearest first), the chain from it, if it is one (only splats as other
/// operands, every value made inside it used only inside it, and more than one op, or
/// one reading its input twice: one op alone is as cheap as a table).
fn longest_chain<'c, 'a>(root: OperationRef<'c, 'a>, shape: &[i64]) -> Option<Chain<'c, 'a>> {
    let mut candidates: Vec<Value> = Vec::new();
    let mut pending = vec![root];
    let mut seen = vec![root];
    while let Some(op) = pending.pop() {
        for value in (0..op.operand_count()).filter_map(|i| operand(op, i)) {
            if is_table_index(value) && !candidates.contains(&value) {
                candidates.push(value);
            }
            if let Some(next) = chain_producer(value, shape) {
                if !seen.contains(&next) && seen.len() < MAX_CHAIN {
                    seen.push(next);
                    pending.insert(0, next);
                }
            }
        }
    }
    let mut best: Option<Chain> = None;
    for input in candidates {
        let mut chain = Chain {
            ops: Vec::new(),
            input: Some(input),
            constants: HashMap::new(),
            shape: shape.to_vec(),
        };
        if !chain.add(root) {
            continue;
        }
        let reads_twice = (0..root.operand_count())
            .filter(|i| operand(root, *i) == Some(input))
            .count()
            > 1;
        let inside = |user: &OperationRef| chain.ops.contains(user);
        let closed = chain.ops[1..]
            .iter()
            .all(|op| result_users(*op).iter().all(inside));
        if closed
            && (chain.ops.len() > 1 || reads_twice)
            && best.as_ref().is_none_or(|b| chain.ops.len() > b.ops.len())
        {
            best = Some(chain);
        }
    }
    best
}

fn fold_chain<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    if !is_table_index(result.into()) {
        return false;
    }
    let Some((shape, _)) = tensor_info(result.into()) else {
        return false;
    };
    let Some(chain) = longest_chain(op, &shape) else {
        return false;
    };
    let Some(input) = chain.input else {
        return false;
    };
    let Some((_, xq)) = quantized(input) else {
        return false;
    };
    let Some(table) = (0..256)
        .map(|i| evaluate(&chain, op, input, (xq.range.0 + i) as f64).map(|v| v as i64 as u8))
        .collect::<Option<Vec<u8>>>()
    else {
        return false;
    };
    let table_type = super::ir::tensor_type(&[256], IntegerType::new(context, 8).into());
    let attribute = glow_dialects::elements::dense_elements(table_type, &table);
    let e = Emitter::before(context, op, rewriter);
    let value = e.op(
        "glow.quant.lookup_table",
        &[input],
        &[("table", attribute)],
        result.r#type(),
    );
    rewriter.replace_op_with_values(op, &[value]);
    true
}

/// The users of `op`'s result.
fn result_users<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    op.result(0).map(|r| users(r.into())).unwrap_or_default()
}

/// The value of `root`'s result when the chain's input holds the storage value `x`:
/// a float for float values, the storage integer for quantized ones.
fn evaluate(chain: &Chain, root: OperationRef, input: Value, x: f64) -> Option<f64> {
    let mut values: HashMap<usize, f64> = chain.constants.clone();
    values.insert(input.to_raw().ptr as usize, x);
    // Operands before users: the chain was collected users first.
    for op in chain.ops.iter().rev() {
        let args: Option<Vec<f64>> = (0..op.operand_count())
            .map(|i| operand(*op, i).and_then(|v| values.get(&(v.to_raw().ptr as usize)).copied()))
            .collect();
        let value = apply(*op, &args?)?;
        values.insert(op.result(0).ok()?.to_raw().ptr as usize, value);
    }
    values
        .get(&(root.result(0).ok()?.to_raw().ptr as usize))
        .copied()
}

/// The quantization of `op`'s operand `i` or (with `None`) result.
fn quantization_of(op: OperationRef, i: Option<usize>) -> Option<UniformQuantization> {
    let value = match i {
        Some(i) => operand(op, i)?,
        None => op.result(0).ok()?.into(),
    };
    quantized(value).map(|(_, q)| q)
}

/// `op` applied to `args` (see [`evaluate`]).
fn apply(op: OperationRef, args: &[f64]) -> Option<f64> {
    let f32 = |v: f64| v as f32 as f64;
    let unary = |f: fn(f64) -> f64| f32(f(args[0]));
    let value = match name_of(op).as_str() {
        "glow.quant.dequantize" => {
            let q = quantization_of(op, Some(0))?;
            dequantize(args[0], &q)
        }
        "glow.quant.quantize" => quantize(args[0], &quantization_of(op, None)?),
        "glow.quant.rescale" => {
            let from = quantization_of(op, Some(0))?;
            quantize(dequantize(args[0], &from), &quantization_of(op, None)?)
        }
        "glow.quant.add" | "glow.quant.mul" => {
            let (a, b) = (quantization_of(op, Some(0))?, quantization_of(op, Some(1))?);
            let out = quantization_of(op, None)?;
            let (ca, cb) = (
                args[0] - a.zero_points[0] as f64,
                args[1] - b.zero_points[0] as f64,
            );
            let scaled = if name_of(op) == "glow.quant.add" {
                let ka = f32(a.scales[0] / out.scales[0]) as f32;
                let kb = f32(b.scales[0] / out.scales[0]) as f32;
                (ca as f32 * ka + cb as f32 * kb) as f64
            } else {
                let k = f32(a.scales[0] * b.scales[0] / out.scales[0]) as f32;
                ((ca * cb) as f32 * k) as f64
            };
            let bounds = clamp_bounds(op, &out);
            let stored = scaled.round_ties_even() + out.zero_points[0] as f64;
            stored.clamp(bounds.0 as f64, bounds.1 as f64)
        }
        "glow.quant.lookup_table" => {
            let q = quantization_of(op, Some(0))?;
            let bytes = glow_dialects::elements::raw_bytes(op.attribute("table").ok()?, 1, false)?;
            let entry = *bytes.get((args[0] as i64 - q.range.0) as usize)?;
            let out = quantization_of(op, None)?;
            if out.signed {
                entry as i8 as f64
            } else {
                entry as f64
            }
        }
        "glow.graph.add" => f32(args[0] + args[1]),
        "glow.graph.sub" => f32(args[0] - args[1]),
        "glow.graph.mul" => f32(args[0] * args[1]),
        "glow.graph.div" => f32(args[0] / args[1]),
        "glow.graph.max" => args[0].max(args[1]),
        "glow.graph.min" => args[0].min(args[1]),
        "glow.graph.pow" => f32(args[0].powf(args[1])),
        "glow.graph.cmp_eq" => (args[0] == args[1]) as u8 as f64,
        "glow.graph.cmp_neq" => (args[0] != args[1]) as u8 as f64,
        "glow.graph.cmp_lt" => (args[0] < args[1]) as u8 as f64,
        "glow.graph.cmp_lte" => (args[0] <= args[1]) as u8 as f64,
        "glow.graph.select" => {
            if args[0] != 0.0 {
                args[1]
            } else {
                args[2]
            }
        }
        "glow.graph.neg" => -args[0],
        "glow.graph.abs" => args[0].abs(),
        "glow.graph.relu" => args[0].max(0.0),
        "glow.graph.sqrt" => unary(f64::sqrt),
        "glow.graph.rsqrt" => unary(|v| 1.0 / v.sqrt()),
        "glow.graph.exp" => unary(f64::exp),
        "glow.graph.log" => unary(f64::ln),
        "glow.graph.erf" => unary(erf),
        "glow.graph.tanh" => unary(f64::tanh),
        "glow.graph.sigmoid" => unary(|v| 1.0 / (1.0 + (-v).exp())),
        "glow.graph.hard_swish" => unary(|v| v * (v + 3.0).clamp(0.0, 6.0) / 6.0),
        "glow.graph.floor" => args[0].floor(),
        "glow.graph.ceil" => args[0].ceil(),
        "glow.graph.round" => args[0].round_ties_even(),
        "glow.graph.clip" => {
            let (low, high) = (f64_value(op, "min")?, f64_value(op, "max")?);
            if low > high {
                high
            } else {
                args[0].clamp(low, high)
            }
        }
        "glow.graph.leaky_relu" => {
            let alpha = f64_value(op, "alpha").unwrap_or(0.01);
            if args[0] >= 0.0 {
                args[0]
            } else {
                f32(alpha * args[0])
            }
        }
        "glow.graph.hard_sigmoid" => {
            let alpha = f64_value(op, "alpha").unwrap_or(0.2);
            let beta = f64_value(op, "beta").unwrap_or(0.5);
            f32((alpha * args[0] + beta).clamp(0.0, 1.0))
        }
        "glow.graph.gelu" => {
            let v = args[0];
            if op.attribute("approximate").is_ok() {
                let inner = (2.0 / std::f64::consts::PI).sqrt() * (v + 0.044715 * v * v * v);
                f32(v * (1.0 + inner.tanh()) / 2.0)
            } else {
                f32(v * (1.0 + erf(v / std::f64::consts::SQRT_2)) / 2.0)
            }
        }
        _ => return None,
    };
    Some(value)
}

/// `(q - z) * s` in f32, as the reference lowering dequantizes.
fn dequantize(q: f64, quantization: &UniformQuantization) -> f64 {
    let centred = (q - quantization.zero_points[0] as f64) as f32;
    (centred * quantization.scales[0] as f32) as f64
}

/// `clamp(roundeven(x / s) + z)` in f32, as the reference lowering quantizes.
fn quantize(x: f64, quantization: &UniformQuantization) -> f64 {
    let scaled = (x as f32 / quantization.scales[0] as f32).round_ties_even();
    let (low, high) = quantization.range;
    let stored = scaled as f64 + quantization.zero_points[0] as f64;
    stored.clamp(low as f64, high as f64)
}

/// The error function (the C library's, which Rust's standard library lacks).
fn erf(x: f64) -> f64 {
    unsafe extern "C" {
        #[link_name = "erf"]
        fn c_erf(x: f64) -> f64;
    }
    // SAFETY: a pure C math function.
    unsafe { c_erf(x) }
}
