//! Reading `!quant.uniform` element types (per tensor or per axis) through MLIR's C
//! API: their storage integer and parameters, for the lowering of glow.quant ops and
//! for runners that exchange quantized tensors as their storage integers.

use melior::ir::{Type, TypeLike};

/// A uniform quantization: real = (stored - zero_point) * scale, per tensor or along
/// `axis`.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformQuantization {
    /// One scale, or one per index of `axis`.
    pub scales: Vec<f64>,
    /// One zero point, or one per index of `axis`.
    pub zero_points: Vec<i64>,
    /// The quantized dimension of a per-axis type.
    pub axis: Option<usize>,
    /// Storage integer width in bits.
    pub width: u32,
    /// Whether the storage integer is signed.
    pub signed: bool,
    /// The storage range (the type's, possibly narrower than the integer's).
    pub range: (i64, i64),
}

/// The storage integer (width, signed) of a quantized element type, or `None` for
/// other types.
pub fn storage(element: Type) -> Option<(u32, bool)> {
    let raw = element.to_raw();
    // SAFETY: the quantized-type getters are only called on quantized types.
    unsafe {
        if !mlir_sys::mlirTypeIsAQuantizedType(raw) {
            return None;
        }
        Some((
            mlir_sys::mlirQuantizedTypeGetStorageTypeIntegralWidth(raw),
            mlir_sys::mlirQuantizedTypeIsSigned(raw),
        ))
    }
}

/// The parameters of a `!quant.uniform` element type (per tensor or per axis).
pub fn uniform(element: Type) -> Option<UniformQuantization> {
    let raw = element.to_raw();
    let (width, signed) = storage(element)?;
    // SAFETY: each getter is called on a type of the kind it reads.
    unsafe {
        let range = (
            mlir_sys::mlirQuantizedTypeGetStorageTypeMin(raw),
            mlir_sys::mlirQuantizedTypeGetStorageTypeMax(raw),
        );
        if mlir_sys::mlirTypeIsAUniformQuantizedType(raw) {
            return Some(UniformQuantization {
                scales: vec![mlir_sys::mlirUniformQuantizedTypeGetScale(raw)],
                zero_points: vec![mlir_sys::mlirUniformQuantizedTypeGetZeroPoint(raw)],
                axis: None,
                width,
                signed,
                range,
            });
        }
        if mlir_sys::mlirTypeIsAUniformQuantizedPerAxisType(raw) {
            let count = mlir_sys::mlirUniformQuantizedPerAxisTypeGetNumDims(raw);
            return Some(UniformQuantization {
                scales: (0..count)
                    .map(|i| mlir_sys::mlirUniformQuantizedPerAxisTypeGetScale(raw, i))
                    .collect(),
                zero_points: (0..count)
                    .map(|i| mlir_sys::mlirUniformQuantizedPerAxisTypeGetZeroPoint(raw, i))
                    .collect(),
                axis: Some(
                    mlir_sys::mlirUniformQuantizedPerAxisTypeGetQuantizedDimension(raw) as usize,
                ),
                width,
                signed,
                range,
            });
        }
        None
    }
}
