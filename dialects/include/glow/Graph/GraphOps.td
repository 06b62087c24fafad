//===- GraphOps.td - glow.graph nodes -----------------------*- tablegen -*-===//
//
// The single source of truth for glow.graph nodes: C++ classes, verifiers and the
// assembly format come from here, and so do the typed Rust builders (melior's
// `dialect!` macro reads this file).
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_GRAPH_OPS
#define GLOW_GRAPH_OPS

include "glow/Graph/GraphDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/Dialect/Quant/IR/QuantBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Glow_Tensor : StaticShapeTensorOf<[AnyType]>;
def Glow_FloatTensor : StaticShapeTensorOf<[AnyFloat]>;
// Integers may be signless, signed or unsigned (ONNX's uint8/16/32/64 stay unsigned so
// comparisons, division and conversions keep their meaning).
def Glow_NumericTensor : StaticShapeTensorOf<[AnyFloat, AnyInteger]>;
def Glow_IntegerTensor : StaticShapeTensorOf<[AnyInteger]>;
def Glow_NumericOrQuantizedTensor : StaticShapeTensorOf<[AnyFloat, AnyInteger, quant_QuantizedType]>;

// Defaults are C++ constants (Graph.h) so type inference can use them too when an op
// is built through the C API without the attribute.
def Glow_Pair : DefaultValuedAttr<DenseI64ArrayAttr,
    "::llvm::ArrayRef<int64_t>(::mlir::glow::graph::kUnitPair)">;
def Glow_NoPads : DefaultValuedAttr<DenseI64ArrayAttr,
    "::llvm::ArrayRef<int64_t>(::mlir::glow::graph::kNoPads)">;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Glow_ConstantOp : Glow_Graph_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant tensor (Glow's Constant node: weights and literals)";
  let description = [{
    Materializes a constant tensor. Large weights are best written as
    `dense_resource` blobs so the text stays small.

    ```mlir
    %w = glow.graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Glow_SplatOp : Glow_Graph_Op<"splat", [ConstantLike, Pure]> {
  let summary = "a tensor filled with one scalar (Glow's Splat node)";
  let description = [{
    ```mlir
    %zero = glow.graph.splat 0.0 : tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs Glow_Tensor:$result);
  // The scalar is written without its type and takes the result's element type.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Convolution, pooling, linear algebra
//===----------------------------------------------------------------------===//

def Glow_Conv2DOp : Glow_Graph_Op<"conv2d", [Pure, InferTypeOpAdaptor]> {
  let summary = "2-D convolution, NCHW (or NHWC) input and OIHW filter (Glow's Convolution)";
  let description = [{
    `input` is N x C x H x W, `filter` is F x C/group x KH x KW, the optional `bias`
    has F elements. `pads` are [top, left, bottom, right]; `strides` and
    `dilations` are [h, w]. The result is N x F x OH x OW with
    OH = (H + top + bottom - dilation_h * (KH - 1) - 1) / stride_h + 1.
    With `channels_last` the input is N x H x W x C and the result N x OH x OW x F
    (the filter keeps its layout); `glow-channels-last` chooses it for the CPU.

    ```mlir
    %y = glow.graph.conv2d %x, %w, %b strides [2, 2] pads [3, 3, 3, 3]
        : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>)
        -> tensor<1x64x112x112xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, Glow_NumericTensor:$filter,
                       Optional<Glow_NumericTensor>:$bias,
                       Glow_Pair:$strides, Glow_NoPads:$pads, Glow_Pair:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$group,
                       UnitAttr:$channels_last);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? (`strides` $strides^)? (`pads` $pads^)?
    (`dilations` $dilations^)? (`group` $group^)? (`channels_last` $channels_last^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Glow_ConvTranspose2DOp : Glow_Graph_Op<"conv_transpose2d", [Pure, InferTypeOpAdaptor]> {
  let summary = "2-D transposed convolution, NCHW input and C x F/group x KH x KW filter (Glow's ConvTranspose)";
  let description = [{
    The gradient of conv2d with the same geometry: OH = stride_h * (H - 1) +
    output_padding_h + dilation_h * (KH - 1) + 1 - top - bottom (ONNX ConvTranspose).

    ```mlir
    %y = glow.graph.conv_transpose2d %x, %w, %b strides [2, 2] pads [1, 1, 1, 1]
        output_padding [1, 1] : (tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32>, tensor<4xf32>)
        -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, Glow_NumericTensor:$filter,
                       Optional<Glow_NumericTensor>:$bias,
                       Glow_Pair:$strides, Glow_NoPads:$pads, Glow_Pair:$dilations,
                       DefaultValuedAttr<DenseI64ArrayAttr,
                           "::llvm::ArrayRef<int64_t>(::mlir::glow::graph::kZeroPair)">:$output_padding,
                       DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? (`strides` $strides^)? (`pads` $pads^)?
    (`dilations` $dilations^)? (`output_padding` $output_padding^)? (`group` $group^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class Glow_PoolOp<string mnemonic, string summaryText, dag extraArgs = (ins),
                  TypeConstraint tensor = Glow_NumericTensor>
    : Glow_Graph_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = summaryText;
  let arguments = !con((ins tensor:$input, DenseI64ArrayAttr:$kernel,
                            Glow_Pair:$strides, Glow_NoPads:$pads, Glow_Pair:$dilations,
                            UnitAttr:$channels_last),
                       extraArgs);
  let results = (outs tensor:$result);
  let hasVerifier = 1;
}

def Glow_MaxPoolOp : Glow_PoolOp<"max_pool", "2-D max pooling over NCHW or NHWC (Glow's MaxPool)",
    (ins), Glow_NumericOrQuantizedTensor> {
  let description = [{
    `kernel`, `strides` and `dilations` are [h, w]; `pads` are [top, left, bottom,
    right]; padded positions never win the maximum. Integer inputs are allowed (ONNX
    MaxPool takes int8/uint8), and `!quant.uniform` ones (the maximum of quantized
    values is the quantized maximum; the result keeps the input's parameters).
    `channels_last`: NHWC input and result.

    ```mlir
    %y = glow.graph.max_pool %x kernel [3, 3] strides [2, 2] pads [1, 1, 1, 1]
        : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let assemblyFormat = [{
    $input `kernel` $kernel (`strides` $strides^)? (`pads` $pads^)?
    (`dilations` $dilations^)? (`channels_last` $channels_last^)? attr-dict
    `:` type($input) `->` type($result)
  }];
}

def Glow_AvgPoolOp : Glow_PoolOp<"avg_pool", "2-D average pooling over NCHW or NHWC (Glow's AvgPool)",
    (ins UnitAttr:$count_include_pad)> {
  let description = [{
    Like `max_pool`, averaging. Padded positions count in the divisor only when
    `count_include_pad` is set (ONNX's attribute of the same name).

    ```mlir
    %y = glow.graph.avg_pool %x kernel [7, 7] : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
    ```
  }];
  let assemblyFormat = [{
    $input `kernel` $kernel (`strides` $strides^)? (`pads` $pads^)?
    (`dilations` $dilations^)? (`count_include_pad` $count_include_pad^)?
    (`channels_last` $channels_last^)? attr-dict `:` type($input) `->` type($result)
  }];
}

def Glow_AdaptiveAvgPoolOp : Glow_Graph_Op<"adaptive_avg_pool", [Pure]> {
  let summary = "2-D adaptive average pooling over NCHW (Glow's AdaptiveAvgPool)";
  let description = [{
    PyTorch's `adaptive_avg_pool2d`: the result type gives the output extents
    [OH, OW]; output row i averages input rows floor(i * H / OH) ..
    ceil((i + 1) * H / OH) - 1, columns likewise, so windows may differ in size and
    overlap. Node lowering turns it into `avg_pool` when the extents divide, and into
    two matmuls with constant averaging matrices otherwise.

    ```mlir
    %y = glow.graph.adaptive_avg_pool %x : tensor<1x512x7x7xf32> -> tensor<1x512x3x3xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Glow_FullyConnectedOp : Glow_Graph_Op<"fully_connected", [Pure, InferTypeOpAdaptor]> {
  let summary = "input x weights + bias (Glow's FullyConnected)";
  let description = [{
    `input` is N x K, `weights` K x M, `bias` M; the result is N x M. Node lowering
    turns it into `matmul` + `batched_add`.

    ```mlir
    %y = glow.graph.fully_connected %x, %w, %b
        : (tensor<1x2048xf32>, tensor<2048x1000xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, Glow_NumericTensor:$weights,
                       Glow_NumericTensor:$bias);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = "$input `,` $weights `,` $bias attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Glow_MatMulOp : Glow_Graph_Op<"matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "2-D matrix product (Glow's MatMul)";
  let description = [{
    ```mlir
    %y = glow.graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$lhs, Glow_NumericTensor:$rhs);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Glow_BatchMatMulOp : Glow_Graph_Op<"batch_matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "B independent matrix products (Glow's BatchMatMul)";
  let description = [{
    ```mlir
    %y = glow.graph.batch_matmul %a, %b : (tensor<8x4x16xf32>, tensor<8x16x4xf32>) -> tensor<8x4x4xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$lhs, Glow_NumericTensor:$rhs);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Glow_BatchedAddOp : Glow_Graph_Op<"batched_add",
    [Pure, AllTypesMatch<["batch", "result"]>]> {
  let summary = "adds `slice` to every slice of `batch` along dimension 0 (Glow's BatchedAdd)";
  let description = [{
    `batch` is B x S1 x ... x Sn and `slice` is S1 x ... x Sn.

    ```mlir
    %y = glow.graph.batched_add %x, %bias : tensor<4x16xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$batch, Glow_NumericTensor:$slice);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = "$batch `,` $slice attr-dict `:` type($batch) `,` type($slice)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class Glow_BinaryOp<string mnemonic, string summaryText, list<Trait> traits = []>
    : Glow_Graph_Op<mnemonic, !listconcat([Pure, Elementwise, SameOperandsAndResultType], traits)> {
  let summary = summaryText;
  let description = [{
    Elementwise on two tensors of the same type; broadcasts are explicit in Glow.
  }];
  let arguments = (ins Glow_NumericTensor:$lhs, Glow_NumericTensor:$rhs);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  // Constant operands (dense or splat) fold elementwise.
  let hasFolder = 1;
}

def Glow_AddOp : Glow_BinaryOp<"add", "elementwise lhs + rhs", [Commutative]>;
def Glow_SubOp : Glow_BinaryOp<"sub", "elementwise lhs - rhs">;
def Glow_MulOp : Glow_BinaryOp<"mul", "elementwise lhs * rhs", [Commutative]>;
def Glow_DivOp : Glow_BinaryOp<"div", "elementwise lhs / rhs">;
def Glow_MaxOp : Glow_BinaryOp<"max", "elementwise maximum", [Commutative]>;
def Glow_MinOp : Glow_BinaryOp<"min", "elementwise minimum", [Commutative]>;

def Glow_ModOp : Glow_Graph_Op<"mod", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "elementwise remainder (Glow's Fmod and Modulo, ONNX Mod)";
  let description = [{
    The truncated remainder, with the sign of `lhs` (C's fmod, ONNX Mod with
    fmod = 1); with `sign_follow_divisor`, the floored remainder, with the sign of
    `rhs` (Python's %, ONNX Mod with fmod = 0 on integers). Integer division by zero
    (undefined in ONNX) gives 0 rather than trapping.

    ```mlir
    %r = glow.graph.mod %a, %b sign_follow_divisor : tensor<6xi32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$lhs, Glow_NumericTensor:$rhs,
                       UnitAttr:$sign_follow_divisor);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`sign_follow_divisor` $sign_follow_divisor^)? attr-dict `:` type($result)
  }];
}

class Glow_ShiftOp<string mnemonic, string summaryText>
    : Glow_Graph_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = summaryText;
  let description = [{
    Elementwise on integers (ONNX BitShift). Shift amounts (read as unsigned) of at
    least the bit width shift every bit out, giving 0, or the sign for an arithmetic
    right shift, instead of LLVM's poison.
  }];
  let arguments = (ins Glow_IntegerTensor:$lhs, Glow_IntegerTensor:$rhs);
  let results = (outs Glow_IntegerTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Glow_ShiftLeftOp : Glow_ShiftOp<"shift_left", "lhs << rhs elementwise">;
def Glow_ShiftRightOp : Glow_ShiftOp<"shift_right",
    "lhs >> rhs elementwise (logical on unsigned, arithmetic on signed integers)">;

class Glow_UnaryOp<string mnemonic, string summaryText>
    : Glow_Graph_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = summaryText;
  let arguments = (ins Glow_FloatTensor:$input);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  // A constant operand (dense or splat) folds, computed in double precision.
  let hasFolder = 1;
}

def Glow_PowOp : Glow_BinaryOp<"pow", "elementwise lhs ** rhs">;

def Glow_ReluOp : Glow_UnaryOp<"relu", "max(x, 0) elementwise">;
def Glow_SigmoidOp : Glow_UnaryOp<"sigmoid", "1 / (1 + exp(-x)) elementwise">;
def Glow_TanhOp : Glow_UnaryOp<"tanh", "hyperbolic tangent elementwise">;
def Glow_SqrtOp : Glow_UnaryOp<"sqrt", "square root elementwise">;
def Glow_RsqrtOp : Glow_UnaryOp<"rsqrt", "1 / sqrt(x) elementwise">;
def Glow_ExpOp : Glow_UnaryOp<"exp", "e ** x elementwise">;
def Glow_LogOp : Glow_UnaryOp<"log", "natural logarithm elementwise">;
def Glow_ErfOp : Glow_UnaryOp<"erf", "Gauss error function elementwise">;
def Glow_FloorOp : Glow_UnaryOp<"floor", "round toward -inf elementwise">;
def Glow_CeilOp : Glow_UnaryOp<"ceil", "round toward +inf elementwise">;
def Glow_RoundOp : Glow_UnaryOp<"round", "round half to even elementwise (ONNX Round)">;
def Glow_HardSwishOp : Glow_UnaryOp<"hard_swish", "x * min(max(x + 3, 0), 6) / 6 elementwise">;
// Trigonometric and hyperbolic functions (ONNX Sin ... Atanh), lowered to the math
// dialect's ops of the same names.
def Glow_SinOp : Glow_UnaryOp<"sin", "sine elementwise (radians)">;
def Glow_CosOp : Glow_UnaryOp<"cos", "cosine elementwise (radians)">;
def Glow_TanOp : Glow_UnaryOp<"tan", "tangent elementwise (radians)">;
def Glow_AsinOp : Glow_UnaryOp<"asin", "arcsine elementwise">;
def Glow_AcosOp : Glow_UnaryOp<"acos", "arccosine elementwise">;
def Glow_AtanOp : Glow_UnaryOp<"atan", "arctangent elementwise">;
def Glow_SinhOp : Glow_UnaryOp<"sinh", "hyperbolic sine elementwise">;
def Glow_CoshOp : Glow_UnaryOp<"cosh", "hyperbolic cosine elementwise">;
def Glow_AsinhOp : Glow_UnaryOp<"asinh", "inverse hyperbolic sine elementwise">;
def Glow_AcoshOp : Glow_UnaryOp<"acosh", "inverse hyperbolic cosine elementwise">;
def Glow_AtanhOp : Glow_UnaryOp<"atanh", "inverse hyperbolic tangent elementwise">;

class Glow_NumericUnaryOp<string mnemonic, string summaryText>
    : Glow_Graph_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = summaryText;
  let arguments = (ins Glow_NumericTensor:$input);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Glow_NegOp : Glow_NumericUnaryOp<"neg", "-x elementwise">;
def Glow_AbsOp : Glow_NumericUnaryOp<"abs", "|x| elementwise">;

def Glow_GeluOp : Glow_Graph_Op<"gelu", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "x * Phi(x) elementwise (Glow's Gelu; ONNX Gelu)";
  let description = [{
    Exact form x * (1 + erf(x / sqrt(2))) / 2, or with `approximate` the tanh form
    x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))) / 2 that Glow used.

    ```mlir
    %y = glow.graph.gelu %x approximate : tensor<1x128xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, UnitAttr:$approximate);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input (`approximate` $approximate^)? attr-dict `:` type($result)";
}

def Glow_LeakyReluOp : Glow_Graph_Op<"leaky_relu", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "x if x >= 0 else alpha * x (Glow's LeakyRelu)";
  let description = [{
    ```mlir
    %y = glow.graph.leaky_relu %x alpha 1.000000e-01 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, DefaultValuedAttr<F32Attr, "0.01">:$alpha);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input (`alpha` $alpha^)? attr-dict `:` type($result)";
}

def Glow_HardSigmoidOp : Glow_Graph_Op<"hard_sigmoid", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "max(0, min(1, alpha * x + beta)) elementwise (ONNX HardSigmoid)";
  let description = [{
    ```mlir
    %y = glow.graph.hard_sigmoid %x alpha 2.000000e-01 beta 5.000000e-01 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, DefaultValuedAttr<F32Attr, "0.2">:$alpha,
                       DefaultValuedAttr<F32Attr, "0.5">:$beta);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input (`alpha` $alpha^)? (`beta` $beta^)? attr-dict `:` type($result)";
}

def Glow_ClipOp : Glow_Graph_Op<"clip", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "min(max(x, min), max) elementwise (Glow's Clip)";
  let description = [{
    `min` and `max` are scalars of the element type; with min > max every element
    becomes max (ONNX's definition).

    ```mlir
    %y = glow.graph.clip %x min 0.000000e+00 max 6.000000e+00 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, TypedAttrInterface:$min,
                       TypedAttrInterface:$max);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = "$input `min` $min `max` $max attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Glow_PReluOp : Glow_Graph_Op<"prelu", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "x if x >= 0 else slope * x, slope a tensor (Glow's PRelu)";
  let description = [{
    ```mlir
    %y = glow.graph.prelu %x, %slope : tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, Glow_FloatTensor:$slope);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input `,` $slope attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Comparison, logic, selection
//===----------------------------------------------------------------------===//

def Glow_BoolTensor : StaticShapeTensorOf<[I1]>;

class Glow_CompareOp<string mnemonic, string summaryText>
    : Glow_Graph_Op<mnemonic, [Pure, Elementwise, AllTypesMatch<["lhs", "rhs"]>,
        TypesMatchWith<"result is i1 of the operands' shape", "lhs", "result",
                       "::mlir::cast<::mlir::ShapedType>($_self).clone(::mlir::IntegerType::get($_self.getContext(), 1))">]> {
  let summary = summaryText;
  let description = [{
    Compares two tensors of one type elementwise into a tensor of i1.
  }];
  let arguments = (ins Glow_NumericTensor:$lhs, Glow_NumericTensor:$rhs);
  let results = (outs Glow_BoolTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Glow_CmpEQOp : Glow_CompareOp<"cmp_eq", "lhs == rhs elementwise">;
def Glow_CmpNEQOp : Glow_CompareOp<"cmp_neq", "lhs != rhs elementwise">;
def Glow_CmpLTOp : Glow_CompareOp<"cmp_lt", "lhs < rhs elementwise">;
def Glow_CmpLTEOp : Glow_CompareOp<"cmp_lte", "lhs <= rhs elementwise">;

class Glow_LogicalOp<string mnemonic, string summaryText>
    : Glow_Graph_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType, Commutative]> {
  let summary = summaryText;
  // Booleans (ONNX And / Or / Xor) or integers bit by bit (BitwiseAnd / Or / Xor).
  let arguments = (ins Glow_IntegerTensor:$lhs, Glow_IntegerTensor:$rhs);
  let results = (outs Glow_IntegerTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Glow_AndOp : Glow_LogicalOp<"and", "logical (bool) or bitwise (integer) and elementwise">;
def Glow_OrOp : Glow_LogicalOp<"or", "logical (bool) or bitwise (integer) or elementwise">;
def Glow_XorOp : Glow_LogicalOp<"xor", "logical (bool) or bitwise (integer) xor elementwise">;

def Glow_NotOp : Glow_Graph_Op<"not", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "logical not elementwise";
  let arguments = (ins Glow_BoolTensor:$input);
  let results = (outs Glow_BoolTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Glow_IsNaNOp : Glow_Graph_Op<"is_nan", [Pure, Elementwise,
    TypesMatchWith<"result is i1 of the input's shape", "input", "result",
                   "::mlir::cast<::mlir::ShapedType>($_self).clone(::mlir::IntegerType::get($_self.getContext(), 1))">]> {
  let summary = "x != x elementwise (Glow's IsNaN)";
  let arguments = (ins Glow_FloatTensor:$input);
  let results = (outs Glow_BoolTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Glow_SelectOp : Glow_Graph_Op<"select", [Pure, Elementwise,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "cond ? on_true : on_false elementwise (Glow's Select, ONNX Where)";
  let description = [{
    ```mlir
    %y = glow.graph.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Glow_BoolTensor:$cond, Glow_Tensor:$on_true, Glow_Tensor:$on_false);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$cond `,` $on_true `,` $on_false attr-dict `:` type($cond) `,` type($result)";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Glow_ReduceOp<string mnemonic, string summaryText>
    : Glow_Graph_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = summaryText;
  let description = [{
    Reduces `axes` (each once, negative counts from the back); with `keep_dims` the
    reduced dimensions stay as 1 (Glow's BatchedReduce* nodes, ONNX Reduce*).

    ```mlir
    %m = glow.graph.reduce_mean %x axes [2, 3] keep_dims : tensor<1x64x7x7xf32> -> tensor<1x64x1x1xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keep_dims);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = [{
    $input `axes` $axes (`keep_dims` $keep_dims^)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Glow_ReduceSumOp : Glow_ReduceOp<"reduce_sum", "sum over axes">;
def Glow_ReduceMeanOp : Glow_ReduceOp<"reduce_mean", "mean over axes">;
def Glow_ReduceMaxOp : Glow_ReduceOp<"reduce_max", "maximum over axes">;
def Glow_ReduceMinOp : Glow_ReduceOp<"reduce_min", "minimum over axes">;
def Glow_ReduceProdOp : Glow_ReduceOp<"reduce_prod", "product over axes">;

class Glow_ArgOp<string mnemonic, string summaryText>
    : Glow_Graph_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = summaryText;
  let description = [{
    Index (i64) of the extreme element along `axis`: the first occurrence on ties,
    the last with `select_last_index`.

    ```mlir
    %i = glow.graph.arg_max %x axis 1 : tensor<1x1000xf32> -> tensor<1xi64>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, I64Attr:$axis, UnitAttr:$keep_dims,
                       UnitAttr:$select_last_index);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat = [{
    $input `axis` $axis (`keep_dims` $keep_dims^)? (`select_last_index` $select_last_index^)?
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Glow_ArgMaxOp : Glow_ArgOp<"arg_max", "index of the maximum along an axis (Glow's ArgMax)">;
def Glow_ArgMinOp : Glow_ArgOp<"arg_min", "index of the minimum along an axis (Glow's ArgMin)">;

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def Glow_SoftMaxOp : Glow_Graph_Op<"softmax", [Pure, SameOperandsAndResultType]> {
  let summary = "softmax along one axis (Glow's SoftMax)";
  let description = [{
    ```mlir
    %p = glow.graph.softmax %logits axis 1 : tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input (`axis` $axis^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Glow_CumSumOp : Glow_Graph_Op<"cumsum", [Pure, SameOperandsAndResultType]> {
  let summary = "running sum along one axis (ONNX CumSum)";
  let description = [{
    Element `i` along `axis` is the sum of elements `0..=i` (`0..i` with `exclusive`;
    counted from the end with `reverse`).

    ```mlir
    %y = glow.graph.cumsum %x axis 1 exclusive : tensor<2x8xi64>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, I64Attr:$axis, UnitAttr:$exclusive,
                       UnitAttr:$reverse);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = [{
    $input `axis` $axis (`exclusive` $exclusive^)? (`reverse` $reverse^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Glow_LogSoftMaxOp : Glow_Graph_Op<"log_softmax", [Pure, SameOperandsAndResultType]> {
  let summary = "log(softmax(x)) along one axis (Glow's LogSoftMax)";
  let description = [{
    ```mlir
    %p = glow.graph.log_softmax %logits axis 1 : tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = "$input (`axis` $axis^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Glow_LayerNormOp : Glow_Graph_Op<"layer_norm",
    [Pure, AllTypesMatch<["input", "result"]>, AllTypesMatch<["scale", "bias"]>]> {
  let summary = "normalizes the dimensions from `axis` on (Glow's LayerNormalization)";
  let description = [{
    y = (x - mean) / sqrt(var + epsilon) * scale + bias, mean and variance over
    dimensions `axis`..rank-1; `scale` and `bias` have exactly those dimensions.

    ```mlir
    %y = glow.graph.layer_norm %x, %g, %b axis 2 epsilon 9.99999974E-6
        : tensor<1x128x768xf32>, tensor<768xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, Glow_FloatTensor:$scale,
                       Glow_FloatTensor:$bias, DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias (`axis` $axis^)? (`epsilon` $epsilon^)? attr-dict
    `:` type($input) `,` type($scale)
  }];
  let hasVerifier = 1;
}

def Glow_LocalResponseNormOp : Glow_Graph_Op<"local_response_norm",
    [Pure, SameOperandsAndResultType]> {
  let summary = "normalization over `size` neighbouring channels (Glow's LocalResponseNormalization)";
  let description = [{
    y = x / (bias + alpha / size * sum of x^2 over channels c - floor((size-1)/2) ..
    c + ceil((size-1)/2)) ^ beta, channels on dimension 1 (ONNX LRN).

    ```mlir
    %y = glow.graph.local_response_norm %x size 5 alpha 9.99999974E-5 beta 7.500000e-01 bias 1.000000e+00
        : tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, I64Attr:$size,
                       DefaultValuedAttr<F32Attr, "1.0e-4">:$alpha,
                       DefaultValuedAttr<F32Attr, "0.75">:$beta,
                       DefaultValuedAttr<F32Attr, "1.0">:$bias);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = [{
    $input `size` $size (`alpha` $alpha^)? (`beta` $beta^)? (`bias` $bias^)? attr-dict
    `:` type($result)
  }];
  let hasVerifier = 1;
}

def Glow_InstanceNormOp : Glow_Graph_Op<"instance_norm",
    [Pure, AllTypesMatch<["input", "result"]>, AllTypesMatch<["scale", "bias"]>]> {
  let summary = "per-instance, per-channel normalization over the spatial dimensions (Glow's InstanceNormalization)";
  let description = [{
    y = (x - mean) / sqrt(var + epsilon) * scale[c] + bias[c], mean and variance over
    dimensions 2.. of each (n, c).

    ```mlir
    %y = glow.graph.instance_norm %x, %scale, %bias epsilon 9.99999974E-6
        : tensor<1x64x56x56xf32>, tensor<64xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, Glow_FloatTensor:$scale,
                       Glow_FloatTensor:$bias,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias (`epsilon` $epsilon^)? attr-dict `:` type($input) `,` type($scale)
  }];
  let hasVerifier = 1;
}

def Glow_BatchNormOp : Glow_Graph_Op<"batch_norm",
    [Pure, AllTypesMatch<["input", "result"]>,
     AllTypesMatch<["scale", "bias", "mean", "var"]>]> {
  let summary = "inference batch normalization (Glow's BatchNormalization)";
  let description = [{
    y = (x - mean) / sqrt(var + epsilon) * scale + bias, per channel along
    `channel` (1 for NCHW). `scale`, `bias`, `mean` and `var` are 1-D with one
    element per channel.

    ```mlir
    %y = glow.graph.batch_norm %x, %scale, %bias, %mean, %var epsilon 1.0e-05
        : tensor<1x64x56x56xf32>, tensor<64xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, Glow_FloatTensor:$scale,
                       Glow_FloatTensor:$bias, Glow_FloatTensor:$mean,
                       Glow_FloatTensor:$var,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon,
                       DefaultValuedAttr<I64Attr, "1">:$channel);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $var (`epsilon` $epsilon^)?
    (`channel` $channel^)? attr-dict `:` type($input) `,` type($scale)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape
//===----------------------------------------------------------------------===//

def Glow_ReshapeOp : Glow_Graph_Op<"reshape", [Pure]> {
  let summary = "same elements, new shape (Glow's Reshape)";
  let description = [{
    ```mlir
    %y = glow.graph.reshape %x : tensor<1x2048x1x1xf32> -> tensor<1x2048xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$input);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_BroadcastOp : Glow_Graph_Op<"broadcast", [Pure]> {
  let summary = "repeats a tensor along new or unit dimensions (Glow's Broadcast)";
  let description = [{
    Input dimension i lines up with result dimension `axis` + i and must be 1 or
    equal to it; result dimensions outside that window are new.

    ```mlir
    %y = glow.graph.broadcast %scale axis 1 : tensor<64x1x1xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$input, I64Attr:$axis);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$input `axis` $axis attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_TransposeOp : Glow_Graph_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "permutes dimensions: result dim i is input dim perm[i] (Glow's Transpose)";
  let description = [{
    ```mlir
    %y = glow.graph.transpose %x perm [0, 2, 3, 1] : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$input `perm` $perm attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_ConcatOp : Glow_Graph_Op<"concat", [Pure, InferTypeOpAdaptor]> {
  let summary = "joins tensors along dimension `dim` (Glow's Concat)";
  let description = [{
    ```mlir
    %y = glow.graph.concat %a, %b dim 1
        : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Glow_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$inputs `dim` $dim attr-dict `:` functional-type($inputs, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_SliceOp : Glow_Graph_Op<"slice", [Pure]> {
  let summary = "the block of the result's shape starting at `start` (Glow's Slice)";
  let description = [{
    ```mlir
    %y = glow.graph.slice %x start [0, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$input, DenseI64ArrayAttr:$start);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$input `start` $start attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_PadOp : Glow_Graph_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "constant padding (Glow's Pad)";
  let description = [{
    `pads` holds the amounts before every dimension, then after every dimension
    (ONNX order); `value` fills them.

    ```mlir
    %y = glow.graph.pad %x pads [0, 0, 1, 1, 0, 0, 1, 1] value 0.000000e+00 : f32
        : tensor<1x3x8x8xf32> -> tensor<1x3x10x10xf32>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, DenseI64ArrayAttr:$pads,
                       TypedAttrInterface:$value);
  let results = (outs Glow_NumericTensor:$result);
  let assemblyFormat = [{
    $input `pads` $pads `value` $value attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Glow_TileOp : Glow_Graph_Op<"tile", [Pure, InferTypeOpAdaptor]> {
  let summary = "repeats the input `repeats[i]` times along dimension i (Glow's Tile)";
  let description = [{
    ```mlir
    %y = glow.graph.tile %x repeats [1, 3] : tensor<2x4xf32> -> tensor<2x12xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$input `repeats` $repeats attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Glow_ConvertOp : Glow_Graph_Op<"convert", [Pure, Elementwise]> {
  let summary = "changes the element type, same shape (Glow's ConvertTo, ONNX Cast)";
  let description = [{
    ```mlir
    %y = glow.graph.convert %x : tensor<4xi64> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$input);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Glow_BitcastOp : Glow_Graph_Op<"bitcast", [Pure, Elementwise]> {
  let summary = "reinterprets each element's bits as another type of the same width (ONNX BitCast)";
  let description = [{
    Same shape; the two element types have the same bit width, a boolean counting as
    the byte it is stored in (a boolean read from a byte is true when the byte is not
    zero). Unlike `convert`, no value is converted: 1.0 as f32 is 1065353216 as i32.

    ```mlir
    %y = glow.graph.bitcast %x : tensor<4xf32> -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$input);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Glow_GatherOp : Glow_Graph_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "picks slices of `data` along `axis` at `indices` (Glow's Gather)";
  let description = [{
    Result shape: data[:axis] + indices + data[axis+1:]; negative indices count from
    the end of the axis (ONNX Gather).

    ```mlir
    %e = glow.graph.gather %table, %ids axis 0 : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$data, StaticShapeTensorOf<[I32, I64]>:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices (`axis` $axis^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Glow_GatherElementsOp : Glow_Graph_Op<"gather_elements", [Pure]> {
  let summary = "result[i] = data[i with dimension `axis` replaced by indices[i]] (Glow's GatherElements)";
  let description = [{
    `indices` has the data's rank and, except along `axis`, dimensions no larger
    than the data's; the result has the indices' shape.

    ```mlir
    %y = glow.graph.gather_elements %x, %i axis 1 : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$data, StaticShapeTensorOf<[I32, I64]>:$indices, I64Attr:$axis);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `axis` $axis attr-dict `:` type($data) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Glow_ScatterElementsOp : Glow_Graph_Op<"scatter_elements", [Pure,
    AllTypesMatch<["data", "result"]>]> {
  let summary = "data with updates written at indices along `axis` (Glow's ScatterData, ONNX ScatterElements)";
  let description = [{
    `indices` and `updates` have one shape, of the data's rank; `reduction` is
    none, add, mul, max or min (ONNX's attribute).

    ```mlir
    %y = glow.graph.scatter_elements %x, %i, %u axis 0 reduction "add"
        : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Glow_Tensor:$data, StaticShapeTensorOf<[I32, I64]>:$indices,
                       Glow_Tensor:$updates, I64Attr:$axis,
                       DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs Glow_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates `axis` $axis (`reduction` $reduction^)? attr-dict
    `:` type($data) `,` type($indices) `,` type($updates)
  }];
  let hasVerifier = 1;
}

def Glow_TopKOp : Glow_Graph_Op<"top_k", [Pure, InferTypeOpAdaptor]> {
  let summary = "the k largest (or smallest) elements along `axis` and their indices (Glow's TopK)";
  let description = [{
    ```mlir
    %v, %i = glow.graph.top_k %x k 5 axis 1 : tensor<1x1000xf32> -> tensor<1x5xf32>, tensor<1x5xi64>
    ```
  }];
  let arguments = (ins Glow_NumericTensor:$input, I64Attr:$k, I64Attr:$axis,
                       UnitAttr:$smallest);
  let results = (outs Glow_NumericTensor:$values, StaticShapeTensorOf<[I64]>:$indices);
  let assemblyFormat = [{
    $input `k` $k `axis` $axis (`smallest` $smallest^)? attr-dict `:` type($input) `->`
    type($values) `,` type($indices)
  }];
  let hasVerifier = 1;
}

def Glow_ResizeOp : Glow_Graph_Op<"resize", [Pure]> {
  let summary = "nearest, (bi)linear or (bi)cubic resampling to the result's shape (Glow's ResizeNearest/ResizeBilinear, ONNX Resize)";
  let description = [{
    Every dimension is resampled with its `scales` entry (default: out / in), as
    ONNX Resize: output coordinate o maps to the input coordinate
    - `half_pixel`: (o + 0.5) / scale - 0.5
    - `half_pixel_symmetric`: the same, shifted so the result stays centred
    - `pytorch_half_pixel`: half_pixel, or 0 when the output dimension is 1
    - `align_corners`: o * (in - 1) / (out - 1), or 0 when out is 1
    - `asymmetric`: o / scale
    - `tf_crop_and_resize`: within the `roi` crop (start..., end... as fractions of
      in - 1); outside the input, `extrapolation_value`.

    `nearest` rounds the coordinate by `nearest_mode` (round_prefer_floor,
    round_prefer_ceil, floor, ceil); `linear` interpolates between the two
    neighbours, `cubic` between four with Keys' coefficient `cubic_coeff_a`
    (`exclude_outside` drops taps outside the input and renormalizes). Neighbours
    outside the input repeat the edge.

    ```mlir
    %y = glow.graph.resize %x mode "linear" coordinates "half_pixel"
        : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
    %z = glow.graph.resize %x mode "nearest" coordinates "asymmetric" nearest_mode "floor"
        scales [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
    ```
  }];
  let arguments = (ins Glow_FloatTensor:$input, StrAttr:$mode, StrAttr:$coordinates,
                       DefaultValuedStrAttr<StrAttr, "round_prefer_floor">:$nearest_mode,
                       OptionalAttr<DenseF64ArrayAttr>:$scales,
                       OptionalAttr<DenseF64ArrayAttr>:$roi,
                       DefaultValuedAttr<F64Attr, "-0.75">:$cubic_coeff_a,
                       UnitAttr:$exclude_outside,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value);
  let results = (outs Glow_FloatTensor:$result);
  let assemblyFormat = [{
    $input `mode` $mode `coordinates` $coordinates (`nearest_mode` $nearest_mode^)?
    (`scales` custom<ExactFloats>($scales)^)? (`roi` custom<ExactFloats>($roi)^)?
    (`cubic_coeff_a` $cubic_coeff_a^)?
    (`exclude_outside` $exclude_outside^)? (`extrapolation_value` $extrapolation_value^)?
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  // `scales` / `roi` print through printFloat: MLIR 22's stripped form of
  // array<f64: ...> writes only 6 digits, which does not read back exactly.
}

#endif // GLOW_GRAPH_OPS
