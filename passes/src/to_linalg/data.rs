//! Comparisons, logic, select, conversions, pow, gather, slice and pad to linalg /
//! tensor ops:
//! - cmp_eq/neq/lt/lte, is_nan, and/or/xor/not -> linalg.generic with arith.cmpf/cmpi
//!   or the i1 logic ops
//! - select -> linalg.select; pow -> linalg.powf
//! - convert -> linalg.generic with the arith cast for the element types (to i1:
//!   x != 0, as ONNX Cast)
//! - gather -> linalg.generic whose body extracts from the data with the index
//! - slice -> tensor.extract_slice; pad -> tensor.pad

use super::builder::{is_float, BodyBuilder, LinalgBuilder};
use crate::framework::attributes::i64_array;
use crate::{framework::Rule, lower_nodes::builder::tensor_info};
use melior::{
    ir::{
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, BlockLike, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

fn int_info(element: Type) -> Option<(u32, bool)> {
    IntegerType::try_from(element)
        .ok()
        .map(|t| (t.width(), t.is_unsigned()))
}

/// arith.cmpf / arith.cmpi predicates are I64EnumAttrs: their generic form is the
/// case's integer.
fn predicate_code(name: &str) -> String {
    let code = match name {
        // cmpf
        "oeq" => 1,
        "olt" => 4,
        "ole" => 5,
        "une" => 13,
        "uno" => 14,
        // cmpi
        "eq" => 0,
        "ne" => 1,
        "slt" => 2,
        "sle" => 3,
        "ult" => 6,
        "ule" => 7,
        other => unreachable!("predicate {other} is not used"),
    };
    format!("{code} : i64")
}

macro_rules! rule {
    ($name:ident, $root:literal, $rewrite:expr) => {
        #[doc = concat!("Converts `", $root, "`.")]
        pub static $name: Rule = Rule {
            root: $root,
            generates: &["linalg.generic"],
            rewrite: $rewrite,
        };
    };
}

/// A comparison: (float predicate, signed int predicate, unsigned int predicate).
fn compare<'c>(
    predicates: (&str, &str, &str),
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(lhs), Ok(rhs)) = (op.operand(0), op.operand(1)) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(lhs) else {
        return false;
    };
    let i1: Type = IntegerType::new(context, 1).into();
    let (name, predicate) = if is_float(element) {
        ("arith.cmpf", predicate_code(predicates.0))
    } else if let Some((_, unsigned)) = int_info(element) {
        (
            "arith.cmpi",
            predicate_code(if unsigned { predicates.2 } else { predicates.1 }),
        )
    } else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[lhs, rhs], &shape, i1, |body, args| {
        body.op(name, &args[..2], i1, &[("predicate", &predicate)])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

rule!(CMP_EQ, "glow.graph.cmp_eq", |c, o, r| compare(
    ("oeq", "eq", "eq"),
    c,
    o,
    r
));
rule!(CMP_NEQ, "glow.graph.cmp_neq", |c, o, r| compare(
    ("une", "ne", "ne"),
    c,
    o,
    r
));
rule!(CMP_LT, "glow.graph.cmp_lt", |c, o, r| compare(
    ("olt", "slt", "ult"),
    c,
    o,
    r
));
rule!(CMP_LTE, "glow.graph.cmp_lte", |c, o, r| compare(
    ("ole", "sle", "ule"),
    c,
    o,
    r
));

rule!(IS_NAN, "glow.graph.is_nan", |context, op, rewriter| {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, _)) = tensor_info(x) else {
        return false;
    };
    let i1: Type = IntegerType::new(context, 1).into();
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[x], &shape, i1, |body, args| {
        body.op(
            "arith.cmpf",
            &[args[0], args[0]],
            i1,
            &[("predicate", &predicate_code("uno"))],
        )
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

fn logic<'c>(
    name: &str,
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    let (Ok(lhs), Ok(rhs)) = (op.operand(0), op.operand(1)) else {
        return false;
    };
    let Some((shape, i1)) = tensor_info(lhs) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[lhs, rhs], &shape, i1, |body, args| {
        body.op(name, &args[..2], i1, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
}

rule!(AND, "glow.graph.and", |c, o, r| logic(
    "arith.andi",
    c,
    o,
    r
));
rule!(OR, "glow.graph.or", |c, o, r| logic("arith.ori", c, o, r));
rule!(XOR, "glow.graph.xor", |c, o, r| logic(
    "arith.xori",
    c,
    o,
    r
));

rule!(NOT, "glow.graph.not", |context, op, rewriter| {
    let Ok(x) = op.operand(0) else { return false };
    let Some((shape, i1)) = tensor_info(x) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.elementwise(&[x], &shape, i1, |body, args| {
        let one = body.op("arith.constant", &[], i1, &[("value", "true")]);
        // SAFETY: `one` was just defined in the body.
        let one = unsafe { Value::from_raw(one) };
        body.op("arith.xori", &[args[0], one], i1, &[])
    });
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(SELECT, "glow.graph.select", |context, op, rewriter| {
    let (Ok(cond), Ok(a), Ok(b_value), Ok(result)) =
        (op.operand(0), op.operand(1), op.operand(2), op.result(0))
    else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.empty(result.r#type());
    let converted = b.named(
        "linalg.select",
        &[cond, a, b_value],
        init,
        result.r#type(),
        &[],
    );
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(POW, "glow.graph.pow", |context, op, rewriter| {
    let (Ok(lhs), Ok(rhs), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let Some((_, element)) = tensor_info(lhs) else {
        return false;
    };
    if !is_float(element) {
        return false;
    }
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.empty(result.r#type());
    let converted = b.named("linalg.powf", &[lhs, rhs], init, result.r#type(), &[]);
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

/// The arith op converting one scalar element type to another, appended to `body`.
fn cast<'c>(
    body: &BodyBuilder<'c, '_>,
    value: Value<'c, '_>,
    from: Type<'c>,
    to: Type<'c>,
) -> Option<mlir_sys::MlirValue> {
    let (from_float, to_float) = (is_float(from), is_float(to));
    let bits = |t: Type| -> u32 {
        // SAFETY: width queries on valid float / integer types.
        unsafe {
            if is_float(t) {
                mlir_sys::mlirFloatTypeGetWidth(t.to_raw())
            } else {
                mlir_sys::mlirIntegerTypeGetWidth(t.to_raw())
            }
        }
    };
    if to_float {
        return Some(if from_float {
            let name = if bits(to) > bits(from) {
                "arith.extf"
            } else {
                "arith.truncf"
            };
            body.op(name, &[value], to, &[])
        } else {
            let (width, unsigned) = int_info(from)?;
            let name = if unsigned || width == 1 {
                "arith.uitofp"
            } else {
                "arith.sitofp"
            };
            body.op(name, &[value], to, &[])
        });
    }
    let (to_width, to_unsigned) = int_info(to)?;
    if to_width == 1 {
        // ONNX Cast to bool: x != 0.
        let zero = if from_float {
            body.op(
                "arith.constant",
                &[],
                from,
                &[("value", &format!("0.0 : {from}"))],
            )
        } else {
            body.op(
                "arith.constant",
                &[],
                from,
                &[("value", &format!("0 : {from}"))],
            )
        };
        // SAFETY: `zero` was just defined in the body.
        let zero = unsafe { Value::from_raw(zero) };
        let i1: Type = IntegerType::new(body.context, 1).into();
        return Some(if from_float {
            body.op(
                "arith.cmpf",
                &[value, zero],
                i1,
                &[("predicate", &predicate_code("une"))],
            )
        } else {
            body.op(
                "arith.cmpi",
                &[value, zero],
                i1,
                &[("predicate", &predicate_code("ne"))],
            )
        });
    }
    if from_float {
        let name = if to_unsigned {
            "arith.fptoui"
        } else {
            "arith.fptosi"
        };
        return Some(body.op(name, &[value], to, &[]));
    }
    let (from_width, from_unsigned) = int_info(from)?;
    Some(if to_width > from_width {
        let name = if from_unsigned || from_width == 1 {
            "arith.extui"
        } else {
            "arith.extsi"
        };
        body.op(name, &[value], to, &[])
    } else if to_width < from_width {
        body.op("arith.trunci", &[value], to, &[])
    } else {
        body.op("arith.bitcast", &[value], to, &[])
    })
}

rule!(CONVERT, "glow.graph.convert", |context, op, rewriter| {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((shape, from)), Some((_, to))) = (tensor_info(input), tensor_info(result.into()))
    else {
        return false;
    };
    // Signless / signed / unsigned integers of one width need no arith op.
    let b = LinalgBuilder::before(context, op, rewriter);
    let mut supported = true;
    let converted = b.elementwise(&[input], &shape, to, |body, args| {
        match cast(body, args[0], from, to) {
            Some(value) => value,
            None => {
                supported = false;
                args[0].to_raw()
            }
        }
    });
    if !supported {
        return false;
    }
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(SLICE, "glow.graph.slice", |context, op, rewriter| {
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let Some((sizes, _)) = tensor_info(result.into()) else {
        return false;
    };
    let Some(offsets) = i64_array(op, "start") else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    // An empty slice may start at the end, which tensor.extract_slice rejects.
    if sizes.contains(&0) {
        let empty = b.empty(result.r#type());
        rewriter.replace_op_with_values(op, &[empty]);
        return true;
    }
    let segments = melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[1, 0, 0, 0]);
    let Ok(slice) = OperationBuilder::new("tensor.extract_slice", op.location())
        .add_operands(&[input])
        .add_attributes(&[
            (
                melior::ir::Identifier::new(context, "static_offsets"),
                b.array(&offsets),
            ),
            (
                melior::ir::Identifier::new(context, "static_sizes"),
                b.array(&sizes),
            ),
            (
                melior::ir::Identifier::new(context, "static_strides"),
                b.array(&vec![1; sizes.len()]),
            ),
            (
                melior::ir::Identifier::new(context, "operandSegmentSizes"),
                segments.into(),
            ),
        ])
        .add_results(&[result.r#type()])
        .build()
    else {
        return false;
    };
    let slice = rewriter.insert(slice);
    let Ok(value) = slice.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value.into()]);
    true
});

rule!(PAD, "glow.graph.pad", |context, op, rewriter| {
    let (Ok(input), Ok(value)) = (op.operand(0), op.attribute("value")) else {
        return false;
    };
    let Some((shape, element)) = tensor_info(input) else {
        return false;
    };
    let Some(pads) = i64_array(op, "pads") else {
        return false;
    };
    let rank = shape.len();
    let b = LinalgBuilder::before(context, op, rewriter);
    let converted = b.pad(input, &pads[..rank], &pads[rank..], value, element);
    rewriter.replace_op_with_values(op, &[converted]);
    true
});

rule!(GATHER, "glow.graph.gather", |context, op, rewriter| {
    let (Ok(data), Ok(indices), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else {
        return false;
    };
    let (Some((data_shape, element)), Some((index_shape, index_type))) =
        (tensor_info(data), tensor_info(indices))
    else {
        return false;
    };
    let Some((result_shape, _)) = tensor_info(result.into()) else {
        return false;
    };
    let axis = op
        .attribute("axis")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value()) as usize;
    let rank = result_shape.len();
    let index_rank = index_shape.len();
    // out[o..] = data[o[0..axis], idx[o[axis..axis+q]], o[axis+q..]]
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let index_map = format!(
        "affine_map<({}) -> ({})>",
        dims.join(", "),
        dims[axis..axis + index_rank].join(", ")
    );
    let out_map = format!("affine_map<({}) -> ({})>", dims.join(", "), dims.join(", "));
    let maps = format!("[{index_map}, {out_map}]");
    let iterators = format!(
        "[{}]",
        vec!["#linalg.iterator_type<parallel>"; rank].join(", ")
    );
    let b = LinalgBuilder::before(context, op, rewriter);
    let init = b.empty(result.r#type());
    let location = op.location();
    let block = melior::ir::Block::new(&[(index_type, location), (element, location)]);
    let body = BodyBuilder {
        context,
        block: &block,
        location,
    };
    let index = Type::index(context);
    let extent = data_shape[axis];
    let raw_index: Value = block.argument(0).expect("index argument").into();
    let as_index = body.op("arith.index_cast", &[raw_index], index, &[]);
    // Negative indices count from the end: i < 0 ? i + extent : i.
    let (as_index, zero, size) = unsafe {
        (
            Value::from_raw(as_index),
            Value::from_raw(body.op("arith.constant", &[], index, &[("value", "0 : index")])),
            Value::from_raw(body.op(
                "arith.constant",
                &[],
                index,
                &[("value", &format!("{extent} : index"))],
            )),
        )
    };
    let i1: Type = IntegerType::new(context, 1).into();
    let negative = unsafe {
        Value::from_raw(body.op(
            "arith.cmpi",
            &[as_index, zero],
            i1,
            &[("predicate", &predicate_code("slt"))],
        ))
    };
    let wrapped = unsafe { Value::from_raw(body.op("arith.addi", &[as_index, size], index, &[])) };
    let position = unsafe {
        Value::from_raw(body.op("arith.select", &[negative, wrapped, as_index], index, &[]))
    };
    let mut coordinates: Vec<Value> = Vec::new();
    for d in 0..data_shape.len() {
        if d == axis {
            coordinates.push(position);
        } else {
            let out_dim = if d < axis { d } else { d - 1 + index_rank };
            let raw = body.op(
                "linalg.index",
                &[],
                index,
                &[("dim", &format!("{out_dim} : i64"))],
            );
            coordinates.push(unsafe { Value::from_raw(raw) });
        }
    }
    let mut operands = vec![data];
    operands.extend(coordinates);
    let extracted = body.op("tensor.extract", &operands, element, &[]);
    block.append_operation(
        OperationBuilder::new("linalg.yield", location)
            .add_operands(&[unsafe { Value::from_raw(extracted) }])
            .build()
            .expect("valid linalg.yield"),
    );
    let region = melior::ir::Region::new();
    melior::ir::RegionLike::append_block(&region, block);
    let parse = |text: &str| Attribute::parse(context, text).expect("valid attribute");
    let segments = melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[1, 1]);
    let Ok(generic) = OperationBuilder::new("linalg.generic", location)
        .add_operands(&[indices, init])
        .add_attributes(&[
            (
                melior::ir::Identifier::new(context, "indexing_maps"),
                parse(&maps),
            ),
            (
                melior::ir::Identifier::new(context, "iterator_types"),
                parse(&iterators),
            ),
            (
                melior::ir::Identifier::new(context, "operandSegmentSizes"),
                segments.into(),
            ),
        ])
        .add_results(&[result.r#type()])
        .add_regions([region])
        .build()
    else {
        return false;
    };
    let generic = rewriter.insert(generic);
    let Ok(value) = generic.result(0) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value.into()]);
    true
});

/// Every rule of this file.
pub const RULES: &[&Rule] = &[
    &CMP_EQ, &CMP_NEQ, &CMP_LT, &CMP_LTE, &IS_NAN, &AND, &OR, &XOR, &NOT, &SELECT, &POW, &CONVERT,
    &SLICE, &PAD, &GATHER,
];
