//! Calibration sets for profiling: an `.npz` file (numpy's `savez`) mapping each model
//! input name to an array whose first axis counts samples; sample `s` is one complete
//! input (with a batch of 108 pinned, the array is S x 108 x ...). Every array must
//! hold the same number of samples, of the input's shape and element type.

use crate::{model::Port, tensor::HostTensor};
use anyhow::{bail, Context as _, Result};
use std::{collections::HashMap, io::Read, path::Path};

/// The largest array read from a calibration file (an `.npz` may declare anything).
const MAX_ARRAY_BYTES: u64 = 16 << 30;

/// A calibration set: per input, all its samples.
pub struct CalibrationSet {
    /// Number of samples.
    pub samples: usize,
    arrays: HashMap<String, HostTensor>,
}

impl CalibrationSet {
    /// Reads `path` and checks it against the model's inputs.
    pub fn read(path: &Path, inputs: &[Port]) -> Result<Self> {
        let file = std::fs::File::open(path)
            .with_context(|| format!("cannot read '{}'", path.display()))?;
        let mut archive = zip::ZipArchive::new(file)
            .with_context(|| format!("'{}' is not an .npz file", path.display()))?;
        let mut arrays = HashMap::new();
        let mut samples: Option<(usize, String)> = None;
        for port in inputs {
            let entry_name = format!("{}.npy", port.name);
            let mut entry = archive.by_name(&entry_name).map_err(|_| {
                let names: Vec<String> = archive_names(path);
                anyhow::anyhow!(
                    "calibration file '{}' has no array for input '{}' (arrays: {})",
                    path.display(),
                    port.name,
                    names.join(", ")
                )
            })?;
            if entry.size() > MAX_ARRAY_BYTES {
                bail!(
                    "calibration array '{}' is larger than {MAX_ARRAY_BYTES} bytes",
                    port.name
                );
            }
            let mut bytes = Vec::new();
            entry
                .by_ref()
                .take(MAX_ARRAY_BYTES)
                .read_to_end(&mut bytes)
                .with_context(|| format!("calibration array '{}' is corrupt", port.name))?;
            let label = format!("{}:{}", path.display(), entry_name);
            let tensor = HostTensor::from_npy_bytes(&bytes, &label)?;
            if tensor.dtype != port.dtype {
                bail!(
                    "calibration array '{}' holds {:?}, input '{}' is {:?}",
                    port.name,
                    tensor.dtype,
                    port.name,
                    port.dtype
                );
            }
            if tensor.shape.len() != port.shape.len() + 1 || tensor.shape[1..] != port.shape[..] {
                bail!(
                    "calibration array '{}' has shape {:?}; input '{}' needs samples x {:?}",
                    port.name,
                    tensor.shape,
                    port.name,
                    port.shape
                );
            }
            let count = tensor.shape[0] as usize;
            match &samples {
                Some((n, first)) if *n != count => bail!(
                    "calibration arrays disagree on the sample count: '{first}' has {n}, '{}' has {count}",
                    port.name
                ),
                None => samples = Some((count, port.name.clone())),
                _ => {}
            }
            arrays.insert(port.name.clone(), tensor);
        }
        let samples = samples.map_or(0, |(n, _)| n);
        if samples == 0 {
            bail!("calibration file '{}' holds no samples", path.display());
        }
        Ok(Self { samples, arrays })
    }

    /// Sample `index` of each input, in `inputs` order.
    pub fn sample(&self, index: usize, inputs: &[Port]) -> Vec<HostTensor> {
        inputs
            .iter()
            .map(|port| {
                let array = &self.arrays[&port.name];
                let size = port.shape.iter().product::<i64>() as usize * port.dtype.size();
                let bytes = &array.bytes()[index * size..(index + 1) * size];
                HostTensor::from_bytes(port.shape.clone(), port.dtype, bytes)
            })
            .collect()
    }
}

fn archive_names(path: &Path) -> Vec<String> {
    std::fs::File::open(path)
        .ok()
        .and_then(|f| zip::ZipArchive::new(f).ok())
        .map(|a| {
            a.file_names()
                .map(|n| n.trim_end_matches(".npy").to_string())
                .collect()
        })
        .unwrap_or_default()
}
