//! Mutation fuzzing of the ONNX reader and importer (proptest): seed models from
//! `corpus/` (small models of the lit tests and node suite) get bytes overwritten,
//! inserted, deleted, bit-flipped and truncated; loading and importing each mutant
//! must return Ok or an error, never panic or crash. `GLOW_FUZZ_CASES` sets the
//! number of mutants (default 300, bounded for CI).

use crate::context;
use glow_onnx::{import_model, load_model, unsupported_nodes, ImportOptions};
use proptest::prelude::*;
use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::atomic::{AtomicUsize, Ordering},
};

/// A seed file and the static shapes of its symbolic inputs.
type Seed = (&'static str, &'static [(&'static str, &'static [i64])]);

const SEEDS: &[Seed] = &[
    ("cnn.onnx", &[("x", &[1, 3, 16, 16])]),
    ("encoder.onnx", &[("ids", &[1, 8]), ("mask", &[1, 8])]),
    ("unsupported.onnx", &[]),
    ("shape-mismatch.onnx", &[]),
    ("bad-raw-data.onnx", &[]),
    ("slice.onnx", &[]),
    ("reduce_mean.onnx", &[]),
];

#[derive(Clone, Debug)]
enum Mutation {
    Overwrite(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    FlipBit(usize, u8),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Overwrite(p, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Insert(p, b)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), 0u8..8).prop_map(|(p, b)| Mutation::FlipBit(p, b)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    let at = |p: usize| p % bytes.len();
    match *mutation {
        Mutation::Overwrite(p, b) => {
            let i = at(p);
            bytes[i] = b;
        }
        Mutation::Insert(p, b) => {
            let i = at(p);
            bytes.insert(i, b);
        }
        Mutation::Delete(p) => {
            let i = at(p);
            bytes.remove(i);
        }
        Mutation::FlipBit(p, bit) => {
            let i = at(p);
            bytes[i] ^= 1 << bit;
        }
        Mutation::Truncate(p) => {
            let i = at(p);
            bytes.truncate(i);
        }
    }
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/corpus")
}

fn scratch_file() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let folder = std::env::temp_dir().join(format!("glow-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("temp dir is writable");
    folder.join(format!("case{}.onnx", NEXT.fetch_add(1, Ordering::Relaxed)))
}

fn cases() -> u32 {
    std::env::var("GLOW_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

#[test]
fn every_seed_imports_or_fails_cleanly() {
    let context = context();
    for (seed, shapes) in SEEDS {
        let options = ImportOptions {
            input_shapes: shapes
                .iter()
                .map(|(n, s)| (n.to_string(), s.to_vec()))
                .collect::<HashMap<_, _>>(),
            ..Default::default()
        };
        let outcome = import_model(&context, &corpus().join(seed), &options);
        // cnn and encoder import; the others are refused with a message (bad models, or
        // node-suite cases that feed shape parameters at run time).
        let expected_ok = matches!(*seed, "cnn.onnx" | "encoder.onnx");
        assert_eq!(
            outcome.is_ok(),
            expected_ok,
            "{seed}: {:?}",
            outcome.err().map(|e| e.to_string())
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_models_never_panic(seed in 0..SEEDS.len(), mutations in prop::collection::vec(mutation(), 1..8)) {
        let (name, shapes) = SEEDS[seed];
        let mut bytes = std::fs::read(corpus().join(name)).expect("seed exists");
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let path = scratch_file();
        std::fs::write(&path, &bytes).expect("temp file is writable");
        if let Ok(loaded) = load_model(&path) {
            let _ = unsupported_nodes(&loaded.model, true);
        }
        let context = context();
        let options = ImportOptions {
            input_shapes: shapes.iter().map(|(n, s)| (n.to_string(), s.to_vec())).collect(),
            ..Default::default()
        };
        // Ok or a one-line error; a panic fails the property, caught or not (a
        // caught one is a builder that was handed what it cannot build).
        let panics = glow_dialects::panics::caught_on_this_thread();
        let outcome = import_model(&context, &path, &options);
        if let Err(error) = &outcome {
            prop_assert!(!error.to_string().contains('\n'), "multi-line error: {error}");
        }
        prop_assert_eq!(
            glow_dialects::panics::caught_on_this_thread(),
            panics,
            "a panic was caught while importing: {:?}",
            outcome.err().map(|e| e.to_string())
        );
        let _ = std::fs::remove_file(&path);
    }
}
