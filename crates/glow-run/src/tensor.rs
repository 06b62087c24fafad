//! Host tensors: .npy reading (sizes checked against the file before allocating) and
//! writing, seeded random inputs, and MLIR memref descriptors.

use anyhow::{bail, Context, Result};
use std::path::Path;

/// Element types glow-run exchanges with the compiled function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// f32
    F32,
    /// i64
    I64,
    /// i32
    I32,
    /// f64
    F64,
    /// i8
    I8,
    /// bool (i1, one byte per element in memory and in .npy)
    Bool,
}

impl Dtype {
    /// From an MLIR element type's text.
    pub fn from_mlir(text: &str) -> Option<Self> {
        match text {
            "f32" => Some(Self::F32),
            "i64" => Some(Self::I64),
            "i32" => Some(Self::I32),
            "f64" => Some(Self::F64),
            "i8" => Some(Self::I8),
            "i1" => Some(Self::Bool),
            _ => None,
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Self::F32 | Self::I32 => 4,
            Self::I64 | Self::F64 => 8,
            Self::I8 | Self::Bool => 1,
        }
    }
}

/// A host tensor: shape, element type and little-endian bytes (8-byte aligned storage).
pub struct HostTensor {
    /// Dimensions.
    pub shape: Vec<i64>,
    /// Element type.
    pub dtype: Dtype,
    /// Storage, as u64 words so the data is 8-byte aligned.
    pub words: Vec<u64>,
}

impl HostTensor {
    /// A tensor from raw bytes.
    pub fn from_bytes(shape: Vec<i64>, dtype: Dtype, bytes: &[u8]) -> Self {
        let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)];
        // SAFETY: `words` holds at least `bytes.len()` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                words.as_mut_ptr().cast::<u8>(),
                bytes.len(),
            )
        };
        Self {
            shape,
            dtype,
            words,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product::<i64>() as usize
    }

    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The data as bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the words hold at least len * size initialized bytes.
        unsafe {
            std::slice::from_raw_parts(
                self.words.as_ptr().cast::<u8>(),
                self.len() * self.dtype.size(),
            )
        }
    }

    /// Values as f64 (for checksums and printing).
    pub fn values(&self) -> Vec<f64> {
        let bytes = self.bytes();
        let word = |c: &[u8]| -> [u8; 8] {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            w
        };
        bytes
            .chunks_exact(self.dtype.size())
            .map(|c| match self.dtype {
                Dtype::F32 => f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64,
                Dtype::I32 => i32::from_le_bytes(c.try_into().expect("4 bytes")) as f64,
                Dtype::I64 => i64::from_le_bytes(word(c)) as f64,
                Dtype::F64 => f64::from_le_bytes(word(c)),
                Dtype::I8 => c[0] as i8 as f64,
                Dtype::Bool => f64::from(c[0] != 0),
            })
            .collect()
    }

    /// Seeded pseudo-random data: floats uniform in [-1, 1), integers in [0, 2).
    pub fn random(shape: Vec<i64>, dtype: Dtype, seed: u64) -> Self {
        let count = shape.iter().product::<i64>() as usize;
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        let mut bytes = Vec::with_capacity(count * dtype.size());
        for _ in 0..count {
            let r = next();
            match dtype {
                Dtype::F32 => bytes.extend_from_slice(
                    &(((r >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0).to_le_bytes(),
                ),
                Dtype::I32 => bytes.extend_from_slice(&((r >> 63) as i32).to_le_bytes()),
                Dtype::I64 => bytes.extend_from_slice(&((r >> 63) as i64).to_le_bytes()),
                Dtype::F64 => bytes.extend_from_slice(
                    &(((r >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0).to_le_bytes(),
                ),
                Dtype::I8 | Dtype::Bool => bytes.push((r >> 63) as u8),
            }
        }
        Self::from_bytes(shape, dtype, &bytes)
    }

    /// Reads a C-order .npy file, checking its declared size against the file first.
    pub fn read_npy(path: &Path) -> Result<Self> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read '{}'", path.display()))?;
        let file = npyz::NpyFile::new(bytes.as_slice())
            .with_context(|| format!("'{}' is not a valid .npy file", path.display()))?;
        let shape: Vec<i64> = file.shape().iter().map(|d| *d as i64).collect();
        let descr = file.dtype().descr();
        let dtype = match descr.trim_matches('\'') {
            "<f4" => Dtype::F32,
            "<i8" => Dtype::I64,
            "<i4" => Dtype::I32,
            other => bail!(
                "'{}' holds {other} data (supported: <f4, <i8, <i4)",
                path.display()
            ),
        };
        if file.order() != npyz::Order::C {
            bail!(
                "'{}' is in Fortran order (only C order is supported)",
                path.display()
            );
        }
        let count = file
            .shape()
            .iter()
            .try_fold(1u64, |acc, d| acc.checked_mul(*d))
            .with_context(|| {
                format!("'{}' declares a shape whose size overflows", path.display())
            })?;
        let needed = count
            .checked_mul(dtype.size() as u64)
            .context("size overflows")?;
        if needed > bytes.len() as u64 {
            bail!(
                "'{}' declares shape {:?} ({} bytes) but the file has only {} bytes",
                path.display(),
                shape,
                needed,
                bytes.len()
            );
        }
        let fail = |e: std::io::Error| {
            anyhow::anyhow!("'{}' is truncated or corrupt: {e}", path.display())
        };
        let data: Vec<u8> = match dtype {
            Dtype::F32 => le_bytes(file.into_vec::<f32>().map_err(fail)?, f32::to_le_bytes),
            Dtype::I64 => le_bytes(file.into_vec::<i64>().map_err(fail)?, i64::to_le_bytes),
            Dtype::I32 => le_bytes(file.into_vec::<i32>().map_err(fail)?, i32::to_le_bytes),
            Dtype::F64 => le_bytes(file.into_vec::<f64>().map_err(fail)?, f64::to_le_bytes),
            Dtype::I8 => le_bytes(file.into_vec::<i8>().map_err(fail)?, i8::to_le_bytes),
            Dtype::Bool => le_bytes(file.into_vec::<bool>().map_err(fail)?, |b| [u8::from(b)]),
        };
        if data.len() as u64 != needed {
            bail!(
                "'{}' holds {} bytes of data, its shape needs {needed}",
                path.display(),
                data.len()
            );
        }
        Ok(Self::from_bytes(shape, dtype, &data))
    }

    /// Writes a C-order .npy file.
    pub fn write_npy(&self, path: &Path) -> Result<()> {
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
        let out = std::io::BufWriter::new(file);
        let dims: Vec<u64> = self.shape.iter().map(|d| *d as u64).collect();
        let values = self.values();
        match self.dtype {
            Dtype::F32 => write_typed(out, &dims, values.iter().map(|v| *v as f32)),
            Dtype::F64 => write_typed(out, &dims, values.iter().copied()),
            // Exact for every i64 (f64 would round past 2^53).
            Dtype::I64 => write_typed(
                out,
                &dims,
                self.bytes()
                    .chunks_exact(8)
                    .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes"))),
            ),
            Dtype::I32 => write_typed(out, &dims, values.iter().map(|v| *v as i32)),
            Dtype::I8 => write_typed(out, &dims, values.iter().map(|v| *v as i8)),
            Dtype::Bool => write_typed(out, &dims, values.iter().map(|v| *v != 0.0)),
        }
        .with_context(|| format!("cannot write '{}'", path.display()))
    }
}

/// Little-endian bytes of `values`.
fn le_bytes<T: Copy, const N: usize>(values: Vec<T>, bytes: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.into_iter().flat_map(bytes).collect()
}

/// Writes `values` as an .npy array of `dims`.
fn write_typed<T: npyz::AutoSerialize>(
    out: impl std::io::Write,
    dims: &[u64],
    values: impl Iterator<Item = T>,
) -> std::io::Result<()> {
    use npyz::WriterBuilder;
    let mut writer = npyz::WriteOptions::<T>::new()
        .default_dtype()
        .shape(dims)
        .writer(out)
        .begin_nd()?;
    writer.extend(values)?;
    writer.finish()
}

/// An MLIR strided memref descriptor of rank N: {allocated, aligned, offset, sizes[N],
/// strides[N]}, as i64 words.
pub fn descriptor(pointer: *mut u8, shape: &[i64]) -> Vec<i64> {
    let rank = shape.len();
    let mut strides = vec![1i64; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    let mut words = vec![pointer as i64, pointer as i64, 0];
    words.extend_from_slice(shape);
    words.extend_from_slice(&strides);
    words
}
