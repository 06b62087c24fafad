//! Host tensors: .npy reading (sizes checked against the file before allocating) and
//! writing, seeded random inputs, and MLIR memref descriptors.

use anyhow::{bail, Context, Result};
use std::path::Path;

/// One element type glow-run exchanges: its Rust type and how it reads from bytes.
trait Element: Copy + npyz::Deserialize + npyz::AutoSerialize {
    const SIZE: usize;
    fn read_le(bytes: &[u8]) -> Self;
    fn write_le(self) -> Vec<u8>;
    fn to_f64(self) -> f64;
}

macro_rules! numeric_elements {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn read_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("element size"))
            }
            fn write_le(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
numeric_elements!(f32, f64, i64, i32, i16, i8, u8, u16, u32, u64);

impl Element for half::f16 {
    const SIZE: usize = 2;
    fn read_le(bytes: &[u8]) -> Self {
        half::f16::from_le_bytes(bytes.try_into().expect("element size"))
    }
    fn write_le(self) -> Vec<u8> {
        self.to_le_bytes().to_vec()
    }
    fn to_f64(self) -> f64 {
        self.to_f64()
    }
}

impl Element for bool {
    const SIZE: usize = 1;
    fn read_le(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
    fn write_le(self) -> Vec<u8> {
        vec![u8::from(self)]
    }
    fn to_f64(self) -> f64 {
        f64::from(u8::from(self))
    }
}

/// bfloat16, which numpy lacks: .npy files carry it as 2-byte raw data (`<V2` / `|V2`,
/// what numpy writes for `ml_dtypes.bfloat16` arrays). The bits are an f32's upper half.
#[derive(Clone, Copy)]
struct Bf16([u8; 2]);

struct Bf16Reader;

impl npyz::TypeRead for Bf16Reader {
    type Value = Bf16;
    fn read_one<R: std::io::Read>(&self, mut bytes: R) -> std::io::Result<Bf16> {
        let mut value = [0; 2];
        bytes.read_exact(&mut value)?;
        Ok(Bf16(value))
    }
}

impl npyz::Deserialize for Bf16 {
    type TypeReader = Bf16Reader;
    fn reader(dtype: &npyz::DType) -> Result<Bf16Reader, npyz::DTypeError> {
        <npyz::FixedSizeBytes<2> as npyz::Deserialize>::reader(dtype).map(|_| Bf16Reader)
    }
}

struct Bf16Writer;

impl npyz::TypeWrite for Bf16Writer {
    type Value = Bf16;
    fn write_one<W: std::io::Write>(&self, mut writer: W, value: &Bf16) -> std::io::Result<()> {
        writer.write_all(&value.0)
    }
}

impl npyz::Serialize for Bf16 {
    type TypeWriter = Bf16Writer;
    fn writer(dtype: &npyz::DType) -> Result<Bf16Writer, npyz::DTypeError> {
        <npyz::FixedSizeBytes<2> as npyz::Serialize>::writer(dtype).map(|_| Bf16Writer)
    }
}

impl npyz::AutoSerialize for Bf16 {
    fn default_dtype() -> npyz::DType {
        npyz::DType::Plain("|V2".parse().expect("a valid type string"))
    }
}

impl Element for Bf16 {
    const SIZE: usize = 2;
    fn read_le(bytes: &[u8]) -> Self {
        Bf16(bytes.try_into().expect("element size"))
    }
    fn write_le(self) -> Vec<u8> {
        self.0.to_vec()
    }
    fn to_f64(self) -> f64 {
        f64::from(f32::from_bits(u32::from(u16::from_le_bytes(self.0)) << 16))
    }
}

/// The element types, as (variant, Rust type, MLIR type, .npy descr, C type).
macro_rules! dtypes {
    ($(($variant:ident, $rust:ty, $mlir:literal, $npy:literal, $c:literal)),* $(,)?) => {
        /// Element types glow-run exchanges with the compiled function.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Dtype {
            $(
                #[doc = concat!("MLIR `", $mlir, "`, .npy `", $npy, "`")]
                $variant,
            )*
        }

        impl Dtype {
            /// Every element type, for messages.
            pub const MLIR_NAMES: &'static str = concat!($($mlir, " "),*);

            /// From an MLIR element type's text.
            pub fn from_mlir(text: &str) -> Option<Self> {
                match text {
                    $($mlir => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// The MLIR name of the element type (`f32`, `ui8`, `i1`, ...).
            pub fn mlir_name(self) -> &'static str {
                match self {
                    $(Self::$variant => $mlir,)*
                }
            }

            /// The .npy dtype descriptor (`<f4`, `|u1`; bf16 is the raw `|V2`).
            pub fn npy_descr(self) -> &'static str {
                match self {
                    $(Self::$variant => $npy,)*
                }
            }

            /// From an .npy dtype descriptor (little-endian or byte-sized).
            fn from_npy(descr: &str) -> Option<Self> {
                match descr {
                    $($npy => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// Bytes per element.
            pub fn size(self) -> usize {
                match self {
                    $(Self::$variant => <$rust as Element>::SIZE,)*
                }
            }

            /// The C type of one element, for bundle headers.
            pub fn c_type(self) -> &'static str {
                match self {
                    $(Self::$variant => $c,)*
                }
            }

            /// `bytes` (one element) as f64.
            fn value(self, bytes: &[u8]) -> f64 {
                match self {
                    $(Self::$variant => <$rust as Element>::read_le(bytes).to_f64(),)*
                }
            }

            /// The elements of an .npy file as little-endian bytes.
            fn npy_bytes(self, file: npyz::NpyFile<&[u8]>) -> std::io::Result<Vec<u8>> {
                match self {
                    $(Self::$variant => Ok(file
                        .into_vec::<$rust>()?
                        .into_iter()
                        .flat_map(Element::write_le)
                        .collect()),)*
                }
            }

            /// Writes little-endian `bytes` as an .npy array of `dims`.
            fn write_npy(
                self,
                out: impl std::io::Write,
                dims: &[u64],
                bytes: &[u8],
            ) -> std::io::Result<()> {
                match self {
                    $(Self::$variant => write_typed(
                        out,
                        dims,
                        bytes.chunks_exact(self.size()).map(<$rust as Element>::read_le),
                    ),)*
                }
            }
        }
    };
}

dtypes!(
    (F32, f32, "f32", "<f4", "float"),
    (F64, f64, "f64", "<f8", "double"),
    (F16, half::f16, "f16", "<f2", "_Float16"),
    (BF16, Bf16, "bf16", "|V2", "uint16_t"),
    (I64, i64, "i64", "<i8", "int64_t"),
    (I32, i32, "i32", "<i4", "int32_t"),
    (I16, i16, "i16", "<i2", "int16_t"),
    (I8, i8, "i8", "|i1", "int8_t"),
    (U64, u64, "ui64", "<u8", "uint64_t"),
    (U32, u32, "ui32", "<u4", "uint32_t"),
    (U16, u16, "ui16", "<u2", "uint16_t"),
    (U8, u8, "ui8", "|u1", "uint8_t"),
    (Bool, bool, "i1", "|b1", "bool"),
);

/// A host tensor: shape, element type and little-endian bytes (8-byte aligned storage).
#[derive(Clone, Debug)]
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
        self.bytes()
            .chunks_exact(self.dtype.size())
            .map(|c| self.dtype.value(c))
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
                Dtype::F16 => bytes.extend_from_slice(
                    &half::f16::from_f32(((r >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0)
                        .to_le_bytes(),
                ),
                Dtype::BF16 => {
                    let value = ((r >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
                    bytes.extend_from_slice(&((value.to_bits() >> 16) as u16).to_le_bytes())
                }
                Dtype::F32 => bytes.extend_from_slice(
                    &(((r >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0).to_le_bytes(),
                ),
                Dtype::F64 => bytes.extend_from_slice(
                    &(((r >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0).to_le_bytes(),
                ),
                // Integers and bools: 0 or 1, little-endian.
                _ => {
                    bytes.push((r >> 63) as u8);
                    bytes.extend(std::iter::repeat_n(0, dtype.size() - 1));
                }
            }
        }
        Self::from_bytes(shape, dtype, &bytes)
    }

    /// Reads a C-order .npy file, checking its declared size against the file first.
    pub fn read_npy(path: &Path) -> Result<Self> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read '{}'", path.display()))?;
        Self::from_npy_bytes(&bytes, &path.display().to_string())
    }

    /// Parses the bytes of an .npy file (`name` labels the errors), checking the
    /// declared size against the bytes present before allocating.
    pub fn from_npy_bytes(bytes: &[u8], name: &str) -> Result<Self> {
        check_npy_header(bytes).with_context(|| format!("'{name}' is not a valid .npy file"))?;
        let file = npyz::NpyFile::new(bytes)
            .with_context(|| format!("'{}' is not a valid .npy file", name))?;
        let shape: Vec<i64> = file.shape().iter().map(|d| *d as i64).collect();
        let descr = file.dtype().descr();
        // 2-byte raw data is bf16 whichever byte-order mark it carries.
        let descr_text = descr.trim_matches('\'').replace("<V2", "|V2");
        let dtype = Dtype::from_npy(&descr_text).with_context(|| {
            format!(
                "'{}' holds {descr} data (supported: little-endian f16, f32, f64, bool, 8- to 64-bit signed and unsigned integers, and bf16 as 2-byte raw data)",
                name
            )
        })?;
        if file.order() != npyz::Order::C {
            bail!("'{}' is in Fortran order (only C order is supported)", name);
        }
        let count = file
            .shape()
            .iter()
            .try_fold(1u64, |acc, d| acc.checked_mul(*d))
            .with_context(|| format!("'{}' declares a shape whose size overflows", name))?;
        let needed = count
            .checked_mul(dtype.size() as u64)
            .context("size overflows")?;
        if needed > bytes.len() as u64 {
            bail!(
                "'{}' declares shape {:?} ({} bytes) but the file has only {} bytes",
                name,
                shape,
                needed,
                bytes.len()
            );
        }
        let fail = |e: std::io::Error| anyhow::anyhow!("'{}' is truncated or corrupt: {e}", name);
        let data = dtype.npy_bytes(file).map_err(fail)?;
        if data.len() as u64 != needed {
            bail!(
                "'{}' holds {} bytes of data, its shape needs {needed}",
                name,
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
        self.dtype
            .write_npy(out, &dims, self.bytes())
            .with_context(|| format!("cannot write '{}'", path.display()))
    }
}

/// Checks the .npy header's framing and shape before npyz parses it: the magic, a
/// version of 1-3, a header length inside the file, and a header that is a flat dict
/// (one level of braces, at most one shape tuple, the characters a simple dtype,
/// order and shape use). npyz's literal parser backtracks exponentially on nested
/// brackets (found by fuzzing: 13 nested braces took over 30 s).
fn check_npy_header(bytes: &[u8]) -> Result<()> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        bail!("no .npy magic");
    }
    let (length, start): (usize, usize) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        version => bail!("unsupported .npy version {version}"),
    };
    let header = bytes
        .get(start..start.saturating_add(length))
        .context("the header is longer than the file")?;
    let count = |c: u8| header.iter().filter(|b| **b == c).count();
    let allowed = |b: &u8| b.is_ascii_alphanumeric() || b" _'\"<>|=:,(){}.-\n\t".contains(b);
    if !header.iter().all(allowed)
        || count(b'{') != 1
        || count(b'}') != 1
        || count(b'(') > 1
        || count(b')') > 1
    {
        bail!("the header is not a flat dict of a simple dtype, order and shape");
    }
    // No product of the shape's dimensions may overflow: npyz multiplies them unchecked,
    // for the element count and for the strides (which skip a zero dimension that
    // makes the count 0: shape (0, 2^62, 6) has strides overflowing).
    let text = String::from_utf8_lossy(header);
    if let (Some(open), Some(close)) = (text.find('('), text.find(')')) {
        let dims = text.get(open + 1..close).unwrap_or("");
        let mut nonzero: u64 = 1;
        for dim in dims.split(',').map(str::trim).filter(|d| !d.is_empty()) {
            let dim: u64 = dim
                .parse()
                .with_context(|| format!("shape dimension '{dim}' is not a size"))?;
            nonzero = nonzero
                .checked_mul(dim.max(1))
                .context("the shape's element count overflows")?;
        }
        if nonzero.checked_mul(8).is_none() {
            bail!("the shape's byte size overflows");
        }
    }
    Ok(())
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
