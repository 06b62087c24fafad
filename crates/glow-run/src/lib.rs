//! The runners' shared parts: loading a model (ONNX or `.mlir`) and its ports
//! ([`model`]), and host tensors with `.npy` I/O ([`tensor`]).

pub mod model;
pub mod tensor;
