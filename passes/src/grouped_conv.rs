//! `glow-grouped-conv`: a channels-last f32 `glow.graph.conv2d` with several groups of
//! more than one input channel (ResNeXt's 32 x 4, RegNet's 8-channel groups) and a
//! constant filter becomes a call of a generated kernel: an `scf.forall` over groups
//! whose body is one dense `linalg.conv_2d_nhwc_hwcf` on the group's channel slice, so
//! the CPU schedule tiles and vectorizes it like any dense convolution (before, the
//! grouped convolution was a scalar `linalg.generic`: 5 GFLOP/s).
//!
//! Groups with fewer than 16 output channels are merged `k` at a time (the largest `k`
//! dividing the group count with `k x` channels at most 16) into one group with a
//! block-diagonal filter built at compile time: `k` times the multiplications, but
//! 16-lane vectors instead of 4-lane ones, and `k` times fewer loop steps. The kernel is
//! a private function inlined with the Winograd kernels after tiling.

use crate::{
    framework::{emit_error, PassDefinition, PassOptions},
    lower_nodes::builder::tensor_info,
    quant_kernels::{append_text, Inserter, SymbolNames},
    quantization::ir::{float_constant, operand, producer, result, tensor_type},
};
use melior::{
    ir::{
        attribute::FlatSymbolRefAttribute, operation::OperationLike, OperationRef, RegionLike,
        Type, TypeLike, ValueLike,
    },
    Context,
};
use std::fmt::Write;

/// The pass definition registered as `glow-grouped-conv`.
pub static GROUPED_CONV: PassDefinition = PassDefinition {
    argument: "glow-grouped-conv",
    description: "Run channels-last f32 grouped convolutions with constant filters as a loop over groups of dense convolutions (small groups merged with block-diagonal filters)",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: crate::quant_kernels::kernel_dialects,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Output channels a merged group aims for: one AVX-512 vector of f32.
const LANES: i64 = 16;

/// One grouped convolution as the kernel computes it.
#[derive(Debug, PartialEq)]
struct GroupedConv {
    name: String,
    /// N, H, W, C of the input.
    input: [i64; 4],
    /// Output channels.
    filters: i64,
    /// Groups as given and groups merged per kernel step.
    groups: i64,
    merged: i64,
    kernel: [i64; 2],
    strides: [i64; 2],
    dilations: [i64; 2],
    /// Top, left, bottom, right.
    pads: [i64; 4],
}

impl GroupedConv {
    fn steps(&self) -> i64 {
        self.groups / self.merged
    }
    /// Input and output channels of one step.
    fn step_channels(&self) -> (i64, i64) {
        (self.input[3] / self.steps(), self.filters / self.steps())
    }
    fn output(&self) -> [i64; 2] {
        let extent = |size: i64, before: i64, after: i64, k: i64, s: i64, d: i64| {
            (size + before + after - d * (k - 1) - 1) / s + 1
        };
        [
            extent(
                self.input[1],
                self.pads[0],
                self.pads[2],
                self.kernel[0],
                self.strides[0],
                self.dilations[0],
            ),
            extent(
                self.input[2],
                self.pads[1],
                self.pads[3],
                self.kernel[1],
                self.strides[1],
                self.dilations[1],
            ),
        ]
    }
    /// The filter as the kernel reads it: [steps, KH, KW, C', F'].
    fn filter_shape(&self) -> [i64; 5] {
        let (c, f) = self.step_channels();
        [self.steps(), self.kernel[0], self.kernel[1], c, f]
    }

    /// The ONNX filter [F, C/G, KH, KW] as block-diagonal steps [steps, KH, KW, C', F'].
    fn filter(&self, weights: &[f32]) -> Vec<f32> {
        let [steps, kh, kw, cs, fs] = self.filter_shape().map(|d| d as usize);
        let (cg, fg) = (
            (self.input[3] / self.groups) as usize,
            (self.filters / self.groups) as usize,
        );
        let merged = self.merged as usize;
        let mut out = vec![0f32; steps * kh * kw * cs * fs];
        for step in 0..steps {
            for j in 0..merged {
                let group = step * merged + j;
                for fi in 0..fg {
                    let f = group * fg + fi;
                    for ci in 0..cg {
                        for y in 0..kh {
                            for x in 0..kw {
                                let value = weights[((f * cg + ci) * kh + y) * kw + x];
                                let at = (((step * kh + y) * kw + x) * cs + j * cg + ci) * fs
                                    + j * fg
                                    + fi;
                                out[at] = value;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The kernel's `func.func private` text. Operands: input, filter steps, bias.
    fn text(&self) -> String {
        let t = |shape: &[i64]| {
            format!(
                "tensor<{}xf32>",
                shape
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join("x")
            )
        };
        let [n, h, w, c] = self.input;
        let [oh, ow] = self.output();
        let [pt, pl, pb, pr] = self.pads;
        let (hp, wp) = (h + pt + pb, w + pl + pr);
        let (cs, fs) = self.step_channels();
        let [_, kh, kw, _, _] = self.filter_shape();
        let (input, padded, filter) = (t(&self.input), t(&[n, hp, wp, c]), t(&self.filter_shape()));
        let output = t(&[n, oh, ow, self.filters]);
        let (x_step, w_step, o_step) = (
            t(&[n, hp, wp, cs]),
            t(&[kh, kw, cs, fs]),
            t(&[n, oh, ow, fs]),
        );
        let mut s = String::new();
        let _ = writeln!(s, "func.func private @{}(%x: {input}, %w: {filter}, %bias: tensor<{}xf32>) -> {output} {{", self.name, self.filters);
        let _ = writeln!(s, "  %zero = arith.constant 0.0 : f32");
        if self.pads.iter().any(|p| *p != 0) {
            let _ = writeln!(s, "  %padded = tensor.pad %x low[0, {pt}, {pl}, 0] high[0, {pb}, {pr}, 0] {{\n  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):\n    tensor.yield %zero : f32\n  }} : {input} to {padded}");
        } else {
            let _ = writeln!(s, "  %padded = tensor.cast %x : {input} to {padded}");
        }
        let _ = writeln!(s, "  %empty = tensor.empty() : {output}");
        let _ = writeln!(s, "  %init = linalg.broadcast ins(%bias : tensor<{}xf32>) outs(%empty : {output}) dimensions = [0, 1, 2]", self.filters);
        let _ = writeln!(
            s,
            "  %result = scf.forall (%g) in ({}) shared_outs(%out = %init) -> ({output}) {{",
            self.steps()
        );
        let _ = writeln!(
            s,
            "    %c = affine.apply affine_map<(d0) -> (d0 * {cs})>(%g)"
        );
        let _ = writeln!(
            s,
            "    %f = affine.apply affine_map<(d0) -> (d0 * {fs})>(%g)"
        );
        let _ = writeln!(s, "    %xs = tensor.extract_slice %padded[0, 0, 0, %c] [{n}, {hp}, {wp}, {cs}] [1, 1, 1, 1] : {padded} to {x_step}");
        let _ = writeln!(s, "    %ws = tensor.extract_slice %w[%g, 0, 0, 0, 0] [1, {kh}, {kw}, {cs}, {fs}] [1, 1, 1, 1, 1] : {filter} to {w_step}");
        let _ = writeln!(s, "    %os = tensor.extract_slice %out[0, 0, 0, %f] [{n}, {oh}, {ow}, {fs}] [1, 1, 1, 1] : {output} to {o_step}");
        let _ = writeln!(
            s,
            "    %conv = linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{}, {}]> : tensor<2xi64>, strides = dense<[{}, {}]> : tensor<2xi64>}} ins(%xs, %ws : {x_step}, {w_step}) outs(%os : {o_step}) -> {o_step}",
            self.dilations[0], self.dilations[1], self.strides[0], self.strides[1]
        );
        let _ = writeln!(s, "    scf.forall.in_parallel {{\n      tensor.parallel_insert_slice %conv into %out[0, 0, 0, %f] [{n}, {oh}, {ow}, {fs}] [1, 1, 1, 1] : {o_step} into {output}\n    }}");
        let _ = writeln!(s, "  }}\n  return %result : {output}\n}}");
        s
    }
}

fn pair(values: Option<Vec<i64>>, default: i64) -> Option<[i64; 2]> {
    match values.as_deref() {
        None => Some([default, default]),
        Some([a, b]) => Some([*a, *b]),
        _ => None,
    }
}

/// Whether glow-channels-last may give `op` (an NCHW `glow.graph.conv2d`) the NHWC
/// layout because this pass then takes it: f32 with several groups of more than one
/// input channel and a constant filter.
pub fn takes_nchw(op: OperationRef) -> bool {
    if op.name().as_string_ref().as_str() != Ok("glow.graph.conv2d") {
        return false;
    }
    let Some(((x, _), (w, _))) = operand(op, 0)
        .and_then(tensor_info)
        .zip(operand(op, 1).and_then(tensor_info))
    else {
        return false;
    };
    let groups = crate::framework::attributes::i64_value(op, "group").unwrap_or(1);
    x.len() == 4
        && w.len() == 4
        && groups >= 2
        && w[1] >= 2
        && x[1] == groups * w[1]
        && w[0] % groups == 0
        && operand(op, 1)
            .and_then(|v| float_constant(v, w.iter().product::<i64>() as usize))
            .is_some()
}

/// The kernel for `op`, when it qualifies.
fn plan(op: OperationRef) -> Option<GroupedConv> {
    use crate::framework::attributes::{i64_array, i64_value};
    if op.attribute("channels_last").is_err() {
        return None;
    }
    let groups = i64_value(op, "group").unwrap_or(1);
    let (x_shape, x_element) = tensor_info(operand(op, 0)?)?;
    let (w_shape, w_element) = tensor_info(operand(op, 1)?)?;
    let (y_shape, _) = tensor_info(result(op, 0)?)?;
    if !x_element.is_f32() || !w_element.is_f32() || x_shape.len() != 4 || w_shape.len() != 4 {
        return None;
    }
    let (filters, group_channels) = (w_shape[0], w_shape[1]);
    // Depthwise convolutions (one input channel per group) have their own kernel.
    if groups < 2
        || group_channels < 2
        || filters % groups != 0
        || x_shape[3] != groups * group_channels
    {
        return None;
    }
    if operand(op, 2)
        .and_then(tensor_info)
        .is_some_and(|(shape, element)| shape != [filters] || !element.is_f32())
    {
        return None;
    }
    let pads = match i64_array(op, "pads").as_deref() {
        None => [0; 4],
        Some([a, b, c, d]) => [*a, *b, *c, *d],
        _ => return None,
    };
    let group_filters = filters / groups;
    let merged = if group_filters < LANES {
        (1..=groups)
            .rev()
            .find(|k| groups % k == 0 && k * group_filters <= LANES)
            .unwrap_or(1)
    } else {
        1
    };
    let conv = GroupedConv {
        name: String::new(),
        input: [x_shape[0], x_shape[1], x_shape[2], x_shape[3]],
        filters,
        groups,
        merged,
        kernel: [w_shape[2], w_shape[3]],
        strides: pair(i64_array(op, "strides"), 1)?,
        dilations: pair(i64_array(op, "dilations"), 1)?,
        pads,
    };
    let [oh, ow] = conv.output();
    if x_shape.iter().chain(&w_shape).any(|d| *d <= 0) || y_shape != [x_shape[0], oh, ow, filters] {
        return None;
    }
    Some(conv)
}

fn replace(
    context: &Context,
    op: OperationRef,
    conv: &GroupedConv,
    weights: &[f32],
    module_block: melior::ir::BlockRef,
) -> Option<()> {
    let inserter = Inserter::before(context, op)?;
    let f32 = Type::float32(context);
    let filter_type = tensor_type(&conv.filter_shape(), f32);
    let bytes: Vec<u8> = conv
        .filter(weights)
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let filter = inserter.constant(
        glow_dialects::elements::resource_elements(filter_type, "grouped", &bytes),
        filter_type,
    );
    let bias = match operand(op, 2) {
        Some(bias) => bias,
        None => {
            let bias_type = tensor_type(&[conv.filters], f32);
            let zeros = vec![0u8; conv.filters as usize * 4];
            inserter.constant(
                crate::quantization::ir::elements_attribute(bias_type, &zeros, "bias"),
                bias_type,
            )
        }
    };
    let y = result(op, 0)?;
    let callee = FlatSymbolRefAttribute::new(context, &conv.name).into();
    let call = inserter.op(
        "func.call",
        &[operand(op, 0)?, filter, bias],
        &[("callee", callee)],
        y.r#type(),
    );
    // SAFETY: same types; the convolution has no other users once replaced, and is
    // erased with its then unused weights.
    unsafe {
        mlir_sys::mlirValueReplaceAllUsesOfWith(y.to_raw(), call.to_raw());
        let weights = producer(operand(op, 1)?);
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
        if let Some(weights) = weights {
            crate::framework::dead_weights::release_unused_constant(weights);
        }
    }
    append_text(module_block, context, "", &conv.text())
}

fn run(module: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let Some(module_block) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let targets = crate::quant_kernels::ops_named(module, &["glow.graph.conv2d"]);
    let mut names = SymbolNames::new(module, "glow_grouped_conv");
    for raw in targets {
        // SAFETY: collected from the live module; ops are only erased after use.
        let op = unsafe { OperationRef::from_raw(raw) };
        let Some(mut conv) = plan(op) else {
            continue;
        };
        // Only constant filters: the block-diagonal layout is built at compile time.
        let [_, kh, kw, _, _] = conv.filter_shape();
        let count = (conv.filters * (conv.input[3] / conv.groups) * kh * kw) as usize;
        let Some(weights) = operand(op, 1).and_then(|w| float_constant(w, count)) else {
            continue;
        };
        conv.name = names.next();
        if replace(context, op, &conv, &weights, module_block).is_none() {
            emit_error(
                module.location(),
                "glow-grouped-conv: internal error while generating a grouped convolution kernel",
            );
            return Err(());
        }
    }
    Ok(())
}
