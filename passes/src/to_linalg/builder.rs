//! Emitting upstream ops (linalg named ops, tensor, arith) at a rewriter's insertion
//! point for the glow.graph -> linalg conversion.

use melior::{
    ir::{
        attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute},
        operation::OperationBuilder,
        operation::OperationLike,
        r#type::{IntegerType, RankedTensorType},
        Attribute, AttributeLike, BlockLike, Location, Operation, OperationRef, Region, RegionLike,
        Type, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Appends scalar ops to the body of a `linalg.generic`.
pub struct BodyBuilder<'c, 'k> {
    /// The context.
    pub context: &'c Context,
    /// The body block.
    pub block: &'k melior::ir::Block<'c>,
    /// Location of the ops.
    pub location: Location<'c>,
}

impl<'c, 'k> BodyBuilder<'c, 'k> {
    /// Appends `name(operands) {attributes} : result` and returns its result.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, &str)],
    ) -> mlir_sys::MlirValue {
        let attributes: Vec<(melior::ir::Identifier, Attribute)> = attributes
            .iter()
            .map(|(n, text)| {
                (
                    melior::ir::Identifier::new(self.context, n),
                    Attribute::parse(self.context, text).expect("valid attribute"),
                )
            })
            .collect();
        let op = self.block.append_operation(
            OperationBuilder::new(name, self.location)
                .add_operands(operands)
                .add_attributes(&attributes)
                .add_results(&[result])
                .build()
                .expect("valid scalar op"),
        );
        op.result(0).expect("one result").to_raw()
    }

    /// [`Self::op`], as a value of the body.
    pub fn value(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, &str)],
    ) -> Value<'c, 'k> {
        // SAFETY: the op was just appended to the body block, which outlives 'k.
        unsafe { Value::from_raw(self.op(name, operands, result, attributes)) }
    }

    /// `linalg.index dim` (the loop's position along iteration dimension `dim`).
    pub fn index(&self, dim: usize) -> Value<'c, 'k> {
        let index = Type::index(self.context);
        self.value(
            "linalg.index",
            &[],
            index,
            &[("dim", &format!("{dim} : i64"))],
        )
    }

    /// An `index` constant.
    pub fn index_constant(&self, n: i64) -> Value<'c, 'k> {
        let index = Type::index(self.context);
        self.value(
            "arith.constant",
            &[],
            index,
            &[("value", &format!("{n} : index"))],
        )
    }
}

/// Builds upstream ops before the op being converted.
pub struct LinalgBuilder<'c, 'r, 'b> {
    /// The context.
    pub context: &'c Context,
    /// The pattern's rewriter.
    pub rewriter: &'r RewriterBase<'c, 'b>,
    /// Location of the new ops.
    pub location: Location<'c>,
}

impl<'c, 'r, 'b> LinalgBuilder<'c, 'r, 'b> {
    /// A builder that inserts before `op`, at its location.
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

    fn insert(&self, op: Operation<'c>) -> Value<'c, 'r> {
        let inserted = self.rewriter.insert(op);
        inserted.result(0).expect("the op has a result").into()
    }

    /// `tensor<shape x element>`.
    pub fn tensor(&self, shape: &[i64], element: Type<'c>) -> Type<'c> {
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        RankedTensorType::new(&dims, element, None).into()
    }

    /// `arith.constant` of an elements attribute.
    pub fn constant(&self, value: Attribute<'c>, r#type: Type<'c>) -> Value<'c, 'r> {
        let op = OperationBuilder::new("arith.constant", self.location)
            .add_attributes(&[(melior::ir::Identifier::new(self.context, "value"), value)])
            .add_results(&[r#type])
            .build()
            .expect("valid arith.constant");
        self.insert(op)
    }

    /// A constant tensor of `type` filled with the scalar attribute `scalar`.
    pub fn splat(&self, r#type: Type<'c>, scalar: Attribute<'c>) -> Value<'c, 'r> {
        // SAFETY: `type` is a shaped type whose element type is `scalar`'s type.
        let attribute = unsafe {
            Attribute::from_raw(mlir_sys::mlirDenseElementsAttrSplatGet(
                r#type.to_raw(),
                scalar.to_raw(),
            ))
        };
        self.constant(attribute, r#type)
    }

    /// `tensor.empty` of `type` (the init operand of destination-passing ops).
    pub fn empty(&self, r#type: Type<'c>) -> Value<'c, 'r> {
        let op = OperationBuilder::new("tensor.empty", self.location)
            .add_results(&[r#type])
            .build()
            .expect("valid tensor.empty");
        self.insert(op)
    }

    /// A zero-filled tensor of `type` (accumulator of a contraction).
    pub fn zeros(&self, r#type: Type<'c>, zero: Attribute<'c>) -> Value<'c, 'r> {
        let init = self.empty(r#type);
        let scalar = self.constant(zero, zero.r#type());
        self.named("linalg.fill", &[scalar], init, r#type, &[])
    }

    /// A linalg named op `name` with `ins`, one init, and its body filled by MLIR.
    pub fn named(
        &self,
        name: &str,
        ins: &[Value<'c, '_>],
        init: Value<'c, '_>,
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, 'r> {
        let mut operands: Vec<Value> = ins.to_vec();
        operands.push(init);
        // OpDSL ops (matmul, add, fill, ...) have ins/outs segments; the hand-written
        // broadcast and transpose have exactly one of each.
        let mut named: Vec<(melior::ir::Identifier, Attribute)> = Vec::new();
        if !matches!(name, "linalg.broadcast" | "linalg.transpose") {
            let segments = DenseI32ArrayAttribute::new(self.context, &[ins.len() as i32, 1]);
            named.push((
                melior::ir::Identifier::new(self.context, "operandSegmentSizes"),
                segments.into(),
            ));
        }
        named.extend(
            attributes
                .iter()
                .map(|(n, a)| (melior::ir::Identifier::new(self.context, n), *a)),
        );
        let op = OperationBuilder::new(name, self.location)
            .add_operands(&operands)
            .add_attributes(&named)
            .add_results(&[result])
            .add_regions([Region::new()])
            .build()
            .expect("valid linalg named op");
        // SAFETY: `op` is a freshly built linalg structured op with an empty region.
        unsafe { mlir_sys::mlirLinalgFillBuiltinNamedOpRegion(op.to_raw()) };
        self.insert(op)
    }

    /// `linalg.reduce` of `input` over `dimensions` into `init`, combining elements with
    /// the arith op `combiner` (e.g. `arith.addf`).
    pub fn reduce(
        &self,
        input: Value<'c, '_>,
        init: Value<'c, '_>,
        result: Type<'c>,
        dimensions: &[i64],
        combiner: &str,
        element: Type<'c>,
    ) -> Value<'c, 'r> {
        let block = melior::ir::Block::new(&[(element, self.location), (element, self.location)]);
        let (a, b) = (
            block.argument(0).expect("two arguments"),
            block.argument(1).expect("two arguments"),
        );
        let combined = block.append_operation(
            OperationBuilder::new(combiner, self.location)
                .add_operands(&[a.into(), b.into()])
                .add_results(&[element])
                .build()
                .expect("valid combiner"),
        );
        let combined = combined.result(0).expect("one result");
        block.append_operation(
            OperationBuilder::new("linalg.yield", self.location)
                .add_operands(&[combined.into()])
                .build()
                .expect("valid linalg.yield"),
        );
        let region = Region::new();
        region.append_block(block);
        let op = OperationBuilder::new("linalg.reduce", self.location)
            .add_operands(&[input, init])
            .add_attributes(&[(
                melior::ir::Identifier::new(self.context, "dimensions"),
                self.array(dimensions),
            )])
            .add_results(&[result])
            .add_regions([region])
            .build()
            .expect("valid linalg.reduce");
        self.insert(op)
    }

    /// `tensor.pad` of `input` with `low` / `high` amounts per dimension, filled with the
    /// scalar attribute `fill`.
    pub fn pad(
        &self,
        input: Value<'c, '_>,
        low: &[i64],
        high: &[i64],
        fill: Attribute<'c>,
        element: Type<'c>,
    ) -> Value<'c, 'r> {
        let Some((shape, _)) = crate::lower_nodes::builder::tensor_info(input) else {
            unreachable!("pad operands are static tensors")
        };
        let padded: Vec<i64> = (0..shape.len())
            .map(|d| shape[d] + low[d] + high[d])
            .collect();
        let index = Type::index(self.context);
        let block = melior::ir::Block::new(&vec![(index, self.location); shape.len()]);
        let value = block.append_operation(
            OperationBuilder::new("arith.constant", self.location)
                .add_attributes(&[(melior::ir::Identifier::new(self.context, "value"), fill)])
                .add_results(&[element])
                .build()
                .expect("valid constant"),
        );
        block.append_operation(
            OperationBuilder::new("tensor.yield", self.location)
                .add_operands(&[value.result(0).expect("one result").into()])
                .build()
                .expect("valid tensor.yield"),
        );
        let region = Region::new();
        region.append_block(block);
        let segments = DenseI32ArrayAttribute::new(self.context, &[1, 0, 0]);
        let op = OperationBuilder::new("tensor.pad", self.location)
            .add_operands(&[input])
            .add_attributes(&[
                (
                    melior::ir::Identifier::new(self.context, "static_low"),
                    self.array(low),
                ),
                (
                    melior::ir::Identifier::new(self.context, "static_high"),
                    self.array(high),
                ),
                (
                    melior::ir::Identifier::new(self.context, "operandSegmentSizes"),
                    segments.into(),
                ),
            ])
            .add_results(&[self.tensor(&padded, element)])
            .add_regions([region])
            .build()
            .expect("valid tensor.pad");
        self.insert(op)
    }

    /// `tensor.insert_slice` of all of `source` into `destination` at `offsets`, element
    /// i of the source going `strides[i]` apart.
    pub fn insert_slice(
        &self,
        source: Value<'c, '_>,
        destination: Value<'c, '_>,
        offsets: &[i64],
        strides: &[i64],
    ) -> Value<'c, 'r> {
        let Some((shape, _)) = crate::lower_nodes::builder::tensor_info(source) else {
            unreachable!("insert_slice sources are static tensors")
        };
        let segments = DenseI32ArrayAttribute::new(self.context, &[1, 1, 0, 0, 0]);
        let attribute = |name: &str, value: Attribute<'c>| {
            (melior::ir::Identifier::new(self.context, name), value)
        };
        let op = OperationBuilder::new("tensor.insert_slice", self.location)
            .add_operands(&[source, destination])
            .add_attributes(&[
                attribute("static_offsets", self.array(offsets)),
                attribute("static_sizes", self.array(&shape)),
                attribute("static_strides", self.array(strides)),
                attribute("operandSegmentSizes", segments.into()),
            ])
            .add_results(&[destination.r#type()])
            .build()
            .expect("valid tensor.insert_slice");
        self.insert(op)
    }

    /// `tensor.extract_slice` of `sizes` elements of `source` from `offsets` (unit strides).
    pub fn extract_slice(
        &self,
        source: Value<'c, '_>,
        offsets: &[i64],
        sizes: &[i64],
    ) -> Value<'c, 'r> {
        let element = crate::lower_nodes::builder::tensor_info(source)
            .expect("extract_slice sources are static tensors")
            .1;
        let segments = DenseI32ArrayAttribute::new(self.context, &[1, 0, 0, 0]);
        let attribute = |name: &str, value: Attribute<'c>| {
            (melior::ir::Identifier::new(self.context, name), value)
        };
        let op = OperationBuilder::new("tensor.extract_slice", self.location)
            .add_operands(&[source])
            .add_attributes(&[
                attribute("static_offsets", self.array(offsets)),
                attribute("static_sizes", self.array(sizes)),
                attribute("static_strides", self.array(&vec![1; sizes.len()])),
                attribute("operandSegmentSizes", segments.into()),
            ])
            .add_results(&[self.tensor(sizes, element)])
            .build()
            .expect("valid tensor.extract_slice");
        self.insert(op)
    }

    /// `dense<values> : tensor<Nxi64>`, the attribute form linalg's convolution and
    /// pooling ops take for strides and dilations.
    pub fn i64_elements(&self, values: &[i64]) -> Attribute<'c> {
        let r#type = self.tensor(
            &[values.len() as i64],
            IntegerType::new(self.context, 64).into(),
        );
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        glow_dialects::elements::dense_elements(r#type, &bytes)
    }

    /// An elementwise `linalg.generic` over `ins` (all of `shape`) into a new tensor of
    /// `result`, whose body `body` receives the block and the element arguments and
    /// returns the value to yield.
    pub fn elementwise(
        &self,
        ins: &[Value<'c, '_>],
        shape: &[i64],
        result_element: Type<'c>,
        body: impl FnOnce(&BodyBuilder<'c, '_>, &[Value<'c, '_>]) -> mlir_sys::MlirValue,
    ) -> Value<'c, 'r> {
        let rank = shape.len();
        let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
        let map = format!("affine_map<({}) -> ({})>", dims.join(", "), dims.join(", "));
        let init = self.empty(self.tensor(shape, result_element));
        self.generic(
            ins,
            &[init],
            &vec![map; ins.len() + 1],
            &vec!["parallel"; rank],
            |b, args| {
                // SAFETY: the body returned a value defined in the block.
                vec![unsafe { Value::from_raw(body(b, args)) }]
            },
        )
        .remove(0)
    }

    /// A `linalg.generic` over `ins` into `inits` with the given indexing maps (one
    /// per operand, as affine_map text) and iterator types ("parallel" / "reduction");
    /// `body` receives the element arguments (ins, then inits) and returns the values
    /// to yield, one per init. Returns the results.
    pub fn generic(
        &self,
        ins: &[Value<'c, '_>],
        inits: &[Value<'c, '_>],
        maps: &[String],
        iterators: &[&str],
        body: impl for<'k> FnOnce(&BodyBuilder<'c, 'k>, &[Value<'c, 'k>]) -> Vec<Value<'c, 'k>>,
    ) -> Vec<Value<'c, 'r>> {
        let parse = |text: &str| Attribute::parse(self.context, text).expect("valid attribute");
        let element = |v: &Value<'c, '_>| {
            crate::lower_nodes::builder::tensor_info(*v)
                .expect("static tensor")
                .1
        };
        let arguments: Vec<(Type, Location)> = ins
            .iter()
            .chain(inits)
            .map(|v| (element(v), self.location))
            .collect();
        let block = melior::ir::Block::new(&arguments);
        let values: Vec<Value> = (0..arguments.len())
            .map(|i| block.argument(i).expect("argument").into())
            .collect();
        let yielded: Vec<mlir_sys::MlirValue> = body(
            &BodyBuilder {
                context: self.context,
                block: &block,
                location: self.location,
            },
            &values,
        )
        .iter()
        .map(|v| v.to_raw())
        .collect();
        // SAFETY: the body returned values defined in `block` or above it.
        let yielded: Vec<Value> = yielded
            .into_iter()
            .map(|v| unsafe { Value::from_raw(v) })
            .collect();
        block.append_operation(
            OperationBuilder::new("linalg.yield", self.location)
                .add_operands(&yielded)
                .build()
                .expect("valid linalg.yield"),
        );
        let region = Region::new();
        region.append_block(block);
        let mut operands: Vec<Value> = ins.to_vec();
        operands.extend_from_slice(inits);
        let segments =
            DenseI32ArrayAttribute::new(self.context, &[ins.len() as i32, inits.len() as i32]);
        let iterators: Vec<String> = iterators
            .iter()
            .map(|kind| format!("#linalg.iterator_type<{kind}>"))
            .collect();
        let result_types: Vec<Type> = inits.iter().map(|v| v.r#type()).collect();
        let op = OperationBuilder::new("linalg.generic", self.location)
            .add_operands(&operands)
            .add_attributes(&[
                (
                    melior::ir::Identifier::new(self.context, "indexing_maps"),
                    parse(&format!("[{}]", maps.join(", "))),
                ),
                (
                    melior::ir::Identifier::new(self.context, "iterator_types"),
                    parse(&format!("[{}]", iterators.join(", "))),
                ),
                (
                    melior::ir::Identifier::new(self.context, "operandSegmentSizes"),
                    segments.into(),
                ),
            ])
            .add_results(&result_types)
            .add_regions([region])
            .build()
            .expect("valid linalg.generic");
        let inserted = self.rewriter.insert(op);
        (0..inits.len())
            .map(|i| inserted.result(i).expect("result").into())
            .collect()
    }

    /// `tensor.reshape` of `input` to `shape`.
    pub fn reshape(&self, input: Value<'c, '_>, shape: &[i64], element: Type<'c>) -> Value<'c, 'r> {
        let index_type: Type = IntegerType::new(self.context, 64).into();
        let shape_type = self.tensor(&[shape.len() as i64], index_type);
        let bytes: Vec<u8> = shape.iter().flat_map(|d| d.to_le_bytes()).collect();
        let shape_value = self.constant(
            glow_dialects::elements::dense_elements(shape_type, &bytes),
            shape_type,
        );
        let op = OperationBuilder::new("tensor.reshape", self.location)
            .add_operands(&[input, shape_value])
            .add_results(&[self.tensor(shape, element)])
            .build()
            .expect("valid tensor.reshape");
        self.insert(op)
    }

    /// `input` with its dimensions permuted (`result[i] = input[perm[i]]`): an f32
    /// constant is permuted now, at compile time (a weight relayout costs nothing at
    /// run time); anything else becomes a `linalg.transpose`.
    pub fn transpose(&self, input: Value<'c, '_>, perm: &[i64]) -> Value<'c, 'r> {
        let (shape, element) =
            crate::lower_nodes::builder::tensor_info(input).expect("static tensor operand");
        let permuted: Vec<i64> = perm.iter().map(|p| shape[*p as usize]).collect();
        let result = self.tensor(&permuted, element);
        if let Some(values) = constant_f32_values(input, shape.iter().product::<i64>() as usize) {
            let bytes: Vec<u8> = permute(&values, &shape, perm)
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            let attribute = glow_dialects::elements::resource_elements(result, "relayout", &bytes);
            return self.constant(attribute, result);
        }
        let init = self.empty(result);
        self.named(
            "linalg.transpose",
            &[input],
            init,
            result,
            &[("permutation", self.array(perm))],
        )
    }

    /// A dense i64 array attribute.
    pub fn array(&self, values: &[i64]) -> Attribute<'c> {
        DenseI64ArrayAttribute::new(self.context, values).into()
    }
}

/// A binary op's two operands with the static shape and element type of the first,
/// or None when the op does not have that form.
pub fn binary_operands<'c, 'a>(
    op: OperationRef<'c, 'a>,
) -> Option<(Value<'c, 'a>, Value<'c, 'a>, Vec<i64>, Type<'c>)> {
    let (lhs, rhs) = (op.operand(0).ok()?, op.operand(1).ok()?);
    let (shape, element) = crate::lower_nodes::builder::tensor_info(lhs)?;
    Some((lhs, rhs, shape, element))
}

/// Whether `element` is a float type.
pub fn is_float(element: Type) -> bool {
    // SAFETY: a type query on a valid type.
    unsafe { mlir_sys::mlirTypeIsAFloat(element.to_raw()) }
}

/// The values of `value` if it is an f32 constant (`arith.constant` or
/// `glow.graph.constant`) of `count` elements.
fn constant_f32_values(value: Value, count: usize) -> Option<Vec<f32>> {
    let result = crate::framework::values::operation_result(value)?;
    let owner = result.owner();
    let name = owner.name();
    if !matches!(
        name.as_string_ref().as_str().ok()?,
        "arith.constant" | "glow.graph.constant"
    ) {
        return None;
    }
    let (_, element) = crate::lower_nodes::builder::tensor_info(value)?;
    if !element.is_f32() {
        return None;
    }
    glow_dialects::elements::f32_values(owner.attribute("value").ok()?, count)
}

/// `values` (row-major, of `shape`) with dimensions permuted by `perm`.
fn permute(values: &[f32], shape: &[i64], perm: &[i64]) -> Vec<f32> {
    let rank = shape.len();
    let mut strides = vec![1usize; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1] as usize;
    }
    let out_shape: Vec<usize> = perm.iter().map(|p| shape[*p as usize] as usize).collect();
    let out_strides: Vec<usize> = perm.iter().map(|p| strides[*p as usize]).collect();
    let mut out = Vec::with_capacity(values.len());
    let mut index = vec![0usize; rank];
    // The source offset of `index`, kept up to date as the index advances (recomputing
    // it per element was 8 % of ResNet-50's compile time).
    let mut source = 0usize;
    for _ in 0..values.len() {
        out.push(values[source]);
        for d in (0..rank).rev() {
            index[d] += 1;
            source += out_strides[d];
            if index[d] < out_shape[d] {
                break;
            }
            index[d] = 0;
            source -= out_strides[d] * out_shape[d];
        }
    }
    out
}
