//! ONNX tensors as little-endian bytes with checked sizes. Every declared size (dims,
//! raw_data length, typed-field counts, external offsets and lengths) is checked
//! against the bytes actually present and against overflow before anything is
//! allocated; external data must lie inside the model's folder.

use crate::{
    element::Element,
    error::{ImportError, Result},
    proto::{tensor_proto::DataLocation, TensorProto},
};
use bytes::Bytes;
use std::{
    fs::File,
    io::{Read, Seek, SeekFrom},
    path::{Component, Path},
};

/// A tensor's element type, shape and raw little-endian data.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorData {
    /// Element type.
    pub element: Element,
    /// Dimensions (all >= 0).
    pub dims: Vec<i64>,
    /// `element.size()` bytes per element, row-major, little-endian (bool: 0 or 1);
    /// a model's initializers share the memory-mapped model file (no copy).
    pub bytes: Bytes,
}

/// The number of elements of `dims`, or why it has none.
pub fn element_count(dims: &[i64]) -> std::result::Result<usize, String> {
    let mut count: usize = 1;
    for &d in dims {
        if d < 0 {
            return Err(format!("negative dimension {d} in {dims:?}"));
        }
        count = count
            .checked_mul(d as usize)
            .ok_or_else(|| format!("dimensions {dims:?} overflow"))?;
    }
    i64::try_from(count).map_err(|_| format!("dimensions {dims:?} overflow"))?;
    Ok(count)
}

impl TensorData {
    /// Decodes `proto`; external data is read from files inside `model_dir`.
    pub fn from_proto(proto: &TensorProto, model_dir: &Path) -> Result<Self> {
        let name = proto.name().to_string();
        let fail = |reason: String| ImportError::Tensor {
            name: name.clone(),
            reason,
        };
        let element = Element::from_onnx(proto.data_type()).ok_or_else(|| {
            fail(format!(
                "unsupported element type {}",
                Element::onnx_name(proto.data_type())
            ))
        })?;
        let count = element_count(&proto.dims).map_err(&fail)?;
        let expected = count
            .checked_mul(element.size())
            .ok_or_else(|| fail(format!("{count} elements overflow")))?;

        let bytes = if proto.data_location() == DataLocation::External {
            read_external(proto, model_dir, expected)
                .map_err(&fail)?
                .into()
        } else if proto.raw_data.is_some() {
            let raw = proto.raw_data();
            if raw.len() != expected {
                return Err(fail(format!(
                    "raw_data holds {} bytes but dims {:?} of {:?} need {expected}",
                    raw.len(),
                    proto.dims,
                    element
                )));
            }
            proto.raw_data.clone().unwrap_or_default()
        } else {
            typed_fields(proto, element, count).map_err(&fail)?.into()
        };
        Ok(Self {
            element,
            dims: proto.dims.clone(),
            bytes,
        })
    }

    /// Reads a serialized ONNX TensorProto file (a test-data `.pb`).
    pub fn read_file(path: &Path) -> Result<Self> {
        use prost::Message;
        let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let proto =
            TensorProto::decode(Bytes::from(bytes)).map_err(|error| ImportError::Decode {
                path: path.to_path_buf(),
                reason: format!("not an ONNX TensorProto: {error}"),
            })?;
        Self::from_proto(&proto, path.parent().unwrap_or(Path::new(".")))
    }

    /// A tensor of `element` from its little-endian bytes (`element.size()` per element,
    /// row-major; a boolean is one byte, read as true when not zero). `None` when the
    /// byte count does not match the shape.
    pub fn from_raw(element: Element, dims: Vec<i64>, raw: Vec<u8>) -> Option<Self> {
        let count = dims
            .iter()
            .try_fold(1usize, |n, d| n.checked_mul(usize::try_from(*d).ok()?))?;
        if count.checked_mul(element.size())? != raw.len() {
            return None;
        }
        let raw = if element == Element::Bool {
            raw.into_iter().map(|b| u8::from(b != 0)).collect()
        } else {
            raw
        };
        Some(Self {
            element,
            dims,
            bytes: Bytes::from(raw),
        })
    }

    /// A tensor from integer values (stored as `element`).
    pub fn from_i64s(element: Element, dims: Vec<i64>, values: &[i64]) -> Self {
        let mut bytes = Vec::with_capacity(values.len() * element.size());
        for &v in values {
            match element {
                Element::I64 => bytes.extend_from_slice(&v.to_le_bytes()),
                Element::I32 => bytes.extend_from_slice(&(v as i32).to_le_bytes()),
                Element::I16 | Element::U16 => bytes.extend_from_slice(&(v as i16).to_le_bytes()),
                Element::U32 => bytes.extend_from_slice(&(v as u32).to_le_bytes()),
                Element::U64 => bytes.extend_from_slice(&(v as u64).to_le_bytes()),
                Element::I8 | Element::U8 => bytes.push(v as u8),
                Element::Bool => bytes.push(u8::from(v != 0)),
                Element::F32 => bytes.extend_from_slice(&(v as f32).to_le_bytes()),
                Element::F64 => bytes.extend_from_slice(&(v as f64).to_le_bytes()),
                Element::F16 | Element::BF16 => {
                    bytes.extend_from_slice(&half_bits(element, v as f64).to_le_bytes())
                }
            }
        }
        Self {
            element,
            dims,
            bytes: bytes.into(),
        }
    }

    /// A tensor from float values (stored as `element`).
    pub fn from_f64s(element: Element, dims: Vec<i64>, values: &[f64]) -> Self {
        if !element.is_float() {
            let ints: Vec<i64> = values.iter().map(|v| *v as i64).collect();
            return Self::from_i64s(element, dims, &ints);
        }
        let mut bytes = Vec::with_capacity(values.len() * element.size());
        for &v in values {
            match element {
                Element::F32 => bytes.extend_from_slice(&(v as f32).to_le_bytes()),
                Element::F64 => bytes.extend_from_slice(&v.to_le_bytes()),
                _ => bytes.extend_from_slice(&half_bits(element, v).to_le_bytes()),
            }
        }
        Self {
            element,
            dims,
            bytes: bytes.into(),
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.element.size()
    }

    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The values as i64 (floats truncated toward zero).
    pub fn to_i64s(&self) -> Vec<i64> {
        if self.element.is_float() {
            return self.to_f64s().iter().map(|v| *v as i64).collect();
        }
        let size = self.element.size();
        self.bytes
            .chunks_exact(size)
            .map(|c| match self.element {
                Element::I64 => i64::from_le_bytes(c.try_into().expect("8 bytes")),
                Element::I32 => i32::from_le_bytes(c.try_into().expect("4 bytes")) as i64,
                Element::I16 => i16::from_le_bytes(c.try_into().expect("2 bytes")) as i64,
                Element::U16 => u16::from_le_bytes(c.try_into().expect("2 bytes")) as i64,
                Element::U32 => u32::from_le_bytes(c.try_into().expect("4 bytes")) as i64,
                Element::U64 => u64::from_le_bytes(c.try_into().expect("8 bytes")) as i64,
                Element::I8 => c[0] as i8 as i64,
                Element::U8 | Element::Bool => c[0] as i64,
                _ => unreachable!("float handled above"),
            })
            .collect()
    }

    /// The values as f64.
    pub fn to_f64s(&self) -> Vec<f64> {
        if !self.element.is_float() {
            return self.to_i64s().iter().map(|v| *v as f64).collect();
        }
        let size = self.element.size();
        self.bytes
            .chunks_exact(size)
            .map(|c| match self.element {
                Element::F32 => f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64,
                Element::F64 => f64::from_le_bytes(c.try_into().expect("8 bytes")),
                Element::F16 => f16_to_f64(u16::from_le_bytes([c[0], c[1]])),
                Element::BF16 => {
                    f32::from_bits((u16::from_le_bytes([c[0], c[1]]) as u32) << 16) as f64
                }
                _ => unreachable!("integers handled above"),
            })
            .collect()
    }
}

fn typed_fields(
    proto: &TensorProto,
    element: Element,
    count: usize,
) -> std::result::Result<Vec<u8>, String> {
    let check = |have: usize, field: &str| {
        if have == count {
            Ok(())
        } else {
            Err(format!(
                "{field} holds {have} values but dims {:?} need {count}",
                proto.dims
            ))
        }
    };
    let mut bytes = Vec::with_capacity(count * element.size());
    match element {
        Element::F32 => {
            check(proto.float_data.len(), "float_data")?;
            proto
                .float_data
                .iter()
                .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
        }
        Element::F64 => {
            check(proto.double_data.len(), "double_data")?;
            proto
                .double_data
                .iter()
                .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
        }
        Element::I64 => {
            check(proto.int64_data.len(), "int64_data")?;
            proto
                .int64_data
                .iter()
                .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
        }
        Element::I32 => {
            check(proto.int32_data.len(), "int32_data")?;
            proto
                .int32_data
                .iter()
                .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
        }
        // ONNX stores these in int32_data, one value (or bit pattern) per entry.
        Element::I16 | Element::U16 | Element::F16 | Element::BF16 => {
            check(proto.int32_data.len(), "int32_data")?;
            proto
                .int32_data
                .iter()
                .for_each(|v| bytes.extend_from_slice(&(*v as u16).to_le_bytes()));
        }
        Element::U32 | Element::U64 => {
            check(proto.uint64_data.len(), "uint64_data")?;
            for v in &proto.uint64_data {
                if element == Element::U32 {
                    bytes.extend_from_slice(&(*v as u32).to_le_bytes());
                } else {
                    bytes.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        Element::I8 | Element::U8 | Element::Bool => {
            check(proto.int32_data.len(), "int32_data")?;
            proto.int32_data.iter().for_each(|v| bytes.push(*v as u8));
        }
    }
    Ok(bytes)
}

/// Reads `expected` bytes of external data, confined to `model_dir`.
fn read_external(
    proto: &TensorProto,
    model_dir: &Path,
    expected: usize,
) -> std::result::Result<Vec<u8>, String> {
    let field = |key: &str| {
        proto
            .external_data
            .iter()
            .find(|entry| entry.key() == key)
            .map(|entry| entry.value().to_string())
    };
    let location = field("location").ok_or("external data without a 'location'")?;
    let parse = |key: &str| -> std::result::Result<Option<u64>, String> {
        field(key)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| format!("bad external '{key}' '{v}'"))
            })
            .transpose()
    };
    let offset = parse("offset")?.unwrap_or(0);
    let length = parse("length")?;

    let relative = Path::new(&location);
    if relative.is_absolute()
        || relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!(
            "external data location '{location}' must be a relative path inside the model's folder"
        ));
    }
    let folder = model_dir
        .canonicalize()
        .map_err(|e| format!("cannot resolve the model's folder: {e}"))?;
    let path = folder.join(relative);
    let resolved = path
        .canonicalize()
        .map_err(|e| format!("cannot open external data '{location}': {e}"))?;
    if !resolved.starts_with(&folder) {
        return Err(format!(
            "external data location '{location}' resolves outside the model's folder"
        ));
    }
    let mut file = File::open(&resolved)
        .map_err(|e| format!("cannot open external data '{location}': {e}"))?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot stat external data '{location}': {e}"))?
        .len();
    let length = length.unwrap_or(size.saturating_sub(offset));
    if length != expected as u64 {
        return Err(format!(
            "external data '{location}' has length {length} but the tensor needs {expected} bytes"
        ));
    }
    let end = offset
        .checked_add(length)
        .ok_or_else(|| format!("external data offset {offset} + length {length} overflows"))?;
    if end > size {
        return Err(format!(
            "external data '{location}' offset {offset} + length {length} lies past its end ({size} bytes)"
        ));
    }
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| format!("cannot seek in '{location}': {e}"))?;
    let mut bytes = vec![0u8; expected];
    file.read_exact(&mut bytes)
        .map_err(|e| format!("cannot read '{location}': {e}"))?;
    Ok(bytes)
}

fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = ((bits >> 10) & 0x1f) as i32;
    let mantissa = (bits & 0x3ff) as f64;
    sign * match exponent {
        0 => mantissa * 2f64.powi(-24),
        31 if mantissa == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + mantissa / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Bits of `value` as f16 or bf16 (round to nearest even via f32).
fn half_bits(element: Element, value: f64) -> u16 {
    let f = value as f32;
    match element {
        Element::BF16 => {
            let bits = f.to_bits();
            let rounding = 0x7fff + ((bits >> 16) & 1);
            ((bits.wrapping_add(rounding)) >> 16) as u16
        }
        _ => f32_to_f16(f),
    }
}

fn f32_to_f16(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32;
    let mantissa = bits & 0x7f_ffff;
    if exponent == 0xff {
        return sign | 0x7c00 | if mantissa != 0 { 0x200 } else { 0 };
    }
    let e = exponent - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = (mantissa | 0x80_0000) >> (1 - e);
        let round = (m >> 12) & 1;
        return sign | ((m >> 13) + round) as u16;
    }
    let m = mantissa >> 13;
    let round = (mantissa >> 12) & 1;
    (sign | ((e as u16) << 10) | m as u16).wrapping_add(round as u16)
}
