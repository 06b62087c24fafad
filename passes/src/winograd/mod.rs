//! `glow-winograd`: a channels-last f32 `glow.graph.conv2d` with a constant 3x3
//! filter, stride 1, dilation 1, one group, input and output channels in multiples of
//! 16 becomes a call of a generated Winograd F(2x2, 3x3) kernel ([`kernel`]): 2.25x
//! fewer multiplications than the direct convolution, with the filter transformed
//! (`G g Gᵀ`) and laid out at compile time ([`filter`]). A ReLU that is the
//! convolution's only user (`select(x < 0, 0, x)` after glow-lower-nodes) is applied
//! in the kernel's output transform. Layers with fewer than `min-tiles` 2x2 output
//! tiles stay direct convolutions: there the transformed filter (16/9 of the weights)
//! is read for too little work (ResNet-50's 7x7 layers, 16 tiles, gained nothing);
//! so do layers whose transformed input (4x the input) would exceed 64 MiB.
//! The kernels are private functions; the CPU pipeline inlines them after tiling the
//! model's own ops.
//!
//! Numerics: the transforms add and subtract (`Bᵀ`, `Aᵀ` have entries in {-1, 0, 1},
//! `G` in {0, ±1/2, 1}), so results differ from the direct convolution by rounding
//! only (lit-tests/glow-winograd/execute.mlir bounds it against numpy). Infinite inputs
//! are the exception: where the direct convolution gives ±inf, the transforms can
//! subtract two infinities and give NaN.

pub mod filter;
pub mod kernel;
mod products;

use crate::{
    framework::{emit_error, OptionKind, PassDefinition, PassOption, PassOptions},
    lower_nodes::builder::tensor_info,
    quant_kernels::{append_text, Inserter},
    quantization::ir::{float_constant, name_of, operand, producer, tensor_type, users},
};
use kernel::WinogradKernel;
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::FlatSymbolRefAttribute, operation::OperationLike, OperationRef, RegionLike,
        Type, TypeLike, Value, ValueLike,
    },
    Context,
};

/// The pass definition registered as `glow-winograd`.
pub static WINOGRAD: PassDefinition = PassDefinition {
    argument: "glow-winograd",
    description: "Replace f32 3x3 stride-1 convolutions with constant filters by Winograd F(2x2, 3x3) kernels (filters transformed at compile time)",
    anchor: Some("builtin.module"),
    options: &[PassOption {
        name: "min-tiles",
        description: "Fewest 2x2 output tiles (over the batch) a convolution needs to take the Winograd kernel",
        kind: OptionKind::Int,
        default: Some("36"),
    }],
    dependent_dialects,
    validate,
    run,
};

fn dependent_dialects() -> Vec<DialectHandle> {
    crate::quant_kernels::kernel_dialects()
}

fn validate(options: &PassOptions) -> Result<(), String> {
    match options.value("min-tiles").map(str::parse::<i64>) {
        None | Some(Ok(1..)) => Ok(()),
        Some(_) => Err(format!(
            "'min-tiles' is '{}'; expected a positive integer",
            options.value("min-tiles").unwrap_or_default()
        )),
    }
}

/// The largest transformed input a kernel may hold (64 MiB: a 512 x 512 x 64 image's
/// is 256 MiB).
const MAX_TRANSFORMED_BYTES: i64 = 64 << 20;

/// One convolution the kernel takes: its geometry and the transformed filter.
struct Plan<'c, 'a> {
    kernel: WinogradKernel,
    filter: Vec<f32>,
    /// The value the kernel's result replaces: the convolution's, or its ReLU's.
    replaced: Value<'c, 'a>,
}

fn i64_array(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    crate::framework::attributes::i64_array(op, name)
}

/// Whether `value` is a constant (or splat) of zeros.
fn is_zero(value: Value) -> bool {
    let Some((shape, _)) = tensor_info(value) else {
        return false;
    };
    let count = shape.iter().product::<i64>() as usize;
    float_constant(value, count).is_some_and(|v| v.iter().all(|x| *x == 0.0))
}

/// The select of `select(y < 0, 0, y)` when that ReLU is `y`'s only use.
fn fused_relu<'c: 'a, 'a>(y: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    let uses = users(y);
    if uses.len() != 2 {
        return None;
    }
    let compare = uses.iter().find(|u| name_of(**u) == "glow.graph.cmp_lt")?;
    let select = uses.iter().find(|u| name_of(**u) == "glow.graph.select")?;
    let compared = crate::quantization::ir::result(*compare, 0)?;
    let (lhs, rhs) = (operand(*compare, 0)?, operand(*compare, 1)?);
    let (condition, chosen, other) = (
        operand(*select, 0)?,
        operand(*select, 1)?,
        operand(*select, 2)?,
    );
    let right = lhs == y
        && is_zero(rhs)
        && condition == compared
        && users(compared).len() == 1
        && is_zero(chosen)
        && other == y;
    if !right {
        return None;
    }
    crate::quantization::ir::result(*select, 0)
}

fn plan<'c: 'a, 'a>(op: OperationRef<'c, 'a>, min_tiles: i64) -> Option<Plan<'c, 'a>> {
    if op.attribute("channels_last").is_err() {
        return None;
    }
    let group = crate::framework::attributes::i64_value(op, "group").unwrap_or(1);
    let (strides, dilations, pads) = (
        i64_array(op, "strides").unwrap_or(vec![1, 1]),
        i64_array(op, "dilations").unwrap_or(vec![1, 1]),
        i64_array(op, "pads").unwrap_or(vec![0, 0, 0, 0]),
    );
    if group != 1 || strides != [1, 1] || dilations != [1, 1] || pads.len() != 4 {
        return None;
    }
    let x = operand(op, 0)?;
    let y = crate::quantization::ir::result(op, 0)?;
    let (x_shape, x_element) = tensor_info(x)?;
    let (w_shape, _) = tensor_info(operand(op, 1)?)?;
    let (y_shape, _) = tensor_info(y)?;
    let is_static = |shape: &[i64]| shape.iter().all(|d| *d > 0);
    if !x_element.is_f32()
        || x_shape.len() != 4
        || w_shape.len() != 4
        || !is_static(&x_shape)
        || !is_static(&w_shape)
    {
        return None;
    }
    let (filters, channels) = (w_shape[0], w_shape[1]);
    if w_shape[2..] != [3, 3] || channels != x_shape[3] || channels % 16 != 0 || filters % 16 != 0 {
        return None;
    }
    let pads = [pads[0], pads[1], pads[2], pads[3]];
    let output_width = x_shape[2] + pads[1] + pads[3] - 2;
    let (group, block) = kernel::register_tile((output_width + 1) / 2, filters);
    let kernel = WinogradKernel {
        name: String::new(),
        input: [x_shape[0], x_shape[1], x_shape[2], x_shape[3]],
        pads,
        filters,
        block,
        group,
        relu: false,
    };
    let [oh, ow] = kernel.output();
    if y_shape != [x_shape[0], oh, ow, filters]
        || oh < 1
        || ow < 1
        || x_shape[0] * ((oh + 1) / 2) * ((ow + 1) / 2) < min_tiles
    {
        return None;
    }
    // The transformed input (16 values per tile and channel, 4x the input) must stay a
    // modest buffer: very large images keep the direct convolution.
    let transformed_bytes = x_shape[0] * ((oh + 1) / 2) * ((ow + 1) / 2) * channels * 16 * 4;
    if transformed_bytes > MAX_TRANSFORMED_BYTES {
        return None;
    }
    let weights = float_constant(operand(op, 1)?, (filters * channels * 9) as usize)?;
    if operand(op, 2)
        .and_then(tensor_info)
        .is_some_and(|(shape, element)| shape != [filters] || !element.is_f32())
    {
        return None;
    }
    let relu = fused_relu(y);
    Some(Plan {
        filter: filter::transform(
            &weights,
            filters as usize,
            channels as usize,
            block as usize,
        ),
        kernel: WinogradKernel {
            relu: relu.is_some(),
            ..kernel
        },
        replaced: relu.unwrap_or(y),
    })
}

/// Replaces `op` (and a fused ReLU) with a call of the kernel `plan` describes, defined
/// in `module_block`.
fn replace(
    context: &Context,
    op: OperationRef,
    plan: Plan,
    module_block: melior::ir::BlockRef,
) -> Option<()> {
    let inserter = Inserter::before(context, op)?;
    let f32 = Type::float32(context);
    let filter_type = tensor_type(&plan.kernel.filter_shape(), f32);
    let bytes: Vec<u8> = plan.filter.iter().flat_map(|v| v.to_le_bytes()).collect();
    let filter = inserter.constant(
        glow_dialects::elements::resource_elements(filter_type, "winograd", &bytes),
        filter_type,
    );
    // The convolution's own bias (any f32 tensor of the filter count), or zeros.
    let bias = match operand(op, 2) {
        Some(bias) => bias,
        None => {
            let bias_type = tensor_type(&[plan.kernel.filters], f32);
            let zeros = vec![0u8; plan.kernel.filters as usize * 4];
            inserter.constant(
                crate::quantization::ir::elements_attribute(bias_type, &zeros, "bias"),
                bias_type,
            )
        }
    };
    let callee = FlatSymbolRefAttribute::new(context, &plan.kernel.name).into();
    let result = inserter.op(
        "func.call",
        &[operand(op, 0)?, filter, bias],
        &[("callee", callee)],
        plan.replaced.r#type(),
    );
    let replaced = plan.replaced;
    let relu = producer(replaced).filter(|p| *p != op);
    // SAFETY: `replaced` and `result` have the same type; the replaced ops (the ReLU's
    // select and compare, then the convolution) have no other users and are erased.
    unsafe {
        mlir_sys::mlirValueReplaceAllUsesOfWith(replaced.to_raw(), result.to_raw());
        if let Some(select) = relu {
            let compare = producer(operand(select, 0)?)?;
            for dead in [select, compare] {
                mlir_sys::mlirOperationRemoveFromParent(dead.to_raw());
                mlir_sys::mlirOperationDestroy(dead.to_raw());
            }
        }
        let weights = producer(operand(op, 1)?);
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
        if let Some(weights) = weights {
            crate::framework::dead_weights::release_unused_constant(weights);
        }
    }
    append_text(module_block, context, "", &plan.kernel.text())
}

fn run(module: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let min_tiles = options
        .value("min-tiles")
        .and_then(|v| v.parse().ok())
        .unwrap_or(36);
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let Some(module_block) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let targets = crate::quant_kernels::ops_named(module, &["glow.graph.conv2d"]);
    let mut names = crate::quant_kernels::SymbolNames::new(module, "glow_winograd_kernel");
    for raw in targets {
        // SAFETY: collected from the live module; ops are only erased after use.
        let op = unsafe { OperationRef::from_raw(raw) };
        let Some(mut plan) = plan(op, min_tiles) else {
            continue;
        };
        plan.kernel.name = names.next();
        if replace(context, op, plan, module_block).is_none() {
            emit_error(
                module.location(),
                "glow-winograd: internal error while generating a Winograd kernel",
            );
            return Err(());
        }
    }
    Ok(())
}
