//! ONNX -> `glow.graph`: decodes a model with prost (ONNX's own schema compiled at
//! build time), infers static shapes through the whole graph, folds the exporters'
//! shape-computation chains (Shape -> Gather -> Concat -> Reshape) into constants, and
//! builds one verified `func.func` of `glow.graph` ops with the dialect's typed
//! builders. Weights larger than a few elements become `dense_resource` blobs.
#![deny(missing_docs)]

mod builder;
mod element;
mod error;
mod folding;
mod import;
mod load;
mod ops;
mod qoperator;
/// The ONNX protobuf messages, generated from `onnx.proto`.
#[allow(missing_docs, clippy::all)]
pub mod proto {
    include!(concat!(env!("OUT_DIR"), "/onnx.rs"));
}
mod signature;
mod tensor;

pub use element::Element;
pub use error::ImportError;
pub use import::{
    import_model, import_model_with_progress, parse_input_shape, tensor_bytes, ImportOptions,
    Progress, DEFAULT_MAX_TENSOR_BYTES,
};
pub use load::{load_model, LoadedModel, ModelMapping, SUPPORTED_OPSETS};
pub use ops::{is_supported, supported_ops, unsupported_nodes};
pub use signature::{signature, DeclaredDim, Port};
pub use tensor::TensorData;
