//! Reading and building the IR the quantization passes work on: the ops that define
//! values, quantized types and constants, and generic op construction.

use crate::lower_nodes::builder::tensor_info;
use glow_dialects::quant_types::{self, UniformQuantization};
use melior::{
    ir::{
        operation::{OperationBuilder, OperationLike},
        r#type::RankedTensorType,
        Attribute, Identifier, Location, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The op defining `value`, if any.
pub fn producer<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let owner = crate::framework::values::defining_op(value)?;
    // SAFETY: the defining op lives in the same IR as its result.
    Some(unsafe { OperationRef::from_raw(owner.to_raw()) })
}

/// The ops using `value` (an op once per use).
pub fn users<'c: 'a, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    // SAFETY: use iteration over a live value does not mutate the IR; each owner is a
    // live op of the same IR.
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !use_.ptr.is_null() {
            out.push(OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(
                use_,
            )));
            use_ = mlir_sys::mlirOpOperandGetNextUse(use_);
        }
    }
    out
}

pub use crate::framework::attributes::name_of;

/// The op defining `value` when it is named `name`.
pub fn produced_by<'c: 'a, 'a>(value: Value<'c, 'a>, name: &str) -> Option<OperationRef<'c, 'a>> {
    producer(value).filter(|op| name_of(*op) == name)
}

/// Operand `i` of `op`, with the lifetime of the IR `op` lives in; `None` when `op`
/// has fewer operands. (Checked here, not through melior's `operand`, whose error for
/// an index out of range prints the op, at the cost of numbering its whole function.)
pub fn operand<'c: 'a, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Option<Value<'c, 'a>> {
    if i >= op.operand_count() {
        return None;
    }
    let value = op.operand(i).ok()?;
    // SAFETY: the operand is a value of the same IR as `op`, alive as long as it.
    Some(unsafe { Value::from_raw(value.to_raw()) })
}

/// Result `i` of `op`; `None` when `op` has fewer results (checked first, as in
/// [`operand`]).
pub fn result<'c: 'a, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Option<Value<'c, 'a>> {
    if i >= op.result_count() {
        return None;
    }
    let value: Value = op.result(i).ok()?.into();
    // SAFETY: the result is a value of the same IR as `op`, alive as long as it.
    Some(unsafe { Value::from_raw(value.to_raw()) })
}

/// The quantized value a `glow.quant.dequantize` turns into `value`.
pub fn dequantized<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    operand(produced_by(value, "glow.quant.dequantize")?, 0)
}

/// Shape, parameters and expressed float type of a quantized tensor value.
pub fn quantized(value: Value) -> Option<(Vec<i64>, UniformQuantization)> {
    let (shape, element) = tensor_info(value)?;
    Some((shape, quant_types::uniform(element)?))
}

/// `tensor<shape x element>`.
pub fn tensor_type<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
    RankedTensorType::new(&dims, element, None).into()
}

/// `vector<shape x element>`.
pub fn vector_type<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    // SAFETY: a plain type constructor; the shape is copied.
    unsafe {
        Type::from_raw(mlir_sys::mlirVectorTypeGet(
            shape.len() as isize,
            shape.as_ptr(),
            melior::ir::TypeLike::to_raw(&element),
        ))
    }
}

/// The storage integers of a quantized constant: `quant.scast(glow.graph.constant)`
/// (or an `arith.constant`), read as i64, with the constant's shape.
pub fn quantized_constant(value: Value) -> Option<(Vec<i64>, Vec<i64>, UniformQuantization)> {
    let (shape, quantization) = quantized(value)?;
    let cast = produced_by(value, "quant.scast")?;
    let mut storage = operand(cast, 0)?;
    // A uint8 constant reaches the cast as its signless twin (tensor.bitcast).
    if let Some(bitcast) = produced_by(storage, "tensor.bitcast") {
        storage = operand(bitcast, 0)?;
    }
    let constant = producer(storage).filter(|op| {
        matches!(
            name_of(*op).as_str(),
            "glow.graph.constant" | "arith.constant"
        )
    })?;
    let bytes = glow_dialects::elements::raw_bytes(
        constant.attribute("value").ok()?,
        (quantization.width / 8) as usize,
        false,
    )?;
    let values = match (quantization.width, quantization.signed) {
        (8, true) => bytes.iter().map(|b| *b as i8 as i64).collect(),
        (8, false) => bytes.iter().map(|b| *b as i64).collect(),
        (32, _) => bytes
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64)
            .collect(),
        _ => return None,
    };
    Some((shape, values, quantization))
}

/// The f32 values of a float constant (`glow.graph.constant`, `arith.constant` or a
/// splat), of `count` elements.
pub fn float_constant(value: Value, count: usize) -> Option<Vec<f32>> {
    let (_, element) = tensor_info(value)?;
    if !element.is_f32() {
        return None;
    }
    let op = producer(value)?;
    match name_of(op).as_str() {
        "glow.graph.constant" | "arith.constant" => {
            glow_dialects::elements::f32_values(op.attribute("value").ok()?, count)
        }
        "glow.graph.splat" => {
            let scalar =
                melior::ir::attribute::FloatAttribute::try_from(op.attribute("value").ok()?)
                    .ok()?;
            Some(vec![scalar.value() as f32; count])
        }
        // A reshape keeps the elements in order (a Conv1d's filters, given an axis).
        "glow.graph.reshape" | "tensor.expand_shape" | "tensor.collapse_shape" => {
            float_constant(op.operand(0).ok()?, count)
        }
        _ => None,
    }
}

/// Elements of `type` from little-endian `bytes`: inline `dense<...>` when small, a
/// `dense_resource` blob otherwise (as the importer writes weights).
pub fn elements_attribute<'c>(r#type: Type<'c>, bytes: &[u8], name: &str) -> Attribute<'c> {
    if bytes.len() <= 256 {
        glow_dialects::elements::dense_elements(r#type, bytes)
    } else {
        glow_dialects::elements::resource_elements(r#type, name, bytes)
    }
}

/// Builds ops at a rewriter's insertion point.
pub struct Emitter<'c, 'r, 'b> {
    /// The context.
    pub context: &'c Context,
    /// The pattern's rewriter.
    pub rewriter: &'r RewriterBase<'c, 'b>,
    /// Location of the new ops.
    pub location: Location<'c>,
}

impl<'c, 'r, 'b> Emitter<'c, 'r, 'b> {
    /// An emitter inserting before `op`, at its location.
    pub fn before(
        context: &'c Context,
        op: OperationRef<'c, '_>,
        rewriter: &'r RewriterBase<'c, 'b>,
    ) -> Self {
        rewriter.set_insertion_point_before(op);
        Self {
            context,
            rewriter,
            location: op.location(),
        }
    }

    /// `name(operands) {attributes} : result`, returning its result.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        attributes: &[(&str, Attribute<'c>)],
        result: Type<'c>,
    ) -> Value<'c, 'r> {
        let attributes: Vec<(Identifier, Attribute)> = attributes
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_attributes(&attributes)
            .add_results(&[result])
            .build()
            .unwrap_or_else(|error| panic!("cannot build {name}: {error}"));
        self.rewriter
            .insert(op)
            .result(0)
            .expect("one result")
            .into()
    }

    /// `glow.quant.dequantize` of `value` to its expressed float type.
    pub fn dequantize(&self, value: Value<'c, '_>) -> Value<'c, 'r> {
        let (shape, element) = tensor_info(value).expect("static quantized tensor");
        let float = quant_types::expressed(element).expect("a quantized tensor");
        self.op(
            "glow.quant.dequantize",
            &[value],
            &[],
            tensor_type(&shape, float),
        )
    }

    /// `value` requantized to the element type `element` (nothing when it has it).
    pub fn rescale(&self, value: Value<'c, 'r>, element: Type<'c>) -> Value<'c, 'r> {
        let (shape, current) = tensor_info(value).expect("static quantized tensor");
        if current == element {
            return value;
        }
        self.op(
            "glow.quant.rescale",
            &[value],
            &[],
            tensor_type(&shape, element),
        )
    }

    /// The quantized constant `values` (storage integers) of `shape` with
    /// `quantization`: `quant.scast(glow.graph.constant)`.
    pub fn quantized_constant(
        &self,
        shape: &[i64],
        values: &[i64],
        quantization: &UniformQuantization,
        expressed: Type<'c>,
    ) -> Value<'c, 'r> {
        let width = quantization.width;
        let bytes: Vec<u8> = match width {
            8 => values.iter().map(|v| *v as u8).collect(),
            _ => values
                .iter()
                .flat_map(|v| (*v as i32).to_le_bytes())
                .collect(),
        };
        let storage = tensor_type(
            shape,
            melior::ir::r#type::IntegerType::new(self.context, width).into(),
        );
        let attribute = elements_attribute(storage, &bytes, "q");
        let constant = self.op("glow.graph.constant", &[], &[("value", attribute)], storage);
        let element = quantization.element_type(expressed);
        self.op("quant.scast", &[constant], &[], tensor_type(shape, element))
    }
}
