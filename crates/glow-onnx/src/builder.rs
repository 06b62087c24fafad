//! Per-node building context: the values known so far (with their static types and,
//! when known at import time, their constant data), typed access to the node's
//! inputs and attributes, and helpers that append `glow.graph` ops.

use crate::{
    element::Element,
    proto::{attribute_proto::AttributeType, AttributeProto, NodeProto},
    tensor::TensorData,
};
use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::{DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute},
        r#type::{IntegerType, RankedTensorType},
        Attribute, BlockLike, BlockRef, Location, Operation, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use std::{collections::HashMap, rc::Rc};

/// Uniform quantization parameters of a tensor (ONNX QuantizeLinear's output):
/// value = (q - zero_point) * scale, per tensor or along `axis`.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantization {
    /// One scale per tensor, or one per slice along `axis`.
    pub scales: Vec<f64>,
    /// Zero points, as many as scales.
    pub zero_points: Vec<i64>,
    /// The quantized dimension for per-axis quantization.
    pub axis: Option<usize>,
    /// The float type the values express.
    pub expressed: Element,
}

/// A value of the graph: its static type and, if known at import time, its data.
#[derive(Clone)]
pub struct Slot<'c, 'a> {
    /// Static shape.
    pub shape: Vec<i64>,
    /// Element type (the storage type of a quantized tensor).
    pub element: Element,
    /// The MLIR value, once materialized.
    pub value: Option<Value<'c, 'a>>,
    /// The data, when it is a compile-time constant.
    pub constant: Option<Rc<TensorData>>,
    /// Quantization parameters when the value is a `!quant.uniform` tensor.
    pub quantization: Option<Rc<Quantization>>,
    /// For a constant DequantizeLinear made of quantized data (int8 weights, int32
    /// biases): that data and its parameters. `constant` holds the dequantized floats
    /// for import-time folding; `materialize` emits the quantized constant and a
    /// dequantize, which glow-quantization-folding turns into integer compute.
    pub quantized_constant: Option<Rc<(TensorData, Quantization)>>,
}

impl<'c, 'a> Slot<'c, 'a> {
    /// A runtime value.
    pub fn value(value: Value<'c, 'a>, shape: Vec<i64>, element: Element) -> Self {
        Self {
            shape,
            element,
            value: Some(value),
            constant: None,
            quantization: None,
            quantized_constant: None,
        }
    }

    /// A compile-time constant (materialized only if an op needs it as an operand).
    pub fn constant(data: TensorData) -> Self {
        Self {
            shape: data.dims.clone(),
            element: data.element,
            value: None,
            constant: Some(Rc::new(data)),
            quantization: None,
            quantized_constant: None,
        }
    }

    /// The constant `floats`, dequantized at import time from `storage` with
    /// `quantization` (see [`Self::quantized_constant`]).
    pub fn dequantized_constant(
        floats: TensorData,
        storage: TensorData,
        quantization: Quantization,
    ) -> Self {
        let mut slot = Self::constant(floats);
        slot.quantized_constant = Some(Rc::new((storage, quantization)));
        slot
    }
}

/// Converter results: one slot per node output; errors are plain reasons (the caller
/// adds the node's name and op type).
pub type Converted<'c, 'a> = Result<Vec<Slot<'c, 'a>>, String>;

/// Tensors with at most this many bytes become inline `dense<...>` attributes; larger
/// ones become `dense_resource` blobs.
const INLINE_BYTES: usize = 256;

/// Constants with at least this many bytes that several ops read are emitted once per
/// block (an unrolled recurrence's weights: 1,025 copies of 1 MB over 512 steps).
const SHARED_BYTES: usize = 16 << 10;

/// Everything a converter needs while converting one node.
pub struct NodeContext<'c, 'a, 'e> {
    pub(crate) context: &'c Context,
    pub(crate) block: BlockRef<'c, 'a>,
    pub(crate) location: Location<'c>,
    pub(crate) node: &'e NodeProto,
    pub(crate) opset: i64,
    pub(crate) env: &'e mut HashMap<String, Slot<'c, 'a>>,
    pub(crate) resources: &'e mut crate::import::Resources<'c>,
}

impl<'c, 'a> NodeContext<'c, 'a, '_> {
    /// The default-domain opset version.
    pub fn opset(&self) -> i64 {
        self.opset
    }

    /// The number of inputs, counting empty (omitted optional) names.
    pub fn input_count(&self) -> usize {
        self.node.input.len()
    }

    /// Whether optional input `i` is present.
    pub fn has_input(&self, i: usize) -> bool {
        self.node.input.get(i).is_some_and(|name| !name.is_empty())
    }

    /// Input `i`'s slot.
    pub fn input(&self, i: usize) -> Result<Slot<'c, 'a>, String> {
        let name = self
            .node
            .input
            .get(i)
            .filter(|n| !n.is_empty())
            .ok_or_else(|| format!("input #{i} is missing"))?;
        self.env
            .get(name)
            .cloned()
            .ok_or_else(|| format!("input '{name}' is not produced by any earlier node"))
    }

    /// Input `i`'s data, which must be known at import time.
    pub fn constant_input(&self, i: usize, what: &str) -> Result<Rc<TensorData>, String> {
        self.input(i)?.constant.ok_or_else(|| {
            format!(
                "{what} (input #{i}, '{}') must be a constant or computable from static shapes",
                self.node.input[i]
            )
        })
    }

    /// Input `i` as an MLIR value, materializing a constant if needed.
    pub fn value(&mut self, i: usize) -> Result<Value<'c, 'a>, String> {
        let slot = self.input(i)?;
        let name = self.node.input[i].clone();
        let value = self.materialize(&slot)?;
        if slot.value.is_none() {
            if let Some(entry) = self.env.get_mut(&name) {
                entry.value = Some(value);
            }
        }
        Ok(value)
    }

    /// The MLIR value of a slot, emitting a `glow.graph.constant` for constants.
    pub fn materialize(&mut self, slot: &Slot<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        if slot.quantization.is_some() {
            return Err(
                "a quantized tensor (QuantizeLinear's output) feeds an op other than \
                 DequantizeLinear; quantized compute is not imported yet"
                    .into(),
            );
        }
        if let Some(value) = slot.value {
            return Ok(value);
        }
        if let Some(quantized) = &slot.quantized_constant {
            return Ok(self.dequantized_value(&quantized.0, &quantized.1));
        }
        let data = slot
            .constant
            .as_ref()
            .ok_or("value has neither data nor a definition")?;
        // Weights of at least SHARED_BYTES are emitted once per block; smaller data
        // stays one constant per use. Shared, BERT's LayerNorm scales (one initializer
        // in torch's export) became one broadcast, kept alive across all 13 norms
        // (+98 KB of activations, 14 %), since linalg fuses only single-use producers.
        let shared = data.bytes.len() >= SHARED_BYTES;
        let key = (Rc::as_ptr(data) as usize, self.block.to_raw().ptr as usize);
        if let Some((weak, raw)) = self.resources.materialized.get(&key).filter(|_| shared) {
            if weak.upgrade().is_some_and(|same| Rc::ptr_eq(&same, data)) {
                // SAFETY: a value emitted earlier into this block, which the import
                // never erases.
                return Ok(unsafe { Value::from_raw(*raw) });
            }
        }
        let attribute = self.elements_attribute(data);
        let r#type = self.tensor_type(&data.dims, data.element);
        let value =
            self.emit(glow_graph::constant(self.context, r#type, attribute, self.location).into());
        if shared {
            self.resources
                .materialized
                .insert(key, (Rc::downgrade(data), value.to_raw()));
        }
        Ok(value)
    }

    /// `glow.quant.dequantize(quant.scast(glow.graph.constant storage))`: the float
    /// value of quantized constant data, kept quantized in the IR.
    fn dequantized_value(&mut self, storage: &TensorData, q: &Quantization) -> Value<'c, 'a> {
        use glow_dialects::ods::glow_quant;
        use melior::ir::operation::OperationBuilder;
        // quant.scast takes the signless storage integer; the bytes are the same.
        let signless = match storage.element {
            Element::U8 => Element::I8,
            Element::U16 => Element::I16,
            Element::U32 => Element::I32,
            other => other,
        };
        let raw = TensorData {
            element: signless,
            ..storage.clone()
        };
        let attribute = self.elements_attribute(&raw);
        let storage_type = self.tensor_type(&storage.dims, signless);
        let constant = self.emit(
            glow_graph::constant(self.context, storage_type, attribute, self.location).into(),
        );
        let quantized_type = self.quantized_tensor_type(&storage.dims, storage.element, q);
        let cast = OperationBuilder::new("quant.scast", self.location)
            .add_operands(&[constant])
            .add_results(&[quantized_type])
            .build()
            .expect("quant.scast of a storage tensor");
        let cast = self.emit(cast);
        let float_type = self.tensor_type(&storage.dims, q.expressed);
        self.emit(glow_quant::dequantize(self.context, float_type, cast, self.location).into())
    }

    /// An elements attribute holding `data`: inline when small, a `dense_resource`
    /// blob otherwise.
    pub fn elements_attribute(&mut self, data: &TensorData) -> Attribute<'c> {
        let r#type = self.tensor_type(&data.dims, data.element);
        if data.element == Element::Bool {
            let values: Vec<i32> = data.bytes.iter().map(|b| i32::from(*b != 0)).collect();
            // SAFETY: the type is a valid shaped type and `values` has one entry per element.
            return unsafe {
                Attribute::from_raw(mlir_sys::mlirDenseElementsAttrBoolGet(
                    r#type.to_raw(),
                    values.len() as isize,
                    values.as_ptr(),
                ))
            };
        }
        if data.bytes.len() <= INLINE_BYTES {
            return glow_dialects::elements::dense_elements(r#type, &data.bytes);
        }
        self.resources.blob(r#type, &data.bytes)
    }

    /// `tensor<shape x element>`.
    pub fn tensor_type(&self, shape: &[i64], element: Element) -> Type<'c> {
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        RankedTensorType::new(&dims, element.mlir(self.context), None).into()
    }

    /// `tensor<shape x !quant.uniform<...>>` for quantization `q` over `storage`.
    pub fn quantized_tensor_type(
        &self,
        shape: &[i64],
        storage: Element,
        q: &Quantization,
    ) -> Type<'c> {
        let signed = !matches!(
            storage,
            Element::U8 | Element::U16 | Element::U32 | Element::U64
        );
        let width = (storage.size() * 8) as u32;
        // SAFETY: plain type constructors on valid types of this context.
        let element = unsafe {
            let flags = if signed {
                mlir_sys::mlirQuantizedTypeGetSignedFlag()
            } else {
                0
            };
            let storage_type = mlir_sys::mlirIntegerTypeGet(self.context.to_raw(), width);
            let expressed = q.expressed.mlir(self.context).to_raw();
            let min = mlir_sys::mlirQuantizedTypeGetDefaultMinimumForInteger(signed, width);
            let max = mlir_sys::mlirQuantizedTypeGetDefaultMaximumForInteger(signed, width);
            match q.axis {
                None => mlir_sys::mlirUniformQuantizedTypeGet(
                    flags,
                    storage_type,
                    expressed,
                    q.scales[0],
                    q.zero_points[0],
                    min,
                    max,
                ),
                Some(axis) => {
                    let mut scales = q.scales.clone();
                    let mut zero_points = q.zero_points.clone();
                    mlir_sys::mlirUniformQuantizedPerAxisTypeGet(
                        flags,
                        storage_type,
                        expressed,
                        scales.len() as isize,
                        scales.as_mut_ptr(),
                        zero_points.as_mut_ptr(),
                        axis as i32,
                        min,
                        max,
                    )
                }
            }
        };
        // SAFETY: `element` is a valid type.
        let element = unsafe { Type::from_raw(element) };
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        RankedTensorType::new(&dims, element, None).into()
    }

    /// The static shape of a value built so far.
    pub fn shape_of(&self, value: Value<'c, 'a>) -> Vec<i64> {
        use melior::ir::{
            r#type::{DimSize, ShapedTypeLike},
            ValueLike,
        };
        RankedTensorType::try_from(value.r#type())
            .map(|t| {
                (0..t.rank())
                    .map(|d| match t.dim_size(d) {
                        Ok(DimSize::Static(n)) => n as i64,
                        _ => -1,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Appends `op` and returns its first result.
    pub fn emit(&self, op: Operation<'c>) -> Value<'c, 'a> {
        let op = self.block.append_operation(op);
        op.result(0).expect("glow.graph ops have a result").into()
    }

    /// An i64 attribute.
    pub fn i64_attr(&self, value: i64) -> IntegerAttribute<'c> {
        IntegerAttribute::new(IntegerType::new(self.context, 64).into(), value)
    }

    /// A dense i64 array attribute.
    pub fn array_attr(&self, values: &[i64]) -> Attribute<'c> {
        DenseI64ArrayAttribute::new(self.context, values).into()
    }

    /// A dense f64 array attribute (`array<f64: ...>`).
    pub fn f64_array_attr(&self, values: &[f64]) -> Attribute<'c> {
        // SAFETY: a live context and `values.len()` readable doubles.
        unsafe {
            Attribute::from_raw(mlir_sys::mlirDenseF64ArrayGet(
                self.context.to_raw(),
                values.len() as isize,
                values.as_ptr(),
            ))
        }
    }

    /// An f64 attribute.
    pub fn f64_attr(&self, value: f64) -> Attribute<'c> {
        FloatAttribute::new(self.context, Type::float64(self.context), value).into()
    }

    /// An f32 attribute.
    pub fn f32_attr(&self, value: f64) -> FloatAttribute<'c> {
        FloatAttribute::new(self.context, Type::float32(self.context), value)
    }

    /// A scalar attribute of `element` (for splat/clip/pad values).
    pub fn scalar_attr(&self, element: Element, value: f64) -> Attribute<'c> {
        let r#type = element.mlir(self.context);
        if element.is_float() {
            FloatAttribute::new(self.context, r#type, value).into()
        } else {
            IntegerAttribute::new(r#type, value as i64).into()
        }
    }

    fn attribute(&self, name: &str) -> Option<&AttributeProto> {
        self.node.attribute.iter().find(|a| a.name() == name)
    }

    /// An INT attribute, or `default`.
    pub fn attr_i(&self, name: &str, default: i64) -> i64 {
        self.attribute(name)
            .filter(|a| a.r#type() == AttributeType::Int || a.i.is_some())
            .map_or(default, |a| a.i())
    }

    /// A 0 / 1 INT attribute as a flag, or `default`; another value is an error (ONNX
    /// defines only 0 and 1 for these, and runtimes read the others differently).
    pub fn attr_flag(&self, name: &str, default: bool) -> Result<bool, String> {
        match self.attr_i(name, i64::from(default)) {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(format!("attribute '{name}' is {other}; it must be 0 or 1")),
        }
    }

    /// A FLOAT attribute, or `default`.
    pub fn attr_f(&self, name: &str, default: f32) -> f32 {
        self.attribute(name)
            .filter(|a| a.r#type() == AttributeType::Float || a.f.is_some())
            .map_or(default, |a| a.f())
    }

    /// An INTS attribute, if present.
    pub fn attr_ints(&self, name: &str) -> Option<Vec<i64>> {
        self.attribute(name).map(|a| a.ints.clone())
    }

    /// A FLOATS attribute, if present.
    pub fn attr_floats(&self, name: &str) -> Option<Vec<f32>> {
        self.attribute(name).map(|a| a.floats.clone())
    }

    /// A STRINGS attribute, if present.
    pub fn attr_strings(&self, name: &str) -> Option<Vec<String>> {
        self.attribute(name).map(|a| {
            a.strings
                .iter()
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect()
        })
    }

    /// A STRING attribute, or `default`.
    pub fn attr_s(&self, name: &str, default: &str) -> String {
        self.attribute(name)
            .map(|a| String::from_utf8_lossy(a.s()).into_owned())
            .unwrap_or_else(|| default.to_string())
    }

    /// A TENSOR attribute, if present.
    pub fn attr_tensor(&self, name: &str) -> Option<&crate::proto::TensorProto> {
        self.attribute(name).and_then(|a| a.t.as_ref())
    }

    /// Whether attribute `name` is present.
    pub fn has_attr(&self, name: &str) -> bool {
        self.attribute(name).is_some()
    }

    /// Names of attributes the converter did not expect, for strictness.
    pub fn attribute_names(&self) -> impl Iterator<Item = &str> {
        self.node.attribute.iter().map(|a| a.name())
    }
}

/// Normalizes a possibly negative `axis` against `rank`.
pub fn normalize_axis(axis: i64, rank: usize) -> Result<usize, String> {
    let rank = rank as i64;
    let a = if axis < 0 { axis + rank } else { axis };
    if a < 0 || a >= rank {
        return Err(format!("axis {axis} is out of range for rank {rank}"));
    }
    Ok(a as usize)
}
