//! Constant data for `--freeze-input NAME=FILE`: an ONNX TensorProto (`.pb`, as the node
//! suite writes them) or a numpy array (`.npy`, told by its magic bytes), read with the
//! same checks as run-time inputs.

use crate::tensor::{Dtype, HostTensor};
use anyhow::{Context, Result};
use glow_onnx::{Element, TensorData};
use std::{io::Read, path::Path};

/// The tensor in `path` (.pb or .npy: a `.npy` name or the magic bytes).
pub fn read_frozen(path: &Path) -> Result<TensorData> {
    let mut magic = [0u8; 6];
    let is_npy = path.extension().is_some_and(|e| e == "npy")
        || (std::fs::File::open(path)
            .and_then(|mut file| file.read_exact(&mut magic))
            .is_ok()
            && &magic == b"\x93NUMPY");
    if !is_npy {
        return Ok(TensorData::read_file(path)?);
    }
    let tensor = HostTensor::read_npy(path)?;
    let element = match tensor.dtype {
        Dtype::F32 => Element::F32,
        Dtype::F64 => Element::F64,
        Dtype::F16 => Element::F16,
        Dtype::BF16 => Element::BF16,
        Dtype::I64 => Element::I64,
        Dtype::I32 => Element::I32,
        Dtype::I16 => Element::I16,
        Dtype::I8 => Element::I8,
        Dtype::U64 => Element::U64,
        Dtype::U32 => Element::U32,
        Dtype::U16 => Element::U16,
        Dtype::U8 => Element::U8,
        Dtype::Bool => Element::Bool,
    };
    TensorData::from_raw(element, tensor.shape.clone(), tensor.bytes().to_vec())
        .with_context(|| format!("'{}': its data does not match its shape", path.display()))
}

/// `NAME=FILE` of a --freeze-input flag, read.
pub fn parse_frozen(text: &str) -> Result<(String, TensorData)> {
    let (name, path) = text
        .split_once('=')
        .with_context(|| format!("--freeze-input '{text}' is not NAME=FILE (.pb or .npy)"))?;
    Ok((name.to_string(), read_frozen(Path::new(path))?))
}
