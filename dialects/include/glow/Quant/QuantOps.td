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
                       DefaultValuedAttr<I64Attr, "10">:$bins);
  let assemblyFormat = "$input `name` $name (`bins` $bins^)? attr-dict `:` type($input)";
  let hasVerifier = 1;
}

#endif // GLOW_QUANT_OPS
