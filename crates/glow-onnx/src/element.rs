//! ONNX element types and their MLIR counterparts.

use crate::proto::tensor_proto::DataType;
use melior::{
    ir::{r#type::IntegerType, Type},
    Context,
};

/// The element types the importer handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// f32
    F32,
    /// f64
    F64,
    /// f16
    F16,
    /// bf16
    BF16,
    /// i8
    I8,
    /// u8 (MLIR `ui8`: kept unsigned so conversions stay exact)
    U8,
    /// u16
    U16,
    /// u32
    U32,
    /// u64
    U64,
    /// i16
    I16,
    /// i32
    I32,
    /// i64
    I64,
    /// bool (i1, one byte per element in ONNX data)
    Bool,
}

impl Element {
    /// The element type of an ONNX `data_type` code, if supported.
    pub fn from_onnx(code: i32) -> Option<Self> {
        Some(match DataType::try_from(code).ok()? {
            DataType::Float => Self::F32,
            DataType::Double => Self::F64,
            DataType::Float16 => Self::F16,
            DataType::Bfloat16 => Self::BF16,
            DataType::Int8 => Self::I8,
            DataType::Uint8 => Self::U8,
            DataType::Uint16 => Self::U16,
            DataType::Uint32 => Self::U32,
            DataType::Uint64 => Self::U64,
            DataType::Int16 => Self::I16,
            DataType::Int32 => Self::I32,
            DataType::Int64 => Self::I64,
            DataType::Bool => Self::Bool,
            _ => return None,
        })
    }

    /// The ONNX name of a data type code, for messages.
    pub fn onnx_name(code: i32) -> String {
        DataType::try_from(code)
            .map(|t| t.as_str_name().to_string())
            .unwrap_or_else(|_| format!("data type {code}"))
    }

    /// Bytes per element in ONNX raw data.
    pub fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 | Self::Bool => 1,
            Self::F16 | Self::BF16 | Self::I16 | Self::U16 => 2,
            Self::F32 | Self::I32 | Self::U32 => 4,
            Self::F64 | Self::I64 | Self::U64 => 8,
        }
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Self::F32 | Self::F64 | Self::F16 | Self::BF16)
    }

    /// The MLIR element type.
    pub fn mlir<'c>(self, context: &'c Context) -> Type<'c> {
        match self {
            Self::F32 => Type::float32(context),
            Self::F64 => Type::float64(context),
            Self::F16 => Type::float16(context),
            Self::BF16 => Type::bfloat16(context),
            Self::I8 => IntegerType::new(context, 8).into(),
            Self::U8 => IntegerType::unsigned(context, 8).into(),
            Self::U16 => IntegerType::unsigned(context, 16).into(),
            Self::U32 => IntegerType::unsigned(context, 32).into(),
            Self::U64 => IntegerType::unsigned(context, 64).into(),
            Self::I16 => IntegerType::new(context, 16).into(),
            Self::I32 => IntegerType::new(context, 32).into(),
            Self::I64 => IntegerType::new(context, 64).into(),
            Self::Bool => IntegerType::new(context, 1).into(),
        }
    }
}
