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

impl UniformQuantization {
    /// Per-tensor parameters over a `width`-bit storage with its full range.
    pub fn per_tensor(scale: f64, zero_point: i64, width: u32, signed: bool) -> Self {
        Self {
            scales: vec![scale],
            zero_points: vec![zero_point],
            axis: None,
            width,
            signed,
            range: full_range(width, signed),
        }
    }

    /// The scale at index `i` of the quantized axis (the one scale of a per-tensor type).
    pub fn scale(&self, i: usize) -> f64 {
        self.scales[if self.axis.is_some() { i } else { 0 }]
    }

    /// The zero point at index `i` of the quantized axis.
    pub fn zero_point(&self, i: usize) -> i64 {
        self.zero_points[if self.axis.is_some() { i } else { 0 }]
    }

    /// The `!quant.uniform` element type expressing `expressed` with these parameters.
    pub fn element_type<'c>(&self, expressed: Type<'c>) -> Type<'c> {
        // SAFETY: plain type constructors on valid types of a live context; the
        // parameter arrays are copied by MLIR.
        unsafe {
            let flags = if self.signed {
                mlir_sys::mlirQuantizedTypeGetSignedFlag()
            } else {
                0
            };
            let context = mlir_sys::mlirTypeGetContext(expressed.to_raw());
            let storage = mlir_sys::mlirIntegerTypeGet(context, self.width);
            let raw = match self.axis {
                None => mlir_sys::mlirUniformQuantizedTypeGet(
                    flags,
                    storage,
                    expressed.to_raw(),
                    self.scales[0],
                    self.zero_points[0],
                    self.range.0,
                    self.range.1,
                ),
                Some(axis) => {
                    let mut scales = self.scales.clone();
                    let mut zero_points = self.zero_points.clone();
                    mlir_sys::mlirUniformQuantizedPerAxisTypeGet(
                        flags,
                        storage,
                        expressed.to_raw(),
                        scales.len() as isize,
                        scales.as_mut_ptr(),
                        zero_points.as_mut_ptr(),
                        axis as i32,
                        self.range.0,
                        self.range.1,
                    )
                }
            };
            Type::from_raw(raw)
        }
    }
}

/// The full storage range of a `width`-bit integer.
pub fn full_range(width: u32, signed: bool) -> (i64, i64) {
    if signed {
        (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
    } else {
        (0, (1i64 << width) - 1)
    }
}

/// The float type a `!quant` element type expresses.
pub fn expressed<'c>(element: Type<'c>) -> Option<Type<'c>> {
    storage(element)?;
    // SAFETY: called on a quantized type only.
    Some(unsafe {
        Type::from_raw(mlir_sys::mlirQuantizedTypeGetExpressedType(
            element.to_raw(),
        ))
    })
}
