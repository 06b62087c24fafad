//! `glow-quant-kernels{isa=host|avx512-vnni|generic}`: glow.quant.conv2d (NHWC, group
//! one or depthwise) and glow.quant.fully_connected with constant int8 weights (zero
//! point 0) and 8-bit activations become a call to a generated int8 micro-kernel
//! ([`conv_kernel`], [`depthwise_kernel`]),
//! with the filter packed and the bias / requantization constants computed at
//! compile time ([`packing`]). A fully_connected layer is the 1x1 convolution of an
//! 1 x 1 x M x K image. Run `inline` afterwards; the ops it leaves (other layouts,
//! weight zero points, int32 results, runtime weights) take glow-graph-to-linalg's
//! reference lowering.
//!
//! `isa=host` (the default) picks `avx512-vnni` when the CPU running the compiler has
//! AVX-512 VNNI and `generic` otherwise; bundles for another CPU pass it explicitly.

pub mod conv_kernel;
pub mod depthwise_kernel;
pub mod kernel_text;
pub mod lower_dot4;
pub mod packing;

use crate::{
    framework::{emit_error, OptionKind, PassDefinition, PassOption, PassOptions},
    lower_nodes::builder::tensor_info,
    quantization::ir::{quantized, quantized_constant, tensor_type},
    to_linalg::quantized_contraction::multiplier,
};
use conv_kernel::{ConvKernel, Isa};
use glow_dialects::quant_types::UniformQuantization;
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::{FlatSymbolRefAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
        Attribute, BlockLike, BlockRef, Identifier, Module, Operation, OperationRef, RegionLike,
        Type, Value, ValueLike,
    },
    Context,
};

/// The pass definition registered as `glow-quant-kernels`.
pub static QUANT_KERNELS: PassDefinition = PassDefinition {
    argument: "glow-quant-kernels",
    description: "Replace int8 convolutions and fully-connected layers with constant weights by VNNI (or plain vector) micro-kernels with packed filters",
    anchor: Some("builtin.module"),
    options: &[PassOption {
        name: "isa",
        description: "host (VNNI when this CPU has it), avx512-vnni, or generic",
        kind: OptionKind::String,
        default: Some("host"),
    }],
    dependent_dialects,
    validate,
    run,
};

fn dependent_dialects() -> Vec<DialectHandle> {
    // SAFETY: static descriptors of dialects linked into the binary.
    let extra = unsafe {
        [
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__vector__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__math__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__llvm__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__quant__()),
        ]
    };
    let mut dialects = vec![
        DialectHandle::func(),
        DialectHandle::scf(),
        DialectHandle::arith(),
        DialectHandle::tensor(),
        DialectHandle::affine(),
    ];
    dialects.extend(extra);
    dialects.extend(glow_dialects::glow_dialect_handles());
    dialects
}

fn validate(options: &PassOptions) -> Result<(), String> {
    match options.value("isa").unwrap_or("host") {
        "host" | "avx512-vnni" | "generic" => Ok(()),
        other => Err(format!(
            "'isa' is '{other}'; expected host, avx512-vnni or generic"
        )),
    }
}

/// Whether the CPU running this process has AVX-512 VNNI.
pub fn host_has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512vnni")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Everything a replaced op needs: its kernel and compile-time operands.
struct Plan {
    /// The kernel function's name and text.
    name: String,
    text: String,
    /// The kernel's input (N, H, W, C) and output (N, OH, OW, padded channels).
    input: [i64; 4],
    output: [i64; 4],
    /// Shape and bytes of the packed filter.
    filter_shape: Vec<i64>,
    packed: Vec<u8>,
    bias: Vec<i32>,
    multipliers: Vec<f32>,
    /// Real output channels (the kernel may compute more).
    filters: i64,
    /// For fully_connected: M and N of the 2-D result.
    matrix: Option<(i64, i64)>,
}

fn i64_array(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    crate::framework::attributes::i64_array(op, name)
}

/// Integer bias in accumulator units: (qb - zb) when the bias scale is the product
/// of the input and weight scales (onnxruntime's quantizer), else rounded.
fn accumulator_bias(bias: Option<(Vec<i64>, UniformQuantization)>, products: &[f64]) -> Vec<i64> {
    let Some((values, q)) = bias else {
        return vec![0; products.len()];
    };
    values
        .iter()
        .enumerate()
        .map(|(c, v)| {
            let centred = v - q.zero_point(c);
            let (scale, product) = (q.scale(c), products[c]);
            if (scale - product).abs() <= 1e-6 * product.abs() {
                centred
            } else {
                (centred as f64 * scale / product).round_ties_even() as i64
            }
        })
        .collect()
}

/// The plan for a glow.quant.conv2d / fully_connected, or None when the op is not one
/// the kernel handles.
fn plan(op: OperationRef, isa: Isa, name: String) -> Option<Plan> {
    let op_name = op.name().as_string_ref().as_str().ok()?.to_string();
    let conv = op_name == "glow.quant.conv2d";
    let input = op.operand(0).ok()?;
    let (x_shape, xq) = quantized(input)?;
    let (y_shape, yq) = quantized(op.result(0).ok()?.into())?;
    let (w_shape, w_values, wq) = quantized_constant(op.operand(1).ok()?)?;
    if xq.width != 8 || yq.width != 8 || wq.width != 8 || !wq.signed || xq.axis.is_some() {
        return None;
    }
    if wq.zero_points.iter().any(|z| *z != 0) {
        return None;
    }
    let bias = match op.operand(2) {
        Ok(b) => Some(quantized_constant(b).map(|(_, v, q)| (v, q))?),
        Err(_) => None,
    };
    // Filter as F x C x KH x KW, and the kernel geometry.
    let (filter_values, filters, channels, kh, kw, matrix) = if conv {
        if op.attribute("channels_last").is_err() {
            return None;
        }
        let group = op
            .attribute("group")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(1, |g| g.value());
        if group != 1 {
            return depthwise_plan(
                op, isa, name, &x_shape, &xq, &yq, &w_shape, &w_values, &wq, bias, group,
            );
        }
        (
            w_values, w_shape[0], w_shape[1], w_shape[2], w_shape[3], None,
        )
    } else {
        // K x N -> N x K x 1 x 1.
        let (k, n) = (w_shape[0], w_shape[1]);
        let mut transposed = vec![0i64; (k * n) as usize];
        for row in 0..k as usize {
            for col in 0..n as usize {
                transposed[col * k as usize + row] = w_values[row * n as usize + col];
            }
        }
        (transposed, n, k, 1, 1, Some((x_shape[0], n)))
    };
    let filter = packing::Filter {
        values: &filter_values,
        filters: filters as usize,
        channels: channels as usize,
        kernel_h: kh as usize,
        kernel_w: kw as usize,
    };
    let products: Vec<f64> = (0..filters as usize)
        .map(|c| (xq.scales[0] as f32 * wq.scale(c) as f32) as f64)
        .collect();
    let input_zero = xq.zero_points[0];
    let unsigned_zero = if xq.signed {
        input_zero + 128
    } else {
        input_zero
    };
    let padded = filter.padded_filters();
    let bias = packing::corrected_bias(
        &accumulator_bias(bias, &products),
        &filter.sums(),
        unsigned_zero,
        padded,
    );
    let mut multipliers: Vec<f32> = products
        .iter()
        .map(|p| multiplier(*p, yq.scales[0]) as f32)
        .collect();
    multipliers.resize(padded, 0.0);
    let (low, high) = crate::to_linalg::quantized_contraction::clamp_bounds(op, &yq);
    let (input, strides, pads, dilations, output) = if conv {
        let a = |n| i64_array(op, n);
        (
            [x_shape[0], x_shape[1], x_shape[2], x_shape[3]],
            a("strides")?,
            a("pads")?,
            a("dilations")?,
            [y_shape[1], y_shape[2]],
        )
    } else {
        (
            [1, 1, x_shape[0], x_shape[1]],
            vec![1, 1],
            vec![0, 0, 0, 0],
            vec![1, 1],
            [1, x_shape[0]],
        )
    };
    let kernel = ConvKernel {
        name: name.clone(),
        input,
        padded_channels: filter.padded_channels() as i64,
        kernel: [kh, kw],
        pads: [pads[0], pads[1], pads[2], pads[3]],
        strides: [strides[0], strides[1]],
        dilations: [dilations[0], dilations[1]],
        output,
        padded_filters: padded as i64,
        signed_input: xq.signed,
        input_zero,
        output_zero: yq.zero_points[0],
        low,
        high,
        isa,
    };
    let quads = kh * kw * kernel.padded_channels / 4;
    Some(Plan {
        text: kernel.text(),
        name,
        input: kernel.input,
        output: [
            kernel.input[0],
            kernel.output[0],
            kernel.output[1],
            kernel.padded_filters,
        ],
        filter_shape: vec![kernel.padded_filters / 16, quads, 64],
        packed: filter.packed(),
        bias,
        multipliers,
        filters,
        matrix,
    })
}

/// The plan for a depthwise glow.quant.conv2d (C x 1 x KH x KW filter, group C, C a
/// multiple of 16, NHWC), or None.
#[allow(clippy::too_many_arguments)]
fn depthwise_plan(
    op: OperationRef,
    isa: Isa,
    name: String,
    x_shape: &[i64],
    xq: &UniformQuantization,
    yq: &UniformQuantization,
    w_shape: &[i64],
    w_values: &[i64],
    wq: &UniformQuantization,
    bias: Option<(Vec<i64>, UniformQuantization)>,
    group: i64,
) -> Option<Plan> {
    let channels = x_shape[3];
    if group != channels || w_shape[0] != channels || w_shape[1] != 1 || channels % 16 != 0 {
        return None;
    }
    let (kh, kw) = (w_shape[2], w_shape[3]);
    let y_shape = tensor_info(op.result(0).ok()?.into())?.0;
    let products: Vec<f64> = (0..channels as usize)
        .map(|c| (xq.scales[0] as f32 * wq.scale(c) as f32) as f64)
        .collect();
    let sums: Vec<i64> = w_values
        .chunks((kh * kw) as usize)
        .map(|taps| taps.iter().sum())
        .collect();
    let input_zero = xq.zero_points[0];
    let unsigned_zero = if xq.signed {
        input_zero + 128
    } else {
        input_zero
    };
    let bias = packing::corrected_bias(
        &accumulator_bias(bias, &products),
        &sums,
        unsigned_zero,
        channels as usize,
    );
    let multipliers: Vec<f32> = products
        .iter()
        .map(|p| multiplier(*p, yq.scales[0]) as f32)
        .collect();
    let (low, high) = crate::to_linalg::quantized_contraction::clamp_bounds(op, yq);
    let a = |n| i64_array(op, n);
    let (strides, pads, dilations) = (a("strides")?, a("pads")?, a("dilations")?);
    let kernel = depthwise_kernel::DepthwiseKernel {
        name: name.clone(),
        input: [x_shape[0], x_shape[1], x_shape[2], channels],
        kernel: [kh, kw],
        pads: [pads[0], pads[1], pads[2], pads[3]],
        strides: [strides[0], strides[1]],
        dilations: [dilations[0], dilations[1]],
        output: [y_shape[1], y_shape[2]],
        signed_input: xq.signed,
        input_zero,
        output_zero: yq.zero_points[0],
        low,
        high,
        isa,
    };
    Some(Plan {
        text: kernel.text(),
        name,
        input: kernel.input,
        output: [x_shape[0], y_shape[1], y_shape[2], channels],
        filter_shape: vec![channels / 16, (kh + 3) / 4, kw, 64],
        packed: depthwise_kernel::pack_depthwise(
            w_values,
            channels as usize,
            kh as usize,
            kw as usize,
        ),
        bias,
        multipliers,
        filters: channels,
        matrix: None,
    })
}

/// Inserts ops before an op of a block.
struct Inserter<'c, 'a> {
    context: &'c Context,
    block: BlockRef<'c, 'a>,
    before: OperationRef<'c, 'a>,
}

impl<'c, 'a> Inserter<'c, 'a> {
    fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        attributes: &[(&str, Attribute<'c>)],
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        let attributes: Vec<(Identifier, Attribute)> = attributes
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        let op = OperationBuilder::new(name, self.before.location())
            .add_operands(operands)
            .add_attributes(&attributes)
            .add_results(&[result])
            .build()
            .unwrap_or_else(|e| panic!("cannot build {name}: {e}"));
        let inserted = self.block.insert_operation_before(self.before, op);
        let value = inserted.result(0).expect("one result");
        // SAFETY: the op lives in `block`, alive for 'a.
        unsafe { Value::from_raw(value.to_raw()) }
    }

    fn constant(&self, attribute: Attribute<'c>, r#type: Type<'c>) -> Value<'c, 'a> {
        self.op("arith.constant", &[], &[("value", attribute)], r#type)
    }
}

fn i8_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 8).into()
}

/// Replaces `op` with a call of the kernel `plan` describes (defined in `module_block`).
fn replace(context: &Context, op: OperationRef, plan: &Plan, module_block: BlockRef) -> Option<()> {
    let block = op.block()?;
    let inserter = Inserter {
        context,
        block,
        before: op,
    };
    let i8 = i8_type(context);
    let mut input = op.operand(0).ok()?;
    let (_, x_element) = tensor_info(input)?;
    if plan.matrix.is_some() {
        input = inserter.op(
            "glow.graph.reshape",
            &[input],
            &[],
            tensor_type(&plan.input, x_element),
        );
    }
    let storage = inserter.op("quant.scast", &[input], &[], tensor_type(&plan.input, i8));
    let filter_type = tensor_type(&plan.filter_shape, i8);
    let filter = inserter.constant(
        glow_dialects::elements::resource_elements(filter_type, "packed", &plan.packed),
        filter_type,
    );
    let fp = plan.output[3];
    let i32: Type = IntegerType::new(context, 32).into();
    let bias_type = tensor_type(&[fp], i32);
    let bias_bytes: Vec<u8> = plan.bias.iter().flat_map(|b| b.to_le_bytes()).collect();
    let bias = inserter.constant(
        crate::quantization::ir::elements_attribute(bias_type, &bias_bytes, "bias"),
        bias_type,
    );
    let mult_type = tensor_type(&[fp], Type::float32(context));
    let mult_bytes: Vec<u8> = plan
        .multipliers
        .iter()
        .flat_map(|m| m.to_le_bytes())
        .collect();
    let multipliers = inserter.constant(
        crate::quantization::ir::elements_attribute(mult_type, &mult_bytes, "scale"),
        mult_type,
    );
    let out_shape = plan.output;
    let out_type = tensor_type(&out_shape, i8);
    let init = inserter.op("tensor.empty", &[], &[], out_type);
    let callee = FlatSymbolRefAttribute::new(context, &plan.name).into();
    let mut result = inserter.op(
        "func.call",
        &[storage, filter, bias, multipliers, init],
        &[("callee", callee)],
        out_type,
    );
    let real_shape = [out_shape[0], out_shape[1], out_shape[2], plan.filters];
    if plan.filters != fp {
        let array = |values: &[i64]| -> Attribute {
            melior::ir::attribute::DenseI64ArrayAttribute::new(context, values).into()
        };
        let segments: Attribute =
            melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[1, 0, 0, 0]).into();
        result = inserter.op(
            "tensor.extract_slice",
            &[result],
            &[
                ("static_offsets", array(&[0, 0, 0, 0])),
                ("static_sizes", array(&real_shape)),
                ("static_strides", array(&[1, 1, 1, 1])),
                ("operandSegmentSizes", segments),
            ],
            tensor_type(&real_shape, i8),
        );
    }
    let y = op.result(0).ok()?;
    let (y_shape, y_element) = tensor_info(y.into())?;
    let mut value = inserter.op(
        "quant.scast",
        &[result],
        &[],
        tensor_type(&real_shape, y_element),
    );
    if plan.matrix.is_some() {
        value = inserter.op(
            "glow.graph.reshape",
            &[value],
            &[],
            tensor_type(&y_shape, y_element),
        );
    }
    // SAFETY: `y` and `value` have the same type; the op is erased right after.
    unsafe {
        mlir_sys::mlirValueReplaceAllUsesOfWith(y.to_raw(), value.to_raw());
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
    }
    // The kernel function, parsed from its text and moved into the module.
    let parsed = Module::parse(context, &format!("module {{\n{}}}\n", plan.text))?;
    let function = parsed.body().first_operation()?;
    // SAFETY: the function is detached from the temporary module and owned here.
    let function = unsafe {
        mlir_sys::mlirOperationRemoveFromParent(function.to_raw());
        Operation::from_raw(function.to_raw())
    };
    module_block.append_operation(function);
    Some(())
}

fn run(module: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let isa = match options.value("isa").unwrap_or("host") {
        "avx512-vnni" => Isa::Avx512Vnni,
        "generic" => Isa::Generic,
        _ if host_has_vnni() => Isa::Avx512Vnni,
        _ => Isa::Generic,
    };
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let Some(module_block) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut targets = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        if matches!(
            name.as_string_ref().as_str(),
            Ok("glow.quant.conv2d" | "glow.quant.fully_connected")
        ) {
            targets.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let mut next = 0;
    let mut taken = |context: &Context| -> String {
        loop {
            next += 1;
            let name = format!("glow_int8_kernel_{next}");
            let symbol = melior::StringRef::new(&name);
            // SAFETY: looking up a symbol in a live module op.
            let exists = unsafe {
                !mlir_sys::mlirSymbolTableLookup(
                    mlir_sys::mlirSymbolTableCreate(module.to_raw()),
                    symbol.to_raw(),
                )
                .ptr
                .is_null()
            };
            let _ = context;
            if !exists {
                return name;
            }
        }
    };
    for raw in targets {
        // SAFETY: collected from the live module; ops are only erased after use.
        let op = unsafe { OperationRef::from_raw(raw) };
        let name = taken(context);
        let Some(plan) = plan(op, isa, name) else {
            continue;
        };
        if replace(context, op, &plan, module_block).is_none() {
            emit_error(
                module.location(),
                "glow-quant-kernels: internal error while generating an int8 kernel",
            );
            return Err(());
        }
    }
    Ok(())
}
