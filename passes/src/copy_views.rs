//! Copies as views of run-time extents, for `glow-outline-kernels`: a top-level
//! `linalg.copy` between static buffers (a concat's pieces written into their slices
//! of the result) gets operands that are `memref.reinterpret_cast`s of the underlying
//! buffers with the offset, sizes and strides as index values, so its kernel's text no
//! longer names them and every copy of one rank and element type shares one kernel.
//! DenseNet-121 concatenates every layer's features again in each later layer of its
//! block: 593 copies of distinct shapes were 593 kernels that LLVM compiled one by one.
//! The innermost stride stays a static 1 when both sides are contiguous rows, so the
//! kernel's inner loop keeps unit-stride accesses.

use melior::{
    ir::{
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, BlockLike, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context,
};

/// MLIR's marker of a dynamic size, stride or offset.
const DYNAMIC: i64 = i64::MIN;

/// A buffer's layout: its static shape, strides and offset.
struct Layout {
    shape: Vec<i64>,
    strides: Vec<i64>,
    offset: i64,
}

/// The static layout of a memref value, when it has one.
fn layout(value: Value) -> Option<Layout> {
    let r#type = value.r#type().to_raw();
    // SAFETY: type queries on a live type; the strides buffer holds `rank` entries.
    unsafe {
        if !mlir_sys::mlirTypeIsAMemRef(r#type) || !mlir_sys::mlirShapedTypeHasStaticShape(r#type) {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(r#type) as usize;
        let shape = (0..rank)
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(r#type, d as isize))
            .collect();
        let mut strides = vec![0i64; rank];
        let mut offset = 0i64;
        let status =
            mlir_sys::mlirMemRefTypeGetStridesAndOffset(r#type, strides.as_mut_ptr(), &mut offset);
        if status.value == 0 || offset == DYNAMIC || strides.contains(&DYNAMIC) {
            return None;
        }
        Some(Layout {
            shape,
            strides,
            offset,
        })
    }
}

/// Whether `value` is a memref of the identity layout.
fn identity(value: Value) -> bool {
    // SAFETY: type queries on a live value's type.
    unsafe {
        let t = value.r#type().to_raw();
        mlir_sys::mlirTypeIsAMemRef(t)
            && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirMemRefTypeGetAffineMap(t))
    }
}

/// The identity-layout buffer `value` reads (itself, or the source of a subview of
/// it), whose start the static offset of `value`'s layout counts from.
fn base<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    if identity(value) {
        return Some(value);
    }
    let defining = crate::framework::values::defining_op(value)?;
    let source = defining.operand(0).ok()?;
    (defining.name().as_string_ref().as_str() == Ok("memref.subview") && identity(source))
        .then_some(source)
}

/// Static offset, sizes and strides (DYNAMIC where an operand gives them) and the
/// operand segment sizes of a `memref.reinterpret_cast`.
type Extents<'a> = (&'a [i64], &'a [i64], &'a [i64], [i32; 4]);

/// `memref.reinterpret_cast` of `operands` (the source, then the dynamic offset, sizes
/// and strides) to `result`, inserted before `anchor`.
fn reinterpret<'c, 'a>(
    context: &'c Context,
    block: melior::ir::BlockRef<'c, 'a>,
    anchor: OperationRef<'c, 'a>,
    operands: &[Value<'c, 'a>],
    (offsets, sizes, strides, segments): Extents,
    result: Type<'c>,
) -> Option<Value<'c, 'a>> {
    let array = |values: &[i64]| -> Option<Attribute<'c>> {
        let text: Vec<String> = values.iter().map(i64::to_string).collect();
        Attribute::parse(context, &format!("array<i64: {}>", text.join(", ")))
    };
    let segments: Vec<String> = segments.iter().map(i32::to_string).collect();
    let segments = Attribute::parse(context, &format!("array<i32: {}>", segments.join(", ")))?;
    let identifier = |name| melior::ir::Identifier::new(context, name);
    let view = OperationBuilder::new("memref.reinterpret_cast", anchor.location())
        .add_operands(operands)
        .add_attributes(&[
            (identifier("operandSegmentSizes"), segments),
            (identifier("static_offsets"), array(offsets)?),
            (identifier("static_sizes"), array(sizes)?),
            (identifier("static_strides"), array(strides)?),
        ])
        .add_results(&[result])
        .build()
        .ok()?;
    Some(
        block
            .insert_operation_before(anchor, view)
            .result(0)
            .ok()?
            .into(),
    )
}

/// Rewrites the operands of `copy` (a top-level `linalg.copy` on buffers) into views of
/// run-time extents; returns whether it did.
pub fn make_extents_run_time<'c>(context: &'c Context, copy: OperationRef<'c, '_>) -> bool {
    if copy.name().as_string_ref().as_str() != Ok("linalg.copy") || copy.operand_count() != 2 {
        return false;
    }
    let (Ok(source), Ok(target)) = (copy.operand(0), copy.operand(1)) else {
        return false;
    };
    let (Some(from), Some(to)) = (layout(source), layout(target)) else {
        return false;
    };
    let (Some(source_base), Some(target_base)) = (base(source), base(target)) else {
        return false;
    };
    let rank = from.shape.len();
    if rank == 0 || from.shape != to.shape || from.shape.contains(&0) {
        return false;
    }
    let unit_rows = from.strides[rank - 1] == 1 && to.strides[rank - 1] == 1;
    // SAFETY: the element type of a memref.
    let element = unsafe {
        Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(
            source.r#type().to_raw(),
        ))
    };
    let dims = vec!["?"; rank].join("x");
    let mut strides = vec!["?"; rank];
    if unit_rows {
        strides[rank - 1] = "1";
    }
    let view_type = format!(
        "memref<{dims}x{element}, strided<[{}], offset: ?>>",
        strides.join(", ")
    );
    let Some(view_type) = Type::parse(context, &view_type) else {
        return false;
    };
    let location = copy.location();
    let Some(block) = copy.block() else {
        return false;
    };
    let i64_type: Type = IntegerType::new(context, 64).into();
    // An index value that is not a constant (so the outliner passes it in).
    let index = |n: i64| -> Option<Value> {
        let constant = OperationBuilder::new("arith.constant", location)
            .add_attributes(&[(
                melior::ir::Identifier::new(context, "value"),
                IntegerAttribute::new(i64_type, n).into(),
            )])
            .add_results(&[i64_type])
            .build()
            .ok()?;
        let constant = block.insert_operation_before(copy, constant);
        let cast = OperationBuilder::new("arith.index_cast", location)
            .add_operands(&[constant.result(0).ok()?.into()])
            .add_results(&[Type::index(context)])
            .build()
            .ok()?;
        Some(
            block
                .insert_operation_before(copy, cast)
                .result(0)
                .ok()?
                .into(),
        )
    };
    // Each buffer as its first element (`memref<1 x element>`): the kernel takes only
    // the start of the buffer, a bare pointer of one type whatever the buffer's shape.
    let Some(start_type) = Type::parse(context, &format!("memref<1x{element}>")) else {
        return false;
    };
    let mut views = Vec::new();
    for (base, layout) in [(source_base, &from), (target_base, &to)] {
        let Some(start) = reinterpret(
            context,
            block,
            copy,
            &[base],
            (&[0], &[1], &[1], [1, 0, 0, 0]),
            start_type,
        ) else {
            return false;
        };
        let mut operands = vec![start];
        let dynamic_strides = if unit_rows { rank - 1 } else { rank };
        let values: Option<Vec<Value>> = std::iter::once(layout.offset)
            .chain(layout.shape.iter().copied())
            .chain(layout.strides[..dynamic_strides].iter().copied())
            .map(index)
            .collect();
        let Some(values) = values else {
            return false;
        };
        operands.extend(values);
        let mut static_strides = vec![DYNAMIC; rank];
        if unit_rows {
            static_strides[rank - 1] = 1;
        }
        let segments = [1, 1, rank as i32, dynamic_strides as i32];
        let Some(view) = reinterpret(
            context,
            block,
            copy,
            &operands,
            (&[DYNAMIC], &vec![DYNAMIC; rank], &static_strides, segments),
            view_type,
        ) else {
            return false;
        };
        views.push(view);
    }
    // SAFETY: the views have the copy's element type and shape at run time.
    unsafe {
        mlir_sys::mlirOperationSetOperand(copy.to_raw(), 0, views[0].to_raw());
        mlir_sys::mlirOperationSetOperand(copy.to_raw(), 1, views[1].to_raw());
    }
    true
}
