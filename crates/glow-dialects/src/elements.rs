//! Reading and creating the data of constant tensors (`dense<...>`, splats and
//! `dense_resource` blobs) through MLIR's C API, for the importer and the passes.

use melior::ir::{Attribute, AttributeLike, Type, TypeLike};
use std::ffi::c_void;

/// The f32 values of an elements attribute of `count` f32 elements (dense, splat or
/// dense_resource), or `None` if it is not one.
pub fn f32_values(attribute: Attribute, count: usize) -> Option<Vec<f32>> {
    let raw = attribute.to_raw();
    // SAFETY: each query is valid on any attribute; the getters are only called on
    // attributes of the matching kind with in-range positions.
    unsafe {
        if mlir_sys::mlirAttributeIsADenseElements(raw) {
            if mlir_sys::mlirElementsAttrGetNumElements(raw) as usize != count {
                return None;
            }
            if mlir_sys::mlirDenseElementsAttrIsSplat(raw) {
                let value = mlir_sys::mlirDenseElementsAttrGetFloatValue(raw, 0);
                return Some(vec![value; count]);
            }
            let data = mlir_sys::mlirDenseElementsAttrGetRawData(raw) as *const f32;
            if count == 0 || data.is_null() {
                return Some(Vec::new());
            }
            return Some(std::slice::from_raw_parts(data, count).to_vec());
        }
        if mlir_sys::mlirAttributeIsADenseResourceElements(raw) {
            if mlir_sys::mlirElementsAttrGetNumElements(raw) as usize != count {
                return None;
            }
            // Only a blob of exactly `count` f32 values is read (an elided or
            // short one would be read out of bounds).
            let data = resource_blob(attribute, count * 4)?;
            return Some(
                data.chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            );
        }
    }
    None
}

/// A `dense<...>` attribute of `type` from raw little-endian element bytes. Equal
/// elements make a splat, as MLIR's parser and `DenseElementsAttr::get` make them, so
/// equal constants are one attribute (CSE, folding) and print and parse back alike.
pub fn dense_elements<'c>(r#type: Type<'c>, bytes: &[u8]) -> Attribute<'c> {
    // SAFETY: querying a shaped type.
    let (count, element) = unsafe {
        let raw = r#type.to_raw();
        let count: i64 = (0..mlir_sys::mlirShapedTypeGetRank(raw))
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize))
            .product();
        (count as usize, mlir_sys::mlirShapedTypeGetElementType(raw))
    };
    // SAFETY: a type query on a valid type.
    let is_bool = unsafe { mlir_sys::mlirTypeIsAInteger(element) }
        && unsafe { mlir_sys::mlirIntegerTypeGetWidth(element) } == 1;
    let bytes = if count > 1 && !is_bool && bytes.len().is_multiple_of(count) {
        let width = bytes.len() / count;
        let first = &bytes[..width];
        if bytes.chunks_exact(width).all(|chunk| chunk == first) {
            first
        } else {
            bytes
        }
    } else {
        bytes
    };
    // SAFETY: the buffer holds the element data of `type` (or one element of it, which
    // MLIR reads as a splat) and is copied by MLIR.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDenseElementsAttrRawBufferGet(
            r#type.to_raw(),
            bytes.len(),
            bytes.as_ptr().cast(),
        ))
    }
}

/// The alignment `dense_resource` blobs declare (see [`resource_elements`]).
pub const RESOURCE_ALIGNMENT: usize = 16;

/// A `dense_resource<name>` attribute of `type` holding a copy of `bytes` in 64-byte
/// aligned storage that MLIR owns (and frees) from here on. MLIR makes `name` unique.
///
/// The blob declares an alignment of [`RESOURCE_ALIGNMENT`] (16): the bytecode reader
/// requires its input buffer to be aligned to the largest blob alignment, and heap
/// buffers (files too small to be memory-mapped) are only 16-byte aligned. Code
/// generation aligns the globals it makes of these constants on its own.
pub fn resource_elements<'c>(r#type: Type<'c>, name: &str, bytes: &[u8]) -> Attribute<'c> {
    let words = bytes.len().div_ceil(64).max(1);
    let mut storage: Box<Vec<[u8; 64]>> = Box::new(vec![[0u8; 64]; words]);
    storage.as_flattened_mut()[..bytes.len()].copy_from_slice(bytes);
    let data = storage.as_mut_ptr() as *mut c_void;
    let owner = Box::into_raw(storage);
    unsafe extern "C" fn free(owner: *mut c_void, _: *const c_void, _: usize, _: usize) {
        // SAFETY: `owner` is the Box leaked below; MLIR calls this exactly once.
        unsafe { drop(Box::from_raw(owner as *mut Vec<[u8; 64]>)) }
    }
    let name = mlir_sys::MlirStringRef {
        data: name.as_ptr().cast(),
        length: name.len(),
    };
    // SAFETY: `data` holds `bytes.len()` valid bytes, 64-byte aligned, alive until
    // MLIR calls `free(owner)`.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirUnmanagedDenseResourceElementsAttrGet(
            r#type.to_raw(),
            name,
            data,
            bytes.len(),
            RESOURCE_ALIGNMENT,
            false,
            Some(free),
            owner as *mut c_void,
        ))
    }
}

/// The bytes of a `dense_resource` attribute's blob as stored, without a copy, or
/// `None` for other attributes and resources without data. The slice is valid while
/// the blob is: until `resources::release_*` frees it.
pub fn resource_data<'c>(attribute: Attribute<'c>) -> Option<&'c [u8]> {
    // SAFETY: a query on a live attribute; the blob outlives the borrow per the
    // contract above.
    unsafe {
        let data = crate::ffi::glowResourceBlobData(attribute.to_raw());
        (!data.data.is_null())
            .then(|| std::slice::from_raw_parts(data.data.cast::<u8>(), data.length))
    }
}

/// The little-endian bytes of an elements attribute (dense, splat or dense_resource)
/// whose elements are `element_bytes` wide (1, 2, 4 or 8; `float` for f32/f64), or
/// `None` for other kinds (booleans, complex, unsupported widths).
pub fn raw_bytes(attribute: Attribute, element_bytes: usize, float: bool) -> Option<Vec<u8>> {
    let raw = attribute.to_raw();
    // SAFETY: each query is valid on any attribute; the getters are only called on
    // attributes of the matching kind with in-range positions.
    unsafe {
        let count = mlir_sys::mlirElementsAttrGetNumElements(raw) as usize;
        if mlir_sys::mlirAttributeIsADenseElements(raw) {
            let data = mlir_sys::mlirDenseElementsAttrGetRawData(raw) as *const u8;
            if count == 0 || data.is_null() {
                // An empty tensor has no data (MLIR hands out a null pointer).
                return Some(Vec::new());
            }
            if mlir_sys::mlirDenseElementsAttrIsSplat(raw) {
                let one = std::slice::from_raw_parts(data, element_bytes);
                return Some(one.repeat(count));
            }
            return Some(std::slice::from_raw_parts(data, count * element_bytes).to_vec());
        }
        if !mlir_sys::mlirAttributeIsADenseResourceElements(raw) {
            return None;
        }
        if !matches!(
            (element_bytes, float),
            (4 | 8, true) | (1 | 2 | 4 | 8, false)
        ) {
            return None;
        }
        resource_blob(attribute, count * element_bytes).map(<[u8]>::to_vec)
    }
}

/// The blob of a `dense_resource` attribute when it holds exactly `bytes` bytes;
/// `None` for a resource without data (printed with `--mlir-elide-resource-strings-if-larger`,
/// `dense_resource<__elided__>`) or of another size, whose elements MLIR's per-element
/// getters would read out of bounds.
fn resource_blob<'c>(attribute: Attribute<'c>, bytes: usize) -> Option<&'c [u8]> {
    resource_data(attribute).filter(|data| data.len() == bytes)
}

/// The bytes of an elements attribute with elements of `element` type as they lie in
/// memory once compiled: one byte per i1 (0 or 1; MLIR itself packs i1 attributes into
/// bits), two per f16 / bf16, else as [`raw_bytes`]; `None` for element types without
/// a byte layout here (complex, index, sub-byte integers other than i1).
pub fn memory_bytes(attribute: Attribute, element: melior::ir::Type) -> Option<Vec<u8>> {
    let raw = attribute.to_raw();
    // SAFETY: type queries on a live type.
    let (integer, width) = unsafe {
        let t = element.to_raw();
        let integer = mlir_sys::mlirTypeIsAInteger(t);
        (
            integer,
            if integer {
                mlir_sys::mlirIntegerTypeGetWidth(t)
            } else {
                0
            },
        )
    };
    if integer && width == 1 {
        // SAFETY: bool getters on an elements attribute of i1, positions in range.
        unsafe {
            let count = mlir_sys::mlirElementsAttrGetNumElements(raw) as isize;
            if mlir_sys::mlirAttributeIsADenseElements(raw) {
                if mlir_sys::mlirDenseElementsAttrIsSplat(raw) {
                    let value = mlir_sys::mlirDenseElementsAttrGetBoolSplatValue(raw);
                    return Some(vec![u8::from(value != 0); count as usize]);
                }
                return Some(
                    (0..count)
                        .map(|i| u8::from(mlir_sys::mlirDenseElementsAttrGetBoolValue(raw, i)))
                        .collect(),
                );
            }
            if mlir_sys::mlirAttributeIsADenseResourceElements(raw) {
                // One byte per bool in the blob.
                let data = resource_blob(attribute, count as usize)?;
                return Some(data.iter().map(|b| u8::from(*b != 0)).collect());
            }
            return None;
        }
    }
    if integer {
        return (width % 8 == 0)
            .then(|| raw_bytes(attribute, width as usize / 8, false))
            .flatten();
    }
    if element.is_f16() || element.is_bf16() {
        // Two-byte floats: their bits, read as 16-bit integers.
        return raw_bytes(attribute, 2, false);
    }
    if element.is_f32() {
        return raw_bytes(attribute, 4, true);
    }
    if element.is_f64() {
        return raw_bytes(attribute, 8, true);
    }
    None
}
