//===- QuantOps.td - glow.quant nodes -----------------------*- tablegen -*-===//
//
// Quantize / dequantize / rescale between float and `!quant.uniform` tensors, and the
// `profile` observer (Glow's QuantizationProfile node).
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_QUANT_OPS
#define GLOW_QUANT_OPS

include "glow/Quant/QuantDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Glow_QuantizedTensor : StaticShapeTensorOf<[AnyType]>;
def Glow_FloatTensorQ : StaticShapeTensorOf<[AnyFloat]>;

// Window attribute defaults, shared with glow.graph (Graph.h).
def Glow_QPair : DefaultValuedAttr<DenseI64ArrayAttr,
    "::llvm::ArrayRef<int64_t>(::mlir::glow::graph::kUnitPair)">;
def Glow_QNoPads : DefaultValuedAttr<DenseI64ArrayAttr,
    "::llvm::ArrayRef<int64_t>(::mlir::glow::graph::kNoPads)">;

def Glow_QuantizeOp : Glow_Quant_Op<"quantize", [Pure]> {
  let summary = "float tensor -> quantized tensor (Glow's Quantize)";
  let description = [{
    q = clamp(round(x / scale) + zero_point) in the storage type of the result's
    `!quant.uniform` element type, whose expressed type must be the input's element
    type.

    ```mlir
    %q = glow.quant.quantize %x : tensor<4xf32> -> tensor<4x!quant.uniform<i8:f32, 0.1:-3>>
    ```
  }];
  let arguments = (ins Glow_FloatTensorQ:$input);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Glow_DequantizeOp : Glow_Quant_Op<"dequantize", [Pure]> {
  let summary = "quantized tensor -> float tensor (Glow's Dequantize)";
  let description = [{
    ```mlir
    %x = glow.quant.dequantize %q : tensor<4x!quant.uniform<i8:f32, 0.1:-3>> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Glow_QuantizedTensor:$input);
  let results = (outs Glow_FloatTensorQ:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_RescaleOp : Glow_Quant_Op<"rescale", [Pure]> {
  let summary = "changes quantization parameters of a quantized tensor (Glow's RescaleQuantized)";
  let description = [{
    ```mlir
    %r = glow.quant.rescale %q : tensor<4x!quant.uniform<i8:f32, 0.1:-3>>
        -> tensor<4x!quant.uniform<i8:f32, 0.2:0>>
    ```
  }];
  let arguments = (ins Glow_QuantizedTensor:$input);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_ProfileOp : Glow_Quant_Op<"profile", [MemoryEffects<[MemWrite]>]> {
  let summary = "records the range and histogram of a float tensor (Glow's QuantizationProfile)";
  let description = [{
    An observer inserted on float values during profiling runs: each execution
    widens [min, max] of the value named `name` and adds it to a histogram of
    `bins` bins. It writes to the profile, so it is never removed as dead.

    ```mlir
    glow.quant.profile %x name "conv1" bins 10 : tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensorQ:$input, StrAttr:$name,
                       DefaultValuedAttr<I64Attr, "10">:$bins,
                       DefaultValuedAttr<I64Attr, "0">:$id);
  let assemblyFormat = "$input `name` $name (`bins` $bins^)? (`id` $id^)? attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Quantized compute: integer arithmetic with int32 accumulation, then one
// requantization to the result's !quant type (scale and zero point), clamped to
// [min, max] (real values: a fused ReLU has min 0, ReLU6 min 0 max 6) and to the
// storage range. An int32 result whose scale is the product of the operands'
// scales (zero point 0) is the exact accumulator (ONNX ConvInteger, MatMulInteger).
//===----------------------------------------------------------------------===//

def Glow_QuantConv2DOp : Glow_Quant_Op<"conv2d", [Pure]> {
  let summary = "2-D convolution on quantized tensors (Glow's quantized Convolution, ONNX QLinearConv / ConvInteger)";
  let description = [{
    The geometry of `glow.graph.conv2d` (NCHW, or NHWC with `channels_last`; the
    filter is F x C/group x KH x KW). result = requantize(sum((x - zx) * (w - zw)) +
    bias): the optional int32 `bias` is in units of scale_x * scale_w (per output
    channel when the filter is quantized per axis 0). Padded positions hold the
    input's zero point, i.e. the real value 0.

    ```mlir
    %y = glow.quant.conv2d %x, %w, %b pads [1, 1, 1, 1] min 0.0
        : (tensor<1x64x56x56x!quant.uniform<u8:f32, 0.05:128>>,
           tensor<64x64x3x3x!quant.uniform<i8:f32:0, {0.01, ...}>>,
           tensor<64x!quant.uniform<i32:f32:0, {5.0e-4, ...}>>)
        -> tensor<1x64x56x56x!quant.uniform<u8:f32, 0.04:0>>
    ```
  }];
  let arguments = (ins Glow_QuantizedTensor:$input, Glow_QuantizedTensor:$filter,
                       Optional<Glow_QuantizedTensor>:$bias,
                       Glow_QPair:$strides, Glow_QNoPads:$pads, Glow_QPair:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group, UnitAttr:$channels_last,
                       OptionalAttr<F64Attr>:$min, OptionalAttr<F64Attr>:$max);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? (`strides` $strides^)? (`pads` $pads^)?
    (`dilations` $dilations^)? (`group` $group^)? (`channels_last` $channels_last^)?
    (`min` $min^)? (`max` $max^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Glow_QuantFullyConnectedOp : Glow_Quant_Op<"fully_connected", [Pure]> {
  let summary = "quantized input x weights + int32 bias (Glow's quantized FullyConnected)";
  let description = [{
    `input` is M x K, `weights` K x N (per tensor, or per axis 1: one scale per output
    column), `bias` N int32 values in units of scale_input * scale_weights.

    ```mlir
    %y = glow.quant.fully_connected %x, %w, %b
        : (tensor<1x2048x!quant.uniform<u8:f32, 0.02:0>>,
           tensor<2048x1000x!quant.uniform<i8:f32:1, {...}>>,
           tensor<1000x!quant.uniform<i32:f32:0, {...}>>)
        -> tensor<1x1000x!quant.uniform<i8:f32, 0.1:-5>>
    ```
  }];
  let arguments = (ins Glow_QuantizedTensor:$input, Glow_QuantizedTensor:$weights,
                       Optional<Glow_QuantizedTensor>:$bias,
                       OptionalAttr<F64Attr>:$min, OptionalAttr<F64Attr>:$max);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = [{
    $input `,` $weights (`,` $bias^)? (`min` $min^)? (`max` $max^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Glow_QuantBatchMatMulOp : Glow_Quant_Op<"batch_matmul", [Pure]> {
  let summary = "B quantized matrix products (ONNX QLinearMatMul / MatMulInteger on 3-D operands)";
  let description = [{
    `lhs` is B x M x K, `rhs` B x K x N (both per tensor), the result B x M x N.

    ```mlir
    %y = glow.quant.batch_matmul %a, %b
        : (tensor<12x32x32x!quant.uniform<u8:f32, 0.1:128>>,
           tensor<12x32x32x!quant.uniform<u8:f32, 0.1:128>>)
        -> tensor<12x32x32x!quant.uniform<u8:f32, 0.3:0>>
    ```
  }];
  let arguments = (ins Glow_QuantizedTensor:$lhs, Glow_QuantizedTensor:$rhs);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

class Glow_QuantBinaryOp<string mnemonic, string summaryText>
    : Glow_Quant_Op<mnemonic, [Pure]> {
  let summary = summaryText;
  let arguments = (ins Glow_QuantizedTensor:$lhs, Glow_QuantizedTensor:$rhs,
                       OptionalAttr<F64Attr>:$min, OptionalAttr<F64Attr>:$max);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`min` $min^)? (`max` $max^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Glow_QuantAddOp : Glow_QuantBinaryOp<"add",
    "elementwise sum of two quantized tensors of one shape, requantized (Glow's quantized Add)"> {
  let description = [{
    ```mlir
    %y = glow.quant.add %a, %b min 0.0 : (tensor<1x56x56x256x!quant.uniform<u8:f32, 0.1:0>>,
        tensor<1x56x56x256x!quant.uniform<u8:f32, 0.2:0>>) -> tensor<1x56x56x256x!quant.uniform<u8:f32, 0.25:0>>
    ```
  }];
}

def Glow_QuantMulOp : Glow_QuantBinaryOp<"mul",
    "elementwise product of two quantized tensors of one shape, requantized (Glow's quantized Mul)"> {
  let description = [{
    ```mlir
    %y = glow.quant.mul %a, %b : (tensor<8x!quant.uniform<u8:f32, 0.1:0>>,
        tensor<8x!quant.uniform<u8:f32, 0.004:0>>) -> tensor<8x!quant.uniform<u8:f32, 0.05:0>>
    ```
  }];
}

def Glow_QuantAvgPoolOp : Glow_Quant_Op<"avg_pool", [Pure]> {
  let summary = "2-D average pooling of a quantized tensor: int32 sums, one requantization";
  let description = [{
    The geometry of `glow.graph.avg_pool`; padded positions count in the divisor only
    with `count_include_pad`.

    ```mlir
    %y = glow.quant.avg_pool %x kernel [7, 7] channels_last
        : tensor<1x7x7x2048x!quant.uniform<u8:f32, 0.1:0>> -> tensor<1x1x1x2048x!quant.uniform<u8:f32, 0.05:0>>
    ```
  }];
  let arguments = (ins Glow_QuantizedTensor:$input, DenseI64ArrayAttr:$kernel,
                       Glow_QPair:$strides, Glow_QNoPads:$pads,
                       UnitAttr:$count_include_pad, UnitAttr:$channels_last);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = [{
    $input `kernel` $kernel (`strides` $strides^)? (`pads` $pads^)?
    (`count_include_pad` $count_include_pad^)? (`channels_last` $channels_last^)? attr-dict
    `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Glow_QuantLookupTableOp : Glow_Quant_Op<"lookup_table", [Pure]> {
  let summary = "an 8-bit quantized function as a table of 256 results (Glow's IntLookupTable)";
  let description = [{
    result = table[storage(input) - storage_min]: one entry per input storage value,
    in the result's storage type. Glow's quantized sigmoid / tanh; built at compile
    time from the float function and both types' parameters.

    ```mlir
    %y = glow.quant.lookup_table %x table dense<...> : tensor<256xi8>
        : tensor<8x!quant.uniform<i8:f32, 0.05:0>> -> tensor<8x!quant.uniform<u8:f32, 0.00390625:0>>
    ```
  }];
  let arguments = (ins Glow_QuantizedTensor:$input, ElementsAttr:$table);
  let results = (outs Glow_QuantizedTensor:$result);
  let assemblyFormat = "$input `table` $table attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Glow_QuantDot4Op : Glow_Quant_Op<"dot4", [Pure,
    AllTypesMatch<["accumulator", "result"]>, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "per lane, the accumulator plus the dot product of 4 unsigned by 4 signed bytes (AVX-512 VNNI's vpdpbusd)";
  let description = [{
    result[i] = accumulator[i] + sum_{j < 4} zext(lhs[4i + j]) * sext(rhs[4i + j]),
    exact in int32. The int8 micro-kernels of glow-quant-kernels are written with it;
    glow-lower-dot4 turns it into `llvm.x86.avx512.vpdpbusd.512` for 16 lanes (or into
    extend / multiply / add for other widths) after bufferization. A pure op, unlike
    an `llvm.call_intrinsic`, so bufferization, LICM and CSE treat it as arithmetic.

    ```mlir
    %acc2 = glow.quant.dot4 %acc, %a, %b : vector<64xi8> into vector<16xi32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [I32]>:$accumulator,
                       VectorOfRankAndType<[1], [I8]>:$lhs,
                       VectorOfRankAndType<[1], [I8]>:$rhs);
  let results = (outs VectorOfRankAndType<[1], [I32]>:$result);
  let assemblyFormat = [{
    $accumulator `,` $lhs `,` $rhs attr-dict `:` type($lhs) `into` type($accumulator)
  }];
  let hasVerifier = 1;
}

def Glow_QuantPermuteBytesOp : Glow_Quant_Op<"permute_bytes", [Pure,
    AllTypesMatch<["low", "index", "high", "result"]>]> {
  let summary = "per byte, one of 128 table bytes chosen by the index's low 7 bits (AVX-512 VBMI's vpermi2b)";
  let description = [{
    result[i] = (low ++ high)[index[i] & 127] for 64-byte vectors: the table is `low`
    (entries 0-63) followed by `high` (64-127); the index's top bit is ignored. The
    int8 lookup-table kernels of glow-quant-kernels look up a 256-entry table with
    two of them; glow-lower-dot4 turns it into `llvm.x86.avx512.vpermi2var.qi.512`
    after bufferization. A pure op, unlike an `llvm.call_intrinsic`, so
    bufferization, LICM and CSE treat it as arithmetic.

    ```mlir
    %r = glow.quant.permute_bytes %low, %index, %high : vector<64xi8>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[64], [I8]>:$low,
                       VectorOfLengthAndType<[64], [I8]>:$index,
                       VectorOfLengthAndType<[64], [I8]>:$high);
  let results = (outs VectorOfLengthAndType<[64], [I8]>:$result);
  let assemblyFormat = [{
    $low `,` $index `,` $high attr-dict `:` type($result)
  }];
}

#endif // GLOW_QUANT_OPS
