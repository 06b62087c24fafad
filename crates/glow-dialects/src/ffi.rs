//! The C API of `dialects/lib/CAPI` (see `dialects/include/glow-c/*.h`).
#![allow(missing_docs, non_camel_case_types, non_snake_case)]

use mlir_sys::{
    MlirDialectHandle, MlirDialectRegistry, MlirLogicalResult, MlirOperation, MlirStringCallback,
    MlirStringRef,
};
use std::ffi::{c_char, c_int, c_void};

/// Kinds of pass options MLIR parses for a Rust pass.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlowPassOptionKind {
    String = 0,
    StringList = 1,
    Bool = 2,
    Int = 3,
}

#[repr(C)]
pub struct GlowPassOptionSpec {
    pub name: *const c_char,
    pub description: *const c_char,
    pub kind: GlowPassOptionKind,
    pub default_value: *const c_char,
}

#[repr(C)]
pub struct GlowPassOptionValue {
    pub name: MlirStringRef,
    pub num_values: isize,
    pub values: *const MlirStringRef,
}

pub type GlowPassValidateFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    values: *const GlowPassOptionValue,
    num_values: isize,
    error: MlirStringCallback,
    error_user_data: *mut c_void,
) -> MlirLogicalResult;

pub type GlowPassRunFn = unsafe extern "C" fn(
    user_data: *mut c_void,
    op: MlirOperation,
    values: *const GlowPassOptionValue,
    num_values: isize,
) -> MlirLogicalResult;

#[repr(C)]
pub struct GlowRustPassSpec {
    pub argument: *const c_char,
    pub description: *const c_char,
    pub anchor_op_name: *const c_char,
    pub num_options: isize,
    pub options: *const GlowPassOptionSpec,
    pub num_dependent_dialects: isize,
    pub dependent_dialects: *const MlirDialectHandle,
    pub user_data: *mut c_void,
    pub validate: GlowPassValidateFn,
    pub run: GlowPassRunFn,
}

unsafe extern "C" {
    pub fn mlirGetDialectHandle__glow_graph__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__glow_quant__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__glow_instr__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__glow__() -> MlirDialectHandle;

    pub fn glowRegisterRustPass(spec: *const GlowRustPassSpec);

    /// Registers the C++ pass `glow-math-approximation` (MLIR's polynomial
    /// approximations of erf / tanh, glow's own of exp).
    pub fn glowRegisterMathApproximationPass();
    /// Registers the C++ pass `glow-vector-accumulators`
    /// (dialects/lib/Transforms/VectorAccumulators.cpp).
    pub fn glowRegisterVectorAccumulatorsPass();
    /// Registers `glow-generalize-elementwise` (dialects/lib/Transforms/GeneralizeElementwise.cpp).
    pub fn glowRegisterGeneralizeElementwisePass();

    /// Registers the C++ pass `glow-verify-roundtrip`.
    pub fn glowRegisterVerifyRoundTripPass();

    /// Writes `module` as bytecode that reads back although the Glow dialects'
    /// namespaces hold dots (see `bytecode`).
    pub fn glowWritePortableBytecode(
        module: mlir_sys::MlirOperation,
        callback: mlir_sys::MlirStringCallback,
        user_data: *mut c_void,
    ) -> mlir_sys::MlirLogicalResult;

    /// Checks that `module` reads back bit for bit from text, generic text and
    /// portable bytecode; on failure passes the reason to `callback`.
    pub fn glowVerifyRoundTrip(
        module: mlir_sys::MlirOperation,
        callback: mlir_sys::MlirStringCallback,
        user_data: *mut c_void,
    ) -> mlir_sys::MlirLogicalResult;

    pub fn glowRegisterPassPipeline(
        argument: *const c_char,
        description: *const c_char,
        pipeline: *const c_char,
    );

    /// Frees the dense_resource blobs no attribute inside `op` refers to; returns the
    /// bytes freed (`dialects/include/glow-c/Resources.h`).
    pub fn glowReleaseUnreferencedResources(op: mlir_sys::MlirOperation) -> i64;
    /// Frees the blob of one dense_resource attribute if nothing inside `root` refers
    /// to it and the context runs passes on one thread; returns the bytes freed.
    pub fn glowReleaseResourceIfUnreferenced(
        root: mlir_sys::MlirOperation,
        attribute: mlir_sys::MlirAttribute,
    ) -> i64;
    /// The bytes of a dense_resource attribute's blob, not copied (null otherwise).
    pub fn glowResourceBlobData(attribute: mlir_sys::MlirAttribute) -> mlir_sys::MlirStringRef;
    /// A dense_resource attribute retyped to a shaped type of the same byte size,
    /// over the same blob (null otherwise).
    pub fn glowResourceElementsWithType(
        attribute: mlir_sys::MlirAttribute,
        r#type: mlir_sys::MlirType,
    ) -> mlir_sys::MlirAttribute;
    /// The bytes and alignment of the builtin blob named `key` (not copied).
    pub fn glowResourceBlobByKey(
        context: mlir_sys::MlirContext,
        key: mlir_sys::MlirStringRef,
        data: *mut mlir_sys::MlirStringRef,
        alignment: *mut u64,
    ) -> bool;
    /// Calls `callback` with the key of each dense_resource blob `op` refers to, in
    /// the order MLIR's printer lists them.
    pub fn glowReferencedResources(
        op: mlir_sys::MlirOperation,
        callback: mlir_sys::MlirStringCallback,
        user_data: *mut std::ffi::c_void,
    );
    /// Whether `bytes` (bytecode) reads back into a module, blobs read in place.
    pub fn glowBytecodeReadsBack(
        context: mlir_sys::MlirContext,
        bytes: mlir_sys::MlirStringRef,
    ) -> bool;
    /// Whether `text` nests brackets at most `limit` deep (see `nesting`).
    pub fn glowNestingWithin(
        text: *const c_char,
        length: usize,
        limit: usize,
        line: *mut usize,
        column: *mut usize,
    ) -> bool;

    pub fn glowMlirOptMain(
        argc: c_int,
        argv: *mut *mut c_char,
        registry: MlirDialectRegistry,
    ) -> c_int;
}
