//! Compiles ONNX's own schema (`onnx.proto`) to Rust with prost, parsing it with
//! protox (pure Rust: no system protoc). The schema comes from the `onnx` Python
//! wheel that scripts/bootstrap.sh pins into `.venv/` (the same version the
//! conformance suite uses); `GLOW_ONNX_PROTO` may point at another copy.

use std::{
    env, fs,
    path::{Path, PathBuf},
};

fn find_schema(root: &Path) -> Option<PathBuf> {
    if let Ok(path) = env::var("GLOW_ONNX_PROTO") {
        return Some(PathBuf::from(path));
    }
    let lib = root.join(".venv/lib");
    for entry in fs::read_dir(&lib).ok()?.flatten() {
        let candidate = entry.path().join("site-packages/onnx/onnx.proto");
        if candidate.is_file() {
            return Some(candidate);
        }
    }
    None
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../..");
    println!("cargo:rerun-if-env-changed=GLOW_ONNX_PROTO");
    let Some(schema) = find_schema(&root) else {
        panic!(
            "onnx.proto not found: run scripts/bootstrap.sh (it installs the pinned onnx \
             wheel into .venv/) or set GLOW_ONNX_PROTO to the schema file"
        );
    };
    println!("cargo:rerun-if-changed={}", schema.display());
    let include = schema.parent().expect("a file has a parent").to_path_buf();
    let descriptors = protox::compile([&schema], [&include]).expect("onnx.proto parses");
    // Tensor data stays a slice of the (memory-mapped) model file: no copy.
    prost_build::Config::new()
        .bytes([".onnx.TensorProto.raw_data"])
        .compile_fds(descriptors)
        .expect("prost generates the ONNX types");
}
