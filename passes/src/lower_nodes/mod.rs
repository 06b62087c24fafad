//! `glow-lower-nodes`: Glow's node lowering (lib/Optimizer/Lower/Lower.cpp). High-level
//! `glow.graph` nodes are rewritten into the few primitive nodes a backend must
//! implement; a backend keeps the nodes it implements natively with
//! `keep=<node>,<node>` (Glow's `shouldLower`), e.g. the CPU backend kept
//! fully_connected and convolution.
//!
//! Rules:
//! - fully_connected -> matmul + batched_add            ([`fully_connected`])
//! - batch_norm (inference) -> mul / add with per-channel
//!   scale = scale / sqrt(var + epsilon) and shift = bias - mean * scale   ([`batch_norm`])
//! - relu, leaky_relu, prelu, clip, hard_swish, hard_sigmoid, gelu -> max / min / mul /
//!   select / erf / tanh                                  ([`activations`])
//! - softmax, log_softmax -> stable exp / reduce forms    ([`softmax`])
//! - layer_norm, instance_norm, reduce_mean -> reductions and elementwise ops
//!   ([`normalization`])
//! - adaptive_avg_pool -> avg_pool, or two matmuls with constant averaging matrices
//!   ([`adaptive_pool`])
//! - conv_transpose2d whose kernel equals its strides (upsampling) -> matmul + pixel
//!   shuffle ([`conv_transpose`]); with a constant filter, one group, no dilation and
//!   a kernel at least its strides -> one stride-1 conv2d per output phase, interleaved
//!   ([`conv_transpose_phases`]); other transposed convolutions stay for
//!   glow-graph-to-linalg

pub mod activations;
pub mod adaptive_pool;
pub mod batch_norm;
pub mod builder;
pub mod conv_transpose;
pub mod conv_transpose_phases;
pub mod fully_connected;
pub mod normalization;
pub mod softmax;

use crate::framework::{
    apply_rules, emit_error, OptionKind, PassDefinition, PassOption, PassOptions, Rule,
};
use glow_dialects::glow_dialect_handles;
use melior::ir::{operation::OperationLike, OperationRef};

/// Every lowering rule, by the node kind it lowers (the name `keep` uses).
pub const RULES: &[(&str, &Rule)] = &[
    ("fully_connected", &fully_connected::LOWER_FULLY_CONNECTED),
    ("batch_norm", &batch_norm::LOWER_BATCH_NORM),
    ("relu", &activations::LOWER_RELU),
    ("leaky_relu", &activations::LOWER_LEAKY_RELU),
    ("prelu", &activations::LOWER_PRELU),
    ("clip", &activations::LOWER_CLIP),
    ("hard_swish", &activations::LOWER_HARD_SWISH),
    ("hard_sigmoid", &activations::LOWER_HARD_SIGMOID),
    ("gelu", &activations::LOWER_GELU),
    ("softmax", &softmax::LOWER_SOFTMAX),
    ("log_softmax", &softmax::LOWER_LOG_SOFTMAX),
    ("layer_norm", &normalization::LOWER_LAYER_NORM),
    ("instance_norm", &normalization::LOWER_INSTANCE_NORM),
    ("reduce_mean", &normalization::LOWER_REDUCE_MEAN),
    ("adaptive_avg_pool", &adaptive_pool::LOWER_ADAPTIVE_AVG_POOL),
    ("conv_transpose2d", &conv_transpose::LOWER_CONV_TRANSPOSE),
];

/// The pass definition registered as `glow-lower-nodes`.
pub static LOWER_NODES: PassDefinition = PassDefinition {
    argument: "glow-lower-nodes",
    description: "Lower high-level glow.graph nodes into primitive ones (Glow's node lowering)",
    anchor: Some("func.func"),
    options: &[PassOption {
        name: "keep",
        description: "Node kinds to keep unlowered (e.g. keep=fully_connected,batch_norm)",
        kind: OptionKind::StringList,
        default: None,
    }],
    dependent_dialects: || glow_dialect_handles().to_vec(),
    validate,
    run,
};

/// Accepts `fully_connected` or `glow.graph.fully_connected`.
fn node_kind(name: &str) -> &str {
    name.strip_prefix("glow.graph.").unwrap_or(name)
}

fn validate(options: &PassOptions) -> Result<(), String> {
    for name in options.list("keep") {
        if !RULES.iter().any(|(kind, _)| *kind == node_kind(name)) {
            let known: Vec<&str> = RULES.iter().map(|(kind, _)| *kind).collect();
            return Err(format!(
                "'keep' names '{name}', which this pass does not lower; lowered node kinds: {}",
                known.join(", ")
            ));
        }
    }
    Ok(())
}

fn run(op: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let keep = options.list("keep");
    let rules: Vec<&'static Rule> = RULES
        .iter()
        .filter(|(kind, _)| !keep.iter().any(|kept| node_kind(kept) == *kind))
        .map(|(_, rule)| *rule)
        .collect();
    apply_rules(op, &rules).map_err(|_| {
        emit_error(
            op.location(),
            "glow-lower-nodes: the rewrite did not converge",
        );
    })
}
