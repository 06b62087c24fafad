//! Emitting `glow.graph` ops at a rewriter's insertion point: the vocabulary the
//! lowering rules are written in (splats, elementwise arithmetic, reductions with kept
//! dimensions, broadcasts back to a shape).

use glow_dialects::ods::glow_graph;
use melior::{
    ir::{
        attribute::{
            DenseElementsAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute,
        },
        r#type::{DimSize, IntegerType, RankedTensorType, ShapedTypeLike},
        Attribute, Location, Operation, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Elementwise binary ops.
#[derive(Clone, Copy, Debug)]
pub enum Binary {
    /// lhs + rhs
    Add,
    /// lhs - rhs
    Sub,
    /// lhs * rhs
    Mul,
    /// lhs / rhs
    Div,
    /// max(lhs, rhs)
    Max,
    /// min(lhs, rhs)
    Min,
}

/// Elementwise unary ops.
#[derive(Clone, Copy, Debug)]
pub enum Unary {
    /// e^x
    Exp,
    /// ln x
    Log,
    /// sqrt x
    Sqrt,
    /// 1 / sqrt x
    Rsqrt,
    /// erf x
    Erf,
    /// tanh x
    Tanh,
}

/// Reductions.
#[derive(Clone, Copy, Debug)]
pub enum Reduce {
    /// sum
    Sum,
    /// maximum
    Max,
}

/// Inserts ops before the op being rewritten and returns their single results.
pub struct GraphBuilder<'c, 'r, 'b> {
    /// The context.
    pub context: &'c Context,
    /// The pattern's rewriter.
    pub rewriter: &'r RewriterBase<'c, 'b>,
    /// Location of the new ops (the rewritten op's).
    pub location: Location<'c>,
}

/// Static shape and element type of a tensor value.
pub fn tensor_info<'c>(value: Value<'c, '_>) -> Option<(Vec<i64>, Type<'c>)> {
    // Asked of scalars, vectors and memrefs too: without a failing `try_from`.
    let r#type = crate::framework::values::ranked_tensor_type(value.r#type())?;
    let shape = (0..r#type.rank())
        .map(|d| match r#type.dim_size(d) {
            Ok(DimSize::Static(n)) => Some(n as i64),
            _ => None,
        })
        .collect::<Option<Vec<i64>>>()?;
    Some((shape, r#type.element()))
}

impl<'c, 'r, 'b> GraphBuilder<'c, 'r, 'b> {
    fn one(&self, op: Operation<'c>) -> Value<'c, 'r> {
        let inserted = self.rewriter.insert(op);
        inserted
            .result(0)
            .expect("glow.graph ops have one result")
            .into()
    }

    /// `tensor<shape x element>`.
    pub fn tensor(&self, shape: &[i64], element: Type<'c>) -> Type<'c> {
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        RankedTensorType::new(&dims, element, None).into()
    }

    /// A tensor of `type` filled with `value` (converted to the element type).
    pub fn splat(&self, shape: &[i64], element: Type<'c>, value: f64) -> Value<'c, 'r> {
        let scalar: Attribute = if IntegerType::try_from(element).is_ok() {
            IntegerAttribute::new(element, value as i64).into()
        } else {
            FloatAttribute::new(self.context, element, value).into()
        };
        self.one(
            glow_graph::splat(
                self.context,
                self.tensor(shape, element),
                scalar,
                self.location,
            )
            .into(),
        )
    }

    /// An elementwise binary op.
    pub fn binary(&self, kind: Binary, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'r> {
        let (c, l) = (self.context, self.location);
        self.one(match kind {
            Binary::Add => glow_graph::add(c, lhs, rhs, l).into(),
            Binary::Sub => glow_graph::sub(c, lhs, rhs, l).into(),
            Binary::Mul => glow_graph::mul(c, lhs, rhs, l).into(),
            Binary::Div => glow_graph::div(c, lhs, rhs, l).into(),
            Binary::Max => glow_graph::max(c, lhs, rhs, l).into(),
            Binary::Min => glow_graph::min(c, lhs, rhs, l).into(),
        })
    }

    /// An elementwise unary op.
    pub fn unary(&self, kind: Unary, input: Value<'c, '_>) -> Value<'c, 'r> {
        let (c, l) = (self.context, self.location);
        self.one(match kind {
            Unary::Exp => glow_graph::exp(c, input, l).into(),
            Unary::Log => glow_graph::log(c, input, l).into(),
            Unary::Sqrt => glow_graph::sqrt(c, input, l).into(),
            Unary::Rsqrt => glow_graph::rsqrt(c, input, l).into(),
            Unary::Erf => glow_graph::erf(c, input, l).into(),
            Unary::Tanh => glow_graph::tanh(c, input, l).into(),
        })
    }

    /// A reduction over `axes`, keeping them as size-1 dimensions.
    pub fn reduce_keep(&self, kind: Reduce, input: Value<'c, '_>, axes: &[i64]) -> Value<'c, 'r> {
        let axes: Attribute = DenseI64ArrayAttribute::new(self.context, axes).into();
        let unit = Attribute::unit(self.context);
        let (c, l) = (self.context, self.location);
        self.one(match kind {
            Reduce::Sum => glow_graph::ReduceSumOperationBuilder::new(c, l)
                .input(input)
                .axes(axes)
                .keep_dims(unit)
                .build()
                .into(),
            Reduce::Max => glow_graph::ReduceMaxOperationBuilder::new(c, l)
                .input(input)
                .axes(axes)
                .keep_dims(unit)
                .build()
                .into(),
        })
    }

    /// `input` repeated to `shape`; its dimension i lines up with `axis` + i.
    pub fn broadcast(
        &self,
        input: Value<'c, '_>,
        shape: &[i64],
        element: Type<'c>,
        axis: i64,
    ) -> Value<'c, 'r> {
        let axis = IntegerAttribute::new(IntegerType::new(self.context, 64).into(), axis);
        self.one(
            glow_graph::broadcast(
                self.context,
                self.tensor(shape, element),
                input,
                axis,
                self.location,
            )
            .into(),
        )
    }

    /// `cond ? on_true : on_false`.
    pub fn select(
        &self,
        cond: Value<'c, '_>,
        on_true: Value<'c, '_>,
        on_false: Value<'c, '_>,
    ) -> Value<'c, 'r> {
        self.one(
            glow_graph::select(
                self.context,
                on_true.r#type(),
                cond,
                on_true,
                on_false,
                self.location,
            )
            .into(),
        )
    }

    /// `input` reshaped to `shape` (same element type).
    pub fn reshape(&self, input: Value<'c, '_>, shape: &[i64], element: Type<'c>) -> Value<'c, 'r> {
        let r#type = self.tensor(shape, element);
        self.one(glow_graph::reshape(self.context, r#type, input, self.location).into())
    }

    /// `input` with its dimensions permuted by `perm`.
    pub fn transpose(&self, input: Value<'c, '_>, perm: &[i64]) -> Value<'c, 'r> {
        let perm = DenseI64ArrayAttribute::new(self.context, perm);
        self.one(glow_graph::transpose(self.context, input, perm.into(), self.location).into())
    }

    /// A constant float tensor of `shape` from row-major `values`.
    pub fn float_constant(
        &self,
        shape: &[i64],
        element: Type<'c>,
        values: &[f64],
    ) -> Value<'c, 'r> {
        let r#type = self.tensor(shape, element);
        let elements: Vec<Attribute> = values
            .iter()
            .map(|v| FloatAttribute::new(self.context, element, *v).into())
            .collect();
        let value = DenseElementsAttribute::new(r#type, &elements).expect("shape matches values");
        self.one(glow_graph::constant(self.context, r#type, value.into(), self.location).into())
    }

    /// The 2-D matrix product `lhs` x `rhs`.
    pub fn matmul(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, 'r> {
        self.one(glow_graph::matmul(self.context, lhs, rhs, self.location).into())
    }

    /// `lhs < rhs` elementwise (i1).
    pub fn less(&self, lhs: Value<'c, '_>, rhs: Value<'c, '_>, shape: &[i64]) -> Value<'c, 'r> {
        let bool_type = self.tensor(shape, IntegerType::new(self.context, 1).into());
        self.one(glow_graph::cmp_lt(self.context, bool_type, lhs, rhs, self.location).into())
    }
}
