//! Mutation fuzzing of glow-opt's input path in-process: the lit tests' `.mlir` files
//! (every Glow op, valid and invalid) are mutated at the token level (tokens
//! duplicated, dropped, swapped, numbers changed, types reshaped) and fed to MLIR's
//! parser and verifier with the Glow dialects loaded. Each mutant must parse and
//! verify or fail with diagnostics, never crash. `GLOW_FUZZ_CASES` sets the count.

use crate::context;
use melior::ir::{operation::OperationLike, Module};
use proptest::prelude::*;
use std::path::Path;

fn seeds() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lit-tests");
    let mut texts = Vec::new();
    for folder in [
        "glow-graph",
        "glow-quant",
        "glow-instr",
        "glow-lower-nodes",
        "glow-graph-optimize",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.path().extension().is_some_and(|e| e == "mlir") {
                let text = std::fs::read_to_string(entry.path()).expect("readable test file");
                // Each split is a separate module.
                texts.extend(text.split("// -----").map(str::to_string));
            }
        }
    }
    texts.sort();
    texts
}

/// Tokens: identifiers / numbers, or single punctuation characters; whitespace kept.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || c == '.' || c == '%' || c == '-' {
            current.push(c);
        } else {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            out.push(c.to_string());
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[derive(Clone, Debug)]
enum Edit {
    Drop(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Number(usize, i64),
    Replace(usize, usize),
}

const REPLACEMENTS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "9223372036854775807",
    "-9223372036854775808",
    "1.0e40",
    "nan",
    "tensor<?xf32>",
    "tensor<0x3xf32>",
    "tensor<f32>",
    "tensor<2xi1>",
    "memref<4xf32>",
    "i1",
    "f16",
    "ui8",
    "[]",
    "[0]",
    "[1, 1, 1, 1, 1]",
    "[-1, -1]",
    "{}",
    "dense<1.0>",
    "glow.graph.conv2d",
    "glow.graph.reshape",
    "glow.graph.concat",
    "glow.instr.tensorview",
    "glow.quant.rescale",
    "!quant.uniform<i8:f32:5, {0.1}>",
    "axis",
    "dim",
    "kernel",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<usize>(), -70i64..70).prop_map(|(a, n)| Edit::Number(a, n)),
        (any::<usize>(), 0..REPLACEMENTS.len()).prop_map(|(a, r)| Edit::Replace(a, r)),
    ]
}

fn apply(tokens: &mut Vec<String>, edit: &Edit) {
    if tokens.is_empty() {
        return;
    }
    let n = tokens.len();
    match *edit {
        Edit::Drop(i) => {
            tokens.remove(i % n);
        }
        Edit::Duplicate(i) => {
            let token = tokens[i % n].clone();
            tokens.insert(i % n, token);
        }
        Edit::Swap(a, b) => tokens.swap(a % n, b % n),
        Edit::Number(i, value) => {
            // Change the next number-like token at or after i.
            if let Some(j) = (0..n)
                .map(|k| (i + k) % n)
                .find(|j| tokens[*j].parse::<i64>().is_ok())
            {
                tokens[j] = value.to_string();
            }
        }
        Edit::Replace(i, r) => tokens[i % n] = REPLACEMENTS[r].to_string(),
    }
}

fn cases() -> u32 {
    std::env::var("GLOW_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_mlir_never_crashes(seed in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        let texts = seeds();
        let mut words = tokens(&texts[seed % texts.len()]);
        for e in &edits {
            apply(&mut words, e);
        }
        let text = words.concat();
        let context = context();
        // Diagnostics are expected; keep them off the test output.
        let quiet = context.attach_diagnostic_handler(|_| true);
        if let Some(module) = Module::parse(&context, &text) {
            let _ = module.as_operation().verify();
            let _ = module.as_operation().to_string();
        }
        context.detach_diagnostic_handler(quiet);
    }
}
