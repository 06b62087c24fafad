//! Reading and decoding a model file, and checking the opset it was exported with.

use crate::{
    error::{ImportError, Result},
    proto::ModelProto,
};
use prost::Message;
use std::{
    ops::RangeInclusive,
    path::{Path, PathBuf},
};

/// Default-domain opsets whose op semantics the importer implements.
///
/// Versions after 21 only widen the element types of the ops the importer handles,
/// so the newest opset of the pinned onnx wheel (28) is accepted; from 7 on ONNX
/// broadcasts like numpy, and the converters read the older attribute forms of Clip,
/// Pad, Slice, Squeeze/Unsqueeze and the reductions.
pub const SUPPORTED_OPSETS: RangeInclusive<i64> = 7..=28;

/// A decoded model, the folder its external data must come from, and its opset.
pub struct LoadedModel {
    /// The decoded protobuf.
    pub model: ModelProto,
    /// The model file's folder.
    pub directory: PathBuf,
    /// The default-domain (`ai.onnx`) opset version.
    pub opset: i64,
}

/// prost's message lists every enclosing field ("GraphProto.node: AttributeProto.g:
/// ..."), which for deeply nested input is thousands of characters: keep the outer
/// message, the innermost field and the reason.
fn short_decode_error(message: &str) -> String {
    let parts: Vec<&str> = message.split(": ").collect();
    match parts.as_slice() {
        [first, .., field, reason] if parts.len() > 4 => {
            format!(
                "{first}: {reason} (at {field}, {} fields deep)",
                parts.len() - 2
            )
        }
        _ => message.to_string(),
    }
}

/// The bytes of the file at `path`, memory-mapped (read, for files that cannot be
/// mapped: pipes, empty files): tensor data decoded from them stays in the mapping.
fn map_file(path: &Path) -> std::io::Result<bytes::Bytes> {
    let file = std::fs::File::open(path)?;
    let length = file.metadata()?.len();
    if length > 0 && file.metadata()?.is_file() {
        // SAFETY: a read-only private mapping; the importer only reads it. A file
        // truncated by another process while mapped would fault (SIGBUS), as with any
        // mapped input; glow does not write the models it reads.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            return Ok(bytes::Bytes::from_owner(map));
        }
    }
    let mut data = Vec::new();
    std::io::Read::read_to_end(&mut &file, &mut data)?;
    Ok(bytes::Bytes::from(data))
}

/// Reads and decodes `path`, checking the default-domain opset.
pub fn load_model(path: &Path) -> Result<LoadedModel> {
    let bytes = map_file(path).map_err(|source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let model = ModelProto::decode(bytes).map_err(|error| ImportError::Decode {
        path: path.to_path_buf(),
        reason: short_decode_error(&error.to_string()),
    })?;
    if model.graph.is_none() {
        return Err(ImportError::Decode {
            path: path.to_path_buf(),
            reason: "it has no graph".into(),
        });
    }
    let opset = model
        .opset_import
        .iter()
        .find(|o| o.domain().is_empty() || o.domain() == "ai.onnx")
        .map(|o| o.version())
        .ok_or_else(|| ImportError::Model("the model imports no ai.onnx opset".into()))?;
    if !SUPPORTED_OPSETS.contains(&opset) {
        return Err(ImportError::Model(format!(
            "unsupported opset {opset} (supported: {}-{})",
            SUPPORTED_OPSETS.start(),
            SUPPORTED_OPSETS.end()
        )));
    }
    let directory = path
        .parent()
        .map(Path::to_path_buf)
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."));
    Ok(LoadedModel {
        model,
        directory,
        opset,
    })
}
