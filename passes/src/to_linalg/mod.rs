//! `glow-graph-to-linalg`: primitive glow.graph ops to linalg named ops on tensors
//! (plus tensor.reshape / pad / concat / empty and arith.constant), ready for
//! upstream bufferization and lowering: elementwise ops, contractions, shapes and
//! reductions ([`rules`]), convolution and pooling ([`windows`]), remainders and bit
//! shifts ([`remainder_and_shifts`]). Run glow-lower-nodes
//! first: high-level nodes left over are reported, not silently left behind.

/// A conversion rule: `rule!(NAME, "glow.graph.op", |context, op, rewriter| ...)`.
macro_rules! rule {
    ($name:ident, $root:literal, $rewrite:expr) => {
        #[doc = concat!("Converts `", $root, "`.")]
        pub static $name: Rule = Rule {
            root: $root,
            generates: &["linalg.generic"],
            rewrite: $rewrite,
        };
    };
}

pub mod builder;
pub mod conv_transpose;
pub mod cumulative_sum;
pub mod data;
pub mod half_precision;
pub mod index_checks;
pub mod indexing;
pub mod local_response_norm;
pub mod math_functions;
pub mod padded_contraction;
pub mod quantization;
pub mod quantized_contraction;
pub mod quantized_elementwise;
pub mod reductions;
pub mod remainder_and_shifts;
pub mod resize;
mod resize_separable;
pub mod rules;
pub mod scatter_generic;
pub mod signless;
pub mod windows;

use crate::framework::{
    apply_rules, emit_error, OptionKind, PassDefinition, PassOption, PassOptions,
};
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
    options: &[PassOption {
        name: "scatter",
        description: "scatter_elements as an scf.for over the updates (loop, linear work) or one linalg.generic over the output (generic, for consumers that compile only structured ops)",
        kind: OptionKind::String,
        default: Some("loop"),
    }],
    dependent_dialects: || {
        let mut dialects = vec![
            DialectHandle::linalg(),
            DialectHandle::tensor(),
            DialectHandle::arith(),
            DialectHandle::scf(),
            // SAFETY: a static descriptor of a dialect linked into the binary.
            unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__math__()) },
        ];
        dialects.extend(glow_dialects::glow_dialect_handles());
        dialects
    },
    validate: |options: &PassOptions| match options.value("scatter") {
        None | Some("loop") | Some("generic") => Ok(()),
        Some(other) => Err(format!("scatter={other}: expected loop or generic")),
    },
    run,
};

fn run(op: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let generic_scatter = options.value("scatter") == Some("generic");
    let all: Vec<&'static crate::framework::Rule> =
        rules::RULES
            .iter()
            .copied()
            .chain([&windows::CONV2D, &windows::MAX_POOL, &windows::AVG_POOL])
            .chain([
                &local_response_norm::LOCAL_RESPONSE_NORM,
                &conv_transpose::CONV_TRANSPOSE2D,
                &resize::RESIZE,
                &quantization::QUANTIZE,
                &quantization::DEQUANTIZE,
                &quantization::RESCALE,
                &quantized_contraction::QUANT_CONV2D,
                &quantized_contraction::QUANT_FULLY_CONNECTED,
                &quantized_contraction::QUANT_BATCH_MATMUL,
                &quantized_elementwise::QUANT_ADD,
                &quantized_elementwise::QUANT_MUL,
                &quantized_elementwise::QUANT_LOOKUP_TABLE,
                &quantized_elementwise::QUANT_AVG_POOL,
                &half_precision::CONV2D,
                &half_precision::MATMUL,
                &half_precision::BATCH_MATMUL,
                &half_precision::CONV_TRANSPOSE2D,
                &half_precision::REDUCE_SUM,
            ])
            .chain(data::RULES.iter().copied())
            .chain(math_functions::RULES.iter().copied())
            .chain([&cumulative_sum::CUMSUM])
            .chain(
                if generic_scatter {
                    scatter_generic::RULES
                } else {
                    &[]
                }
                .iter()
                .copied(),
            )
            .chain(indexing::RULES.iter().copied().filter(|rule| {
                !(generic_scatter && std::ptr::eq(*rule, &indexing::SCATTER_ELEMENTS))
            }))
            .chain(remainder_and_shifts::RULES.iter().copied())
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
        // glow.quant.dot4 and permute_bytes are vector code of the int8 kernels, lowered
        // after bufferization.
        if (name.starts_with("glow.graph.") || name.starts_with("glow.quant."))
            && name != "glow.quant.dot4"
            && name != "glow.quant.permute_bytes"
        {
            emit_error(
                nested.location(),
                &format!("glow-graph-to-linalg: no conversion for '{name}' with these operand types yet (run glow-lower-nodes first for high-level nodes)"),
            );
            failed = true;
        }
        WalkResult::Advance
    });
    if failed {
        return Err(());
    }
    let unconverted = signless::make_signless(op);
    for constant in &unconverted {
        emit_error(
            constant.location(),
            "glow-graph-to-linalg: cannot retype this unsigned constant to signless",
        );
    }
    if unconverted.is_empty() {
        Ok(())
    } else {
        Err(())
    }
}
