//! `glow-channels-last`: the CPU layout choice, as Glow made it (its convolutions and
//! pools were NHWC, the importer wrapped them in transposes): every NCHW conv2d of
//! group 1 or depthwise (glow.graph or glow.quant), with `grouped` every grouped f32
//! one with a constant filter (glow-grouped-conv's), and every max_pool / avg_pool,
//! becomes
//! transpose(op{channels_last}(transpose(x, [0, 2, 3, 1])), [0, 3, 1, 2]); then the
//! transposes sink below elementwise ops and cancel pairwise
//! ([`crate::graph_optimize`]'s rules), so a network keeps NHWC between its layers and
//! transposes remain only where the layout really changes (inputs, outputs, reshapes).
//! Channels-last puts the channels innermost, where the CPU schedule vectorizes them.

use crate::{
    framework::{
        apply_rules, emit_error, OptionKind, PassDefinition, PassOption, PassOptions, Rule,
    },
    graph_optimize::{compose_transposes::COMPOSE_TRANSPOSES, sink_movement::SINK_RULES},
    lower_nodes::builder::tensor_info,
};
use glow_dialects::{glow_dialect_handles, ods::glow_graph};
use melior::{
    ir::{
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::OperationLike,
        Attribute, AttributeLike, OperationRef, TypeLike, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// The pass definition registered as `glow-channels-last`.
pub static CHANNELS_LAST: PassDefinition = PassDefinition {
    argument: "glow-channels-last",
    description:
        "Give convolutions and pools the NHWC layout and cancel the transposes between them",
    anchor: Some("func.func"),
    options: &[
        PassOption {
            name: "grouped",
            description: "Also grouped f32 convolutions with constant filters, for glow-grouped-conv's kernels (the CPU pipeline; exports keep them NCHW for linalg's grouped convolution)",
            kind: OptionKind::Bool,
            default: Some("false"),
        },
        PassOption {
            name: "grouped-int8",
            description: "Also grouped int8 convolutions that glow-quant-kernels takes (the CPU pipeline with int8 micro-kernels)",
            kind: OptionKind::Bool,
            default: Some("false"),
        },
    ],
    dependent_dialects: || glow_dialect_handles().to_vec(),
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The grouped int8 convolutions glow-quant-kernels takes, to their channels-last form.
pub static GROUPED_QUANT_CONV2D_TO_CHANNELS_LAST: Rule = Rule {
    root: "glow.quant.conv2d",
    generates: &["glow.graph.transpose", "glow.quant.conv2d"],
    rewrite: |c, o, r| crate::quant_kernels::grouped::takes(o) && move_to_channels_last(c, o, r),
};

/// The grouped convolutions glow-grouped-conv takes, to their channels-last form.
pub static GROUPED_CONV2D_TO_CHANNELS_LAST: Rule = Rule {
    root: "glow.graph.conv2d",
    generates: &["glow.graph.transpose", "glow.graph.conv2d"],
    rewrite: |c, o, r| crate::grouped_conv::takes_nchw(o) && move_to_channels_last(c, o, r),
};

macro_rules! layout_rules {
    ($($name:ident => $root:literal),* $(,)?) => {
        $(
            #[doc = concat!("`", $root, "` to its channels-last form between transposes.")]
            pub static $name: Rule = Rule {
                root: $root,
                generates: &["glow.graph.transpose", $root],
                rewrite,
            };
        )*
    };
}

layout_rules! {
    CONV2D_TO_CHANNELS_LAST => "glow.graph.conv2d",
    MAX_POOL_TO_CHANNELS_LAST => "glow.graph.max_pool",
    AVG_POOL_TO_CHANNELS_LAST => "glow.graph.avg_pool",
    QUANT_CONV2D_TO_CHANNELS_LAST => "glow.quant.conv2d",
    QUANT_AVG_POOL_TO_CHANNELS_LAST => "glow.quant.avg_pool",
}

/// NCHW -> NHWC.
const TO_NHWC: [i64; 4] = [0, 2, 3, 1];
/// NHWC -> NCHW.
const TO_NCHW: [i64; 4] = [0, 3, 1, 2];

fn transpose<'c, 'a>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    value: Value<'c, 'a>,
    perm: &[i64],
    op: OperationRef<'c, '_>,
) -> Option<Value<'c, 'a>> {
    let attribute = DenseI64ArrayAttribute::new(context, perm).into();
    let inserted =
        rewriter.insert(glow_graph::transpose(context, value, attribute, op.location()).into());
    let result = inserted.result(0).ok()?;
    // SAFETY: the inserted op lives in the IR as long as the operand's IR does.
    Some(unsafe { Value::from_raw(result.to_raw()) })
}

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    // Only the groupings linalg has a channels-last convolution for.
    if matches!(
        op.name().as_string_ref().as_str(),
        Ok("glow.graph.conv2d" | "glow.quant.conv2d")
    ) {
        let group = op
            .attribute("group")
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(1, |g| g.value());
        let input = op.operand(0).ok().and_then(tensor_info);
        let filter = op.operand(1).ok().and_then(tensor_info);
        let depthwise = input.zip(filter).is_some_and(|((x, _), (w, _))| {
            x.len() == 4 && group == x[1] && w[0] == x[1] && w[1] == 1
        });
        if group != 1 && !depthwise {
            return false;
        }
    }
    move_to_channels_last(context, op, rewriter)
}

/// `op` between transposes, with the channels_last attribute.
fn move_to_channels_last<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    if op.attribute("channels_last").is_ok() {
        return false;
    }
    let (Ok(input), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((x_shape, _)), Some((y_shape, element))) =
        (tensor_info(input), tensor_info(result.into()))
    else {
        return false;
    };
    if x_shape.len() != 4 {
        return false;
    }
    rewriter.set_insertion_point_before(op);
    let Some(input_nhwc) = transpose(context, rewriter, input, &TO_NHWC, op) else {
        return false;
    };
    let moved = rewriter.clone_op(op);
    let nhwc_type = melior::ir::r#type::RankedTensorType::new(
        &[y_shape[0], y_shape[2], y_shape[3], y_shape[1]].map(|d| d as u64),
        element,
        None,
    );
    // SAFETY: the clone is alive; its input becomes the NHWC value, its result the NHWC
    // type its channels_last attribute infers.
    unsafe {
        mlir_sys::mlirOperationSetOperand(moved.to_raw(), 0, input_nhwc.to_raw());
        let name = "channels_last";
        mlir_sys::mlirOperationSetAttributeByName(
            moved.to_raw(),
            mlir_sys::MlirStringRef {
                data: name.as_ptr().cast(),
                length: name.len(),
            },
            Attribute::unit(context).to_raw(),
        );
    }
    let Ok(moved_result) = moved.result(0) else {
        return false;
    };
    // SAFETY: as above.
    unsafe { mlir_sys::mlirValueSetType(moved_result.to_raw(), nhwc_type.to_raw()) };
    let Some(output) = transpose(context, rewriter, moved_result.into(), &TO_NCHW, op) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[output]);
    true
}

fn run(op: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let mut rules: Vec<&'static Rule> = vec![
        &CONV2D_TO_CHANNELS_LAST,
        &MAX_POOL_TO_CHANNELS_LAST,
        &AVG_POOL_TO_CHANNELS_LAST,
        &QUANT_CONV2D_TO_CHANNELS_LAST,
        &QUANT_AVG_POOL_TO_CHANNELS_LAST,
        &COMPOSE_TRANSPOSES,
    ];
    if options.flag("grouped") {
        rules.push(&GROUPED_CONV2D_TO_CHANNELS_LAST);
    }
    if options.flag("grouped-int8") {
        rules.push(&GROUPED_QUANT_CONV2D_TO_CHANNELS_LAST);
    }
    rules.extend(SINK_RULES.iter().copied());
    rules.push(&crate::graph_optimize::sink_concat::SINK_TRANSPOSES_BELOW_CONCAT);
    rules.push(&crate::graph_optimize::sink_broadcast::SINK_TRANSPOSE_BELOW_BROADCAST);
    rules.push(&crate::graph_optimize::sink_pad_reduce::SINK_TRANSPOSE_BELOW_PAD);
    rules.push(&crate::graph_optimize::sink_resize::SINK_TRANSPOSE_BELOW_RESIZE);
    rules.push(&crate::graph_optimize::sink_slice_shuffle::SINK_TRANSPOSE_BELOW_SLICE);
    rules.push(&crate::graph_optimize::sink_slice_shuffle::SINK_TRANSPOSE_BELOW_SHUFFLE);
    rules.extend(
        crate::graph_optimize::sink_pad_reduce::REDUCTION_RULES
            .iter()
            .copied(),
    );
    apply_rules(op, &rules).map_err(|_| {
        emit_error(
            op.location(),
            "glow-channels-last: the rewrite did not converge",
        );
    })
}
