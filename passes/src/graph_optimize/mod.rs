//! `glow-graph-optimize`: Glow's graph optimizer (lib/Optimizer/GraphOptimizer) as Rust
//! rules on MLIR's greedy driver, which also folds (reshape chains, identity
//! transposes, rescales ...) and removes dead nodes as it goes:
//! - batch_norm of a conv2d with constant weights -> one conv2d ([`fold_batch_norm`])
//! - conv2d taps that only read padding -> cut from the filter ([`padding_taps`])
//! - conv2d mostly reading padding -> one conv2d per region of equal live taps
//!   ([`padding_regions`])
//! - transpose of transpose -> one transpose (or nothing)    ([`compose_transposes`])
//! - elementwise ops of transposes / reshapes -> the transpose / reshape of the op, so
//!   movements meet and cancel                                ([`sink_movement`])
//! - concat of equal transposes -> the transpose of the concat  ([`sink_concat`])
//! - broadcast of a transpose -> the transpose of the broadcast ([`sink_broadcast`])
//! - resize of a transpose -> the transpose of the resize  ([`sink_resize`])
//! - slices of a transpose, and a channel shuffle of a transpose -> the transpose of
//!   the slice / shuffle                                      ([`sink_slice_shuffle`])
//! - pad / reduction of a transpose -> the pad / reduction of its source
//!   ([`sink_pad_reduce`]); splats, scalar broadcasts and per-channel constants do not
//!   stop a transpose from sinking below a binary op ([`layout_free_operands`])
//!
//! - an op whose results hold no element -> empty constants, before the rules
//!   ([`empty_results`])
//!
//! The importer already drops Identity/Dropout and folds constant subgraphs and
//! shape chains; run `cse` after this pass to merge duplicates.

pub mod compose_transposes;
pub mod empty_results;
pub mod fold_batch_norm;
pub mod layout_free_operands;
pub mod padding_regions;
pub mod padding_taps;
pub mod sink_broadcast;
pub mod sink_concat;
pub mod sink_movement;
pub mod sink_pad_reduce;
pub mod sink_resize;
pub mod sink_slice_shuffle;
pub mod unit_dim_reduce;

use crate::framework::{
    apply_rules, emit_error, OptionKind, PassDefinition, PassOption, PassOptions, Rule,
};
use glow_dialects::glow_dialect_handles;
use melior::ir::{operation::OperationLike, OperationRef};

/// Every rule group, by the name `disable` uses.
pub const RULES: &[(&str, &[&Rule])] = &[
    (
        "fold-batch-norm",
        &[&fold_batch_norm::FOLD_BATCH_NORM_INTO_CONV],
    ),
    ("trim-padding-taps", &[&padding_taps::TRIM_PADDING_TAPS]),
    (
        "split-padding-regions",
        &[&padding_regions::SPLIT_PADDING_REGIONS],
    ),
    (
        "compose-transposes",
        &[&compose_transposes::COMPOSE_TRANSPOSES],
    ),
    ("sink-transposes", sink_movement::SINK_RULES),
    (
        "sink-transposes",
        &[
            &sink_concat::SINK_TRANSPOSES_BELOW_CONCAT,
            &sink_broadcast::SINK_TRANSPOSE_BELOW_BROADCAST,
            &sink_pad_reduce::SINK_TRANSPOSE_BELOW_PAD,
            &sink_resize::SINK_TRANSPOSE_BELOW_RESIZE,
            &sink_slice_shuffle::SINK_TRANSPOSE_BELOW_SLICE,
            &sink_slice_shuffle::SINK_TRANSPOSE_BELOW_SHUFFLE,
        ],
    ),
    ("sink-transposes", sink_pad_reduce::REDUCTION_RULES),
    ("sink-reshapes", sink_movement::SINK_RESHAPE_RULES),
    ("sink-reshapes", unit_dim_reduce::RULES),
];

/// The pass definition registered as `glow-graph-optimize`.
pub static GRAPH_OPTIMIZE: PassDefinition = PassDefinition {
    argument: "glow-graph-optimize",
    description: "Glow's graph optimizations: batch_norm folded into convolutions, transpose and reshape sinking and cancellation, folding and dead-node removal",
    anchor: Some("func.func"),
    options: &[PassOption {
        name: "disable",
        description: "Rules to skip (fold-batch-norm, trim-padding-taps, split-padding-regions, compose-transposes, sink-transposes, sink-reshapes)",
        kind: OptionKind::StringList,
        default: None,
    }],
    dependent_dialects: || glow_dialect_handles().to_vec(),
    validate,
    run,
};

fn validate(options: &PassOptions) -> Result<(), String> {
    for name in options.list("disable") {
        if !RULES.iter().any(|(rule, _)| rule == name) {
            let mut known: Vec<&str> = RULES.iter().map(|(rule, _)| *rule).collect();
            known.dedup();
            return Err(format!(
                "'disable' names '{name}', which is not a rule of this pass; rules: {}",
                known.join(", ")
            ));
        }
    }
    Ok(())
}

fn run(op: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let disabled = options.list("disable");
    let rules: Vec<&'static Rule> = RULES
        .iter()
        .filter(|(name, _)| !disabled.iter().any(|d| d == name))
        .flat_map(|(_, rules)| rules.iter().copied())
        .collect();
    empty_results::replace_empty_results(op);
    apply_rules(op, &rules).map_err(|_| {
        emit_error(
            op.location(),
            "glow-graph-optimize: the rewrite did not converge",
        );
    })
}
