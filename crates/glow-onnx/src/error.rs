//! Import errors: each names the file, node (name and op type), input or tensor at
//! fault and says why, on one line: names and text that come from the model (or a
//! file name) have their control characters escaped, so a hostile name cannot break
//! the line.

use std::path::{Path, PathBuf};

/// `text` with control characters (newlines, escapes, NUL ...) escaped as `\n`,
/// `\u{1b}`: model-supplied text printed in one line.
pub fn printable(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

fn printable_path(path: &Path) -> String {
    printable(&path.display().to_string())
}

/// Why a model could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The model file (or an external-data file) cannot be read.
    #[error("cannot read '{}'", printable_path(.path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The bytes are not an ONNX model (truncated, corrupt, not protobuf).
    #[error("'{}' is not a valid ONNX model: {}", printable_path(.path), printable(.reason))]
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's message.
        reason: String,
    },
    /// A problem with the model as a whole (opset, missing graph, outputs).
    #[error("{}", printable(.0))]
    Model(String),
    /// A graph input cannot be given a static type.
    #[error("input '{}': {}", printable(.name), printable(.reason))]
    Input {
        /// The input's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A tensor (initializer, Constant value, attribute) is malformed.
    #[error("tensor '{}': {}", printable(.name), printable(.reason))]
    Tensor {
        /// The tensor's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A node cannot be converted.
    #[error("node '{}' ({}): {}", printable(.node), printable(.op_type), printable(.reason))]
    Node {
        /// The node's name (or its first output when unnamed).
        node: String,
        /// The ONNX op type.
        op_type: String,
        /// Why.
        reason: String,
    },
    /// The model uses ops the importer does not support (all of them are listed).
    #[error("unsupported ops: {}", printable(.0))]
    Unsupported(String),
}

/// Shorthand for importer results.
pub type Result<T> = std::result::Result<T, ImportError>;
