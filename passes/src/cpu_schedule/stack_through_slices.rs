//! An elementwise generic on a leading slice of a convolution's or matmul's result ->
//! the generic on the whole result, then the slice. Channel counts that 16 does not
//! divide are computed widened (ShuffleNetV2's 24, 58, 116 and 232 channels as 32, 64,
//! 128 and 240, `tensor.extract_slice` back), which left the ReLU after each such
//! convolution outside its register tiles: a separate pass over a strided slice that
//! LLVM left scalar (ShuffleNetV2's first ReLU, 112 x 112 x 24: 0.41 ms, 13 % of the
//! model in ReLUs). On the whole result the generic is the kernel's epilogue, which
//! `glow-stack` then fuses into its tiles; the widened lanes compute values nobody
//! reads. Applies when every input of the generic is either that slice (ReLU, clip, an
//! activation of the result alone) or, read element for element, the same leading slice
//! of another value of the kernel's result shape: a residual add of two widened
//! projections (MNASNet's and MobileNetV2's 24-channel blocks), or of a projection and
//! the previous block's sum, itself moved above its slice by this rule. Its init must be
//! a fresh tensor it does not read, and the kernel's result and the slice must have no
//! other users.

use super::tiles::Kernel;
use crate::{
    framework::{attributes::name_of, Rule},
    lower_nodes::builder::tensor_info,
    quantization::ir::{operand, producer, users},
};
use melior::{
    ir::{
        operation::{OperationBuilder, OperationLike},
        r#type::RankedTensorType,
        Identifier, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The rule moving an elementwise generic above a leading slice of a kernel's result.
pub static EPILOGUE_ABOVE_SLICE: Rule = Rule {
    root: "linalg.generic",
    generates: &["linalg.generic", "tensor.extract_slice", "tensor.empty"],
    rewrite,
};

/// Whether `slice` is a unit-stride slice at offset zero of its source, of its rank.
pub(super) fn leading_slice(slice: OperationRef) -> bool {
    let array = |name| crate::framework::attributes::i64_array(slice, name);
    name_of(slice) == "tensor.extract_slice"
        && slice.operand_count() == 1
        && array("static_offsets").is_some_and(|o| o.iter().all(|v| *v == 0))
        && array("static_strides").is_some_and(|s| s.iter().all(|v| *v == 1))
        && array("static_sizes").is_some_and(|s| !s.contains(&i64::MIN))
        && operand(slice, 0)
            .and_then(tensor_info)
            .zip(slice.result(0).ok().and_then(|r| tensor_info(r.into())))
            .is_some_and(|((from, _), (to, _))| from.len() == to.len())
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    if op.result_count() != 1 || op.operand_count() < 2 {
        return false;
    }
    let inputs = op.operand_count() - 1;
    // The input that is a leading slice of a kernel's result, read by nothing else.
    let Some((sliced, slice, whole)) = (0..inputs).find_map(|i| {
        let sliced = operand(op, i)?;
        let slice = producer(sliced).filter(|s| leading_slice(*s))?;
        let whole = operand(slice, 0)?;
        let from_kernel = producer(whole).is_some_and(|k| Kernel::of(&name_of(k)).is_some());
        (from_kernel && users(whole).len() == 1 && users(sliced).len() == 1)
            .then_some((sliced, slice, whole))
    }) else {
        return false;
    };
    let init_is_fresh = operand(op, inputs)
        .and_then(producer)
        .is_some_and(|e| name_of(e) == "tensor.empty");
    if !init_is_fresh || !super::stack::is_epilogue(op, sliced) {
        return false;
    }
    // Each input read on the whole result: the kernel's, or the source of the same
    // leading slice of a value of the same type, read element for element (widened
    // lanes then read that value's own lanes, whatever they hold, and are dropped).
    let Some(maps) = super::stack::indexing_maps(op) else {
        return false;
    };
    let identity: Vec<usize> = (0..maps.last().map_or(0, |m| m.len())).collect();
    let Some(wide_inputs) = (0..inputs)
        .map(|i| {
            let input = operand(op, i)?;
            if input == sliced {
                return Some(whole);
            }
            let other = producer(input).filter(|s| leading_slice(*s))?;
            let source = operand(other, 0)?;
            let same_slice = crate::framework::attributes::i64_array(other, "static_sizes")
                == crate::framework::attributes::i64_array(slice, "static_sizes");
            (same_slice && source.r#type() == whole.r#type() && maps.get(i) == Some(&identity))
                .then_some(source)
        })
        .collect::<Option<Vec<Value>>>()
    else {
        return false;
    };
    let (Some((shape, _)), Ok(result)) = (tensor_info(whole), op.result(0)) else {
        return false;
    };
    let Some((_, element)) = tensor_info(result.into()) else {
        return false;
    };
    let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
    let widened: Type = RankedTensorType::new(&dims, element, None).into();
    rewriter.set_insertion_point_before(op);
    let location = op.location();
    let Ok(empty) = OperationBuilder::new("tensor.empty", location)
        .add_results(&[widened])
        .build()
    else {
        return false;
    };
    let Ok(empty) = rewriter.insert(empty).result(0) else {
        return false;
    };
    let body = Region::new();
    let Ok(old_body) = op.region(0) else {
        return false;
    };
    // SAFETY: both regions are live; the old generic is replaced below.
    unsafe { mlir_sys::mlirRegionTakeBody(body.to_raw(), old_body.to_raw()) };
    let mut operands = wide_inputs;
    operands.push(empty.into());
    let attributes: Vec<(Identifier, melior::ir::Attribute)> = op.attributes().collect();
    let Ok(generic) = OperationBuilder::new("linalg.generic", location)
        .add_operands(&operands)
        .add_attributes(&attributes)
        .add_results(&[widened])
        .add_regions([body])
        .build()
    else {
        return false;
    };
    let Ok(generic) = rewriter.insert(generic).result(0) else {
        return false;
    };
    let slice_attributes: Vec<(Identifier, melior::ir::Attribute)> = slice.attributes().collect();
    let Ok(narrowed) = OperationBuilder::new("tensor.extract_slice", location)
        .add_operands(&[generic.into()])
        .add_attributes(&slice_attributes)
        .add_results(&[result.r#type()])
        .build()
    else {
        return false;
    };
    let Ok(narrowed) = rewriter.insert(narrowed).result(0) else {
        return false;
    };
    let _ = context;
    rewriter.replace_op_with_values(op, &[narrowed.into()]);
    true
}
