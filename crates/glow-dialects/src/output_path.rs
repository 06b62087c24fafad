//! Whether a tool may write an output file through a temporary file renamed over it.
//!
//! The tools write outputs beside their target and rename them into place, so a
//! failure leaves no partial file. A rename *replaces* what the path names, though:
//! run as root, `glow-import model.onnx -o /dev/null` replaced the null device with a
//! regular file (every later reader of /dev/null then read what others had discarded
//! into it). Targets that are not regular files (devices, FIFOs, sockets) are written
//! in place instead; a partial write into them is the reader's to handle, as for
//! standard output.

use std::path::Path;

/// Whether writing `path` through a temporary file renamed over it is right: the path
/// does not exist yet or names a regular file (or a link to one).
pub fn renames_into_place(path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(metadata) => metadata.is_file(),
        Err(_) => true,
    }
}
