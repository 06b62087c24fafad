//! `glow-graph-to-linalg`: primitive glow.graph ops to linalg named ops on tensors
//! (plus tensor.reshape / pad / concat / empty and arith.constant), ready for
//! upstream bufferization and lowering: elementwise ops, contractions, shapes and
//! reductions ([`rules`]), convolution and pooling ([`windows`]). Run glow-lower-nodes
//! first: high-level nodes left over are reported, not silently left behind.

pub mod builder;
pub mod data;
pub mod rules;
pub mod windows;

use crate::framework::{apply_rules, emit_error, PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        OperationRef,
    },
};

/// The pass definition registered as `glow-graph-to-linalg`.
pub static GRAPH_TO_LINALG: PassDefinition = PassDefinition {
    argument: "glow-graph-to-linalg",
    description: "Convert primitive glow.graph ops to linalg named ops on tensors",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || {
        vec![
            DialectHandle::linalg(),
            DialectHandle::tensor(),
            DialectHandle::arith(),
        ]
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let all: Vec<&'static crate::framework::Rule> = rules::RULES
        .iter()
        .copied()
        .chain([&windows::CONV2D, &windows::MAX_POOL, &windows::AVG_POOL])
        .chain(data::RULES.iter().copied())
        .collect();
    apply_rules(op, &all).map_err(|_| {
        emit_error(
            op.location(),
            "glow-graph-to-linalg: the rewrite did not converge",
        );
    })?;
    let mut failed = false;
    op.walk(WalkOrder::PreOrder, |nested| {
        let name = nested.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        if name.starts_with("glow.graph.") {
            emit_error(
                nested.location(),
                &format!("glow-graph-to-linalg: no conversion for '{name}' with these operand types yet (run glow-lower-nodes first for high-level nodes)"),
            );
            failed = true;
        }
        WalkResult::Advance
    });
    if failed {
        Err(())
    } else {
        Ok(())
    }
}
