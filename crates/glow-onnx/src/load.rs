//! Reading and decoding a model file, and checking the opset it was exported with.

use crate::{
    error::{ImportError, Result},
    proto::ModelProto,
};
use prost::Message;
use std::{
    ops::RangeInclusive,
    path::{Path, PathBuf},
    sync::Arc,
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
    /// The model file's mapping, when it was mapped: tensor data copied out of it can
    /// give its pages back.
    pub mapping: Option<ModelMapping>,
}

/// The read-only mapping of a model file that decoded tensor data points into.
///
/// Tensor bytes are copied once, into the 64-byte aligned blobs MLIR needs; after
/// that their pages in the mapping only cost resident memory. [`ModelMapping::release`]
/// drops them from the process (the kernel reads them back from the file if anything
/// touches them again, so this never changes what a later read sees), which keeps the
/// importer's peak near one copy of the weights instead of two.
#[derive(Clone)]
pub struct ModelMapping(Arc<memmap2::Mmap>);

impl AsRef<[u8]> for ModelMapping {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl ModelMapping {
    /// Drops the whole pages of `bytes` from resident memory if `bytes` lies inside
    /// this mapping; does nothing for any other memory.
    pub fn release(&self, bytes: &[u8]) {
        let base = self.0.as_ptr() as usize;
        let start = bytes.as_ptr() as usize;
        if bytes.is_empty() || start < base || start + bytes.len() > base + self.0.len() {
            return;
        }
        let page = page_size();
        let first = (start - base).div_ceil(page) * page;
        let end = (start - base + bytes.len()) / page * page;
        if end > first {
            // SAFETY: the range is whole pages inside a private read-only file
            // mapping that nothing wrote to: MADV_DONTNEED only unmaps the pages and
            // the next access reads the same bytes from the file again. Failure only
            // leaves the pages resident.
            let _ = unsafe {
                self.0.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    first,
                    end - first,
                )
            };
        }
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(1)
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
fn map_file(path: &Path) -> std::io::Result<(bytes::Bytes, Option<ModelMapping>)> {
    let file = std::fs::File::open(path)?;
    let length = file.metadata()?.len();
    if length > 0 && file.metadata()?.is_file() {
        // SAFETY: a read-only private mapping; the importer only reads it. A file
        // truncated by another process while mapped would fault (SIGBUS), as with any
        // mapped input; glow does not write the models it reads.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            let mapping = ModelMapping(Arc::new(map));
            return Ok((bytes::Bytes::from_owner(mapping.clone()), Some(mapping)));
        }
    }
    let mut data = Vec::new();
    std::io::Read::read_to_end(&mut &file, &mut data)?;
    Ok((bytes::Bytes::from(data), None))
}

/// Reads and decodes `path`, checking the default-domain opset; onnxruntime's
/// QOperator ops come back in QDQ form ([`crate::qoperator`]).
pub fn load_model(path: &Path) -> Result<LoadedModel> {
    let (bytes, mapping) = map_file(path).map_err(|source| ImportError::Io {
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
    let mut model = model;
    crate::qoperator::rewrite_qoperator_graph(model.graph.as_mut().expect("checked above"), opset)?;
    let directory = path
        .parent()
        .map(Path::to_path_buf)
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."));
    Ok(LoadedModel {
        model,
        directory,
        opset,
        mapping,
    })
}
