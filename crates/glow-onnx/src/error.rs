//! Import errors: each names the file, node (name and op type), input or tensor at
//! fault and says why, on one line.

use std::path::PathBuf;

/// Why a model could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The model file (or an external-data file) cannot be read.
    #[error("cannot read '{path}'")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The bytes are not an ONNX model (truncated, corrupt, not protobuf).
    #[error("'{path}' is not a valid ONNX model: {reason}")]
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's message.
        reason: String,
    },
    /// A problem with the model as a whole (opset, missing graph, outputs).
    #[error("{0}")]
    Model(String),
    /// A graph input cannot be given a static type.
    #[error("input '{name}': {reason}")]
    Input {
        /// The input's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A tensor (initializer, Constant value, attribute) is malformed.
    #[error("tensor '{name}': {reason}")]
    Tensor {
        /// The tensor's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A node cannot be converted.
    #[error("node '{node}' ({op_type}): {reason}")]
    Node {
        /// The node's name (or its first output when unnamed).
        node: String,
        /// The ONNX op type.
        op_type: String,
        /// Why.
        reason: String,
    },
    /// The model uses ops the importer does not support (all of them are listed).
    #[error("unsupported ops: {0}")]
    Unsupported(String),
}

/// Shorthand for importer results.
pub type Result<T> = std::result::Result<T, ImportError>;
