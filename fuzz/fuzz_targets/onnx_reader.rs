//! ONNX bytes through glow-import's reader (protobuf decoding, size / external-data
//! checks), the unsupported-op report and the importer: Ok or an error, never a
//! crash, panic, hang or out-of-bounds access.
#![no_main]

use glow_onnx::{import_model, load_model, unsupported_nodes, ImportOptions};
use libfuzzer_sys::fuzz_target;

glow_fuzz::libfuzzer_main!();
use std::path::PathBuf;
use std::sync::OnceLock;

/// The model file (in a private folder, so external data can only resolve inside it).
fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let folder = std::env::temp_dir().join(format!("glow-fuzz-onnx-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("temp dir is writable");
        folder.join("model.onnx")
    })
}

fuzz_target!(|data: &[u8]| {
    let path = scratch();
    std::fs::write(path, data).expect("temp file is writable");
    if let Ok(loaded) = load_model(path) {
        let _ = unsupported_nodes(&loaded.model, true);
        let context = glow_fuzz::context();
        let options = ImportOptions {
            // Small weights only: the cap is part of what is tested.
            max_weight_bytes: 1 << 20,
            ..Default::default()
        };
        let outcome = import_model(&context, path, &options);
        // A panic caught on the way to an error is a bug too.
        assert_eq!(
            glow_dialects::panics::caught(),
            0,
            "a panic was caught while importing: {:?}",
            outcome.err().map(|e| e.to_string())
        );
    }
});
