//! The runners' shared parts: loading a model (ONNX or `.mlir`) and its ports
//! ([`model`]), host tensors with `.npy` I/O ([`tensor`]), calibration sets
//! ([`calibration`]) and the runtime recorder of quantization profiles
//! ([`profiling`]), the compiled code's heap ([`allocation`]).

pub mod allocation;
pub mod calibration;
pub mod model;
pub mod options;
pub mod output;
pub mod profiling;
pub mod report;
pub mod runner;
pub mod tensor;
