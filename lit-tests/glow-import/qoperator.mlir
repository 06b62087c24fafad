// onnxruntime's QOperator format: its com.microsoft integer ops come back in QDQ form
// when the model is loaded (DequantizeLinear per operand, the float op, QuantizeLinear
// with the output's parameters), and standard ops that run on the quantized integers
// (MaxPool, Transpose, Reshape) keep their input's parameters; glow-quantization-folding
// then makes integer compute of them, as for QDQ models.
// RUN: %python %S/Inputs/qoperator.py contrib %t.onnx
// RUN: glow-import %t.onnx --no-locations | FileCheck %s --check-prefix=IMPORT
// IMPORT-LABEL: func.func @main
// QLinearAdd (after QLinearMul's quantize): both operands dequantized, a float add,
// quantized to the output's parameters.
// IMPORT: glow.quant.quantize %{{.*}} -> tensor<1x8x6x6x!quant.uniform<u8:f32, {{.*}}:40>>
// IMPORT-NEXT: %[[A:.*]] = glow.quant.dequantize %{{.*}} : tensor<1x8x6x6x!quant.uniform<u8:f32, {{.*}}:60>> -> tensor<1x8x6x6xf32>
// IMPORT-NEXT: %[[B:.*]] = glow.quant.dequantize %{{.*}} : tensor<1x8x6x6x!quant.uniform<u8:f32, {{.*}}:110>> -> tensor<1x8x6x6xf32>
// IMPORT-NEXT: %[[S:.*]] = glow.graph.add %[[A]], %[[B]] : tensor<1x8x6x6xf32>
// IMPORT-NEXT: glow.quant.quantize %[[S]] : tensor<1x8x6x6xf32> -> tensor<1x8x6x6x!quant.uniform<u8:f32, {{.*}}:100>>
// MaxPool on quantized integers: the same parameters before and after.
// IMPORT: glow.graph.max_pool %{{.*}} kernel [2, 2] strides [2, 2] : tensor<1x8x6x6xf32> -> tensor<1x8x3x3xf32>
// IMPORT-NEXT: glow.quant.quantize %{{.*}} : tensor<1x8x3x3xf32> -> tensor<1x8x3x3x!quant.uniform<u8:f32, {{.*}}:100>>
// QLinearGlobalAveragePool with channels_last = 1: transposes around the NCHW pool.
// IMPORT: glow.graph.transpose %{{.*}} perm [0, 3, 1, 2] : tensor<1x3x3x16xf32> -> tensor<1x16x3x3xf32>
// IMPORT-NEXT: glow.graph.avg_pool %{{.*}} kernel [3, 3] : tensor<1x16x3x3xf32> -> tensor<1x16x1x1xf32>
// IMPORT-NEXT: glow.graph.transpose %{{.*}} perm [0, 2, 3, 1] : tensor<1x16x1x1xf32> -> tensor<1x1x1x16xf32>
// QGemm: Gemm on the dequantized operands (per-column weights) and the int32 bias in
// units of a_scale * b_scale, quantized to the output's parameters; without an
// output scale the result stays float (alpha = 0.5 folded into float constants).
// IMPORT: glow.quant.dequantize %{{.*}} : tensor<16x10x!quant.uniform<i8:f32:1, {{.*}}>> -> tensor<16x10xf32>
// IMPORT: glow.quant.dequantize %{{.*}} : tensor<10x!quant.uniform<i32:f32:0, {{.*}}>> -> tensor<10xf32>
// IMPORT-NEXT: %[[FC:.*]] = glow.graph.fully_connected %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x16xf32>, tensor<16x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
// IMPORT-NEXT: glow.quant.quantize %[[FC]] : tensor<1x10xf32> -> tensor<1x10x!quant.uniform<u8:f32, {{.*}}:128>>
// IMPORT: %[[W:.*]] = glow.graph.constant dense_resource<{{.*}}> : tensor<16x10xf32>
// IMPORT-NEXT: %[[B:.*]] = glow.graph.constant dense<{{.*}}> : tensor<10xf32>
// IMPORT-NEXT: glow.graph.fully_connected %{{.*}}, %[[W]], %[[B]]

// After folding, the contrib ops are integer compute: add, mul, the sigmoid lookup
// table, the pools and the fully connected layer; softmax and where stay float
// islands, the leaky ReLU too (only sigmoid and tanh have lookup tables).
// RUN: glow-import %t.onnx --no-locations | glow-opt --pass-pipeline='builtin.module(func.func(glow-quantization-folding,glow-graph-optimize),cse)' | FileCheck %s --check-prefix=FOLDED
// FOLDED: glow.quant.conv2d
// FOLDED: glow.graph.leaky_relu
// FOLDED: glow.quant.lookup_table
// FOLDED: glow.quant.mul
// FOLDED: glow.quant.add
// FOLDED: glow.quant.add
// FOLDED: glow.graph.max_pool {{.*}} -> tensor<1x8x3x3x!quant.uniform
// FOLDED: glow.quant.avg_pool {{.*}} pads [1, 1, 1, 1] count_include_pad
// FOLDED: glow.graph.concat {{.*}} -> tensor<1x16x3x3x!quant.uniform
// FOLDED: glow.quant.avg_pool
// FOLDED: glow.quant.fully_connected
// FOLDED: glow.graph.softmax
// FOLDED: glow.graph.select
// FOLDED: glow.graph.gather
// FOLDED: glow.quant.add

// Run against onnxruntime's own kernels for these ops, three random inputs (the Gather
// reads a uint8 table stored as a dense_resource blob). Every output is equal up to
// float rounding, except that onnxruntime's QLinearSoftmax is a lookup table that can
// be one step of 1/256 off the exact softmax, which glow computes: bound 1e-2.
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x4x6x6 --input-shape keep=1x10 --input-shape ids=1 --int-high 64 --tolerance 1e-2 --bin %glow_bin | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x4x6x6 --input-shape keep=1x10 --input-shape ids=1 --int-high 64 --tolerance 1e-2 --bin %glow_bin --seed 1 | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x4x6x6 --input-shape keep=1x10 --input-shape ids=1 --int-high 64 --tolerance 1e-2 --bin %glow_bin --seed 2 --via-mlir | FileCheck %s --check-prefix=EXEC
// EXEC-DAG: output probs: 10 values
// EXEC-DAG: output float_logits: 10 values
// EXEC-DAG: output pooled_nhwc: 16 values
// EXEC-DAG: output shifted_logits: 10 values
// EXEC: PASS

// A model quantized by onnxruntime's quantize_static in QOperator format (QLinearConv,
// QLinearMatMul on 3-D x 2-D and 3-D x 3-D operands, QLinearAdd / Mul / Sigmoid,
// QLinearSoftmax, QGemm, MaxPool and Reshape / Transpose on quantized integers):
// glow's output equals onnxruntime's.
// RUN: %python %S/Inputs/qoperator.py quantized %t.quantized.onnx
// RUN: glow-import %t.quantized.onnx --list-unsupported | FileCheck %s --check-prefix=SUPPORTED
// SUPPORTED: every op of the model is supported
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.quantized.onnx --input-shape x=1x3x16x16 --tolerance 1e-6 --check-top1 --bin %glow_bin | FileCheck %s --check-prefix=ORT-QUANTIZED
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.quantized.onnx --input-shape x=1x3x16x16 --tolerance 1e-6 --check-top1 --bin %glow_bin --seed 1 | FileCheck %s --check-prefix=ORT-QUANTIZED
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.quantized.onnx --input-shape x=1x3x16x16 --tolerance 1e-6 --check-top1 --bin %glow_bin --seed 2 | FileCheck %s --check-prefix=ORT-QUANTIZED
// ORT-QUANTIZED: output logits: top-1 equal
// ORT-QUANTIZED: PASS

// A QLinearSoftmax of opset 11 in an opset-13 model: the old semantics (rows of the
// input flattened at axis 1), exact in glow; onnxruntime's lookup table is one step
// of 1/256 off on some values.
// RUN: %python %S/Inputs/qoperator.py softmax11 %t.softmax11.onnx
// RUN: glow-import %t.softmax11.onnx --no-locations | FileCheck %s --check-prefix=SOFTMAX11
// SOFTMAX11: glow.graph.reshape %{{.*}} : tensor<2x3x4xf32> -> tensor<2x12xf32>
// SOFTMAX11-NEXT: glow.graph.softmax %{{.*}} axis 1 : tensor<2x12xf32>
// SOFTMAX11-NEXT: glow.graph.reshape %{{.*}} : tensor<2x12xf32> -> tensor<2x3x4xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.softmax11.onnx --input-shape x=2x3x4 --tolerance 2e-2 --bin %glow_bin | FileCheck %s --check-prefix=EXEC11
// EXEC11: PASS

// A contrib op without its output scale: one line naming the node, exit 1, no file.
// RUN: %python %S/Inputs/qoperator.py short %t.short.onnx
// RUN: rm -f %t.short.mlir
// RUN: not glow-import %t.short.onnx -o %t.short.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not test -e %t.short.mlir
// SHORT: glow-import: error: node 'add' (com.microsoft.QLinearAdd): 5 inputs; this op needs at least 7
// SHORT-NOT: panicked
