// Dynamic quantization (onnxruntime's quantize_dynamic): DynamicQuantizeLinear is its
// ONNX function body (reductions for the range, the scale and zero point computed at
// run time, rounding to even, clamping to uint8); MatMulInteger with the run-time zero
// point is the exact int32 product with zero point 0 (glow.quant.fully_connected, the
// integer kernels' form) minus zero point x the weights' column sums, computed at
// import time.
// RUN: %python %S/Inputs/dynamic_quantization.py ops %t.onnx
// RUN: glow-import %t.onnx --no-locations | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: %[[MAX:.*]] = glow.graph.reduce_max %arg0 axes [0, 1, 2] : tensor<2x5x8xf32> -> tensor<f32>
// CHECK: glow.graph.round
// CHECK: glow.graph.convert %{{.*}} : tensor<2x5x8xf32> -> tensor<2x5x8xui8>
// CHECK: %[[P:.*]] = glow.quant.fully_connected %{{.*}}, %{{.*}} : (tensor<10x8x!quant.uniform<u8:f32, 1.000000e+00>>, tensor<8x6x!quant.uniform<i8:f32, 1.000000e+00>>) -> tensor<10x6x!quant.uniform<i32:f32, 1.000000e+00>>
// CHECK: %[[Z:.*]] = glow.graph.convert %{{.*}} : tensor<ui8> -> tensor<i32>
// CHECK: %[[S:.*]] = glow.graph.constant dense<[{{.*}}]> : tensor<6xi32>
// CHECK: glow.graph.mul %{{.*}}, %{{.*}} : tensor<6xi32>
// CHECK: glow.graph.sub %{{.*}}, %{{.*}} : tensor<2x5x6xi32>

// Every output, the int32 accumulators and the quantized bytes, scale and zero point
// included, equals onnxruntime's exactly (also through the text form); an all-zero
// input gets scale 1 and zero point 0, as onnxruntime gives them.
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=2x5x8 --tolerance 0 --bin %glow_bin | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=2x5x8 --tolerance 0 --bin %glow_bin --seed 1 | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=2x5x8 --tolerance 0 --bin %glow_bin --seed 2 --via-mlir | FileCheck %s --check-prefix=EXACT
// EXACT: output hidden: 60 values, max |glow - ort| = 0,
// EXACT: output hidden_u: 60 values, max |glow - ort| = 0,
// EXACT: output acc8: 60 values, max |glow - ort| = 0,
// EXACT: output xq: 80 values, max |glow - ort| = 0,
// EXACT: output z_scale: 1 values, max |glow - ort| = 0, max |ort| = 1,
// EXACT: PASS

// Both products run on the integer micro-kernels with an int32 result; the uint8
// weights, whose centred values leave int8, offset by 128 (one packed row per quad)
// with each filter's factor 128 - zero point after its bias in the int32 operand.
// RUN: glow-import %t.onnx | glow-opt --glow-cpu-pipeline -o /dev/null --mlir-print-ir-after=glow-quant-kernels 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL-DAG: arith.constant dense_resource<packed{{.*}}> : tensor<1x2x64xi8>
// KERNEL-DAG: arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {{(-?[0-9]+, )+}}0]> : tensor<32xi32>
// KERNEL-DAG: func.func private @glow_int8_kernel_1({{.*}}: tensor<16xi32>, {{.*}}) -> tensor<1x1x10x16xi32>
// KERNEL-DAG: func.func private @glow_int8_kernel_2({{.*}}: tensor<32xi32>, {{.*}}) -> tensor<1x1x10x16xi32>

// An MLP quantized by onnxruntime's own quantize_dynamic: the same output.
// RUN: %python %S/Inputs/dynamic_quantization.py quantized %t.mlp.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.mlp.onnx --input-shape x=2x7x16 --tolerance 0 --bin %glow_bin | FileCheck %s --check-prefix=MLP
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.mlp.onnx --input-shape x=2x7x16 --tolerance 0 --bin %glow_bin --seed 1 | FileCheck %s --check-prefix=MLP
// MLP: output y: 112 values, max |glow - ort| = 0,
// MLP: PASS

// ConvInteger with a run-time input zero point (onnxruntime's quantize_dynamic of a
// CNN): x padded with that zero point (x - zero point, zero padding, + zero point, in
// wrapping 8-bit arithmetic: x inside, the zero point on the border), the unpadded
// integer convolution with zero point 0, minus zero point x each filter's sum (a
// constant).
// RUN: %python %S/Inputs/dynamic_quantization.py conv-uint8 %t.conv.onnx
// RUN: glow-import %t.conv.onnx --no-locations | FileCheck %s --check-prefix=CONV
// CONV: %[[ZX:.*]] = glow.graph.convert %{{.*}} : tensor<f32> -> tensor<ui8>
// CONV: %[[SHIFTED:.*]] = glow.graph.sub %{{.*}}, %{{.*}} : tensor<1x32x10x9xui8>
// CONV: %[[PADDED:.*]] = glow.graph.pad %[[SHIFTED]] pads [0, 0, 1, 1, 0, 0, 1, 1] value 0 : ui8 : tensor<1x32x10x9xui8> -> tensor<1x32x12x11xui8>
// CONV: glow.graph.add %[[PADDED]], %{{.*}} : tensor<1x32x12x11xui8>
// CONV: %[[ACC:.*]] = glow.quant.conv2d %{{.*}}, %{{.*}} : (tensor<1x32x12x11x!quant.uniform<u8:f32, 1.000000e+00>>, tensor<24x32x3x3x!quant.uniform<u8:f32, 1.000000e+00:{{[0-9]+}}>>) -> tensor<1x24x10x9x!quant.uniform<i32:f32, 1.000000e+00>>
// CONV: %[[SUMS:.*]] = glow.graph.constant dense<{{.*}}> : tensor<1x24x1x1xi32>
// CONV: glow.graph.sub %{{.*}}, %{{.*}} : tensor<1x24x10x9xi32>

// uint8 weights: every layer equals onnxruntime's exactly (also through the text form).
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.conv.onnx --input-shape x=1x32x10x9 --tolerance 0 --bin %glow_bin | FileCheck %s --check-prefix=CONV-EXACT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.conv.onnx --input-shape x=1x32x10x9 --tolerance 0 --bin %glow_bin --seed 1 --via-mlir | FileCheck %s --check-prefix=CONV-EXACT
// CONV-EXACT: output dense: 2160 values, max |glow - ort| = 0,
// CONV-EXACT: output strided: 400 values, max |glow - ort| = 0,
// CONV-EXACT: output pointwise: 1440 values, max |glow - ort| = 0,
// CONV-EXACT: output uneven: 1440 values, max |glow - ort| = 0,
// CONV-EXACT: output depthwise: 2880 values, max |glow - ort| = 0,
// CONV-EXACT: output depthwise_s2: 800 values, max |glow - ort| = 0,
// CONV-EXACT: output grouped: 720 values, max |glow - ort| = 0,
// CONV-EXACT: PASS

// int8 weights (onnxruntime's default for quantize_dynamic, for which it has no
// ConvInteger kernel): every layer equals ONNX's reference evaluator's.
// RUN: %python %S/Inputs/dynamic_quantization.py conv-int8 %t.conv8.onnx
// RUN: %python %S/Inputs/dynamic_quantization.py check-reference %t.conv8.onnx %glow_bin 0 | FileCheck %s --check-prefix=CONV-REF
// RUN: %python %S/Inputs/dynamic_quantization.py check-reference %t.conv8.onnx %glow_bin 1 | FileCheck %s --check-prefix=CONV-REF
// CONV-REF: output dense: 2160 values, max |glow - reference| = 0
// CONV-REF: output strided: 400 values, max |glow - reference| = 0
// CONV-REF: output pointwise: 1440 values, max |glow - reference| = 0
// CONV-REF: output uneven: 1440 values, max |glow - reference| = 0
// CONV-REF: output depthwise: 2880 values, max |glow - reference| = 0
// CONV-REF: output depthwise_s2: 800 values, max |glow - reference| = 0
// CONV-REF: output grouped: 720 values, max |glow - reference| = 0

// Every layer runs on the int8 micro-kernels with an int32 result: dense, depthwise,
// and the grouped one (8 channels per group) as one group's kernel in a loop.
// RUN: glow-import %t.conv.onnx | glow-opt --glow-cpu-pipeline -o /dev/null --mlir-print-ir-after=glow-quant-kernels 2>&1 | FileCheck %s --check-prefix=CONV-KERNEL
// CONV-KERNEL-COUNT-6: func.func private @glow_int8_kernel_{{[0-9]+}}({{.*}}) -> tensor<{{.*}}xi32>
// CONV-KERNEL: func.func private @glow_int8_kernel_{{[0-9]+}}_group({{.*}}) -> tensor<1x10x9x16xi32>
// CONV-KERNEL: func.func private @glow_int8_kernel_{{[0-9]+}}({{.*}}) -> tensor<1x10x9x8xi32>
// CONV-KERNEL-NOT: func.func private @glow_int8_kernel

// Edge zero points (an all-positive input: 0; all-negative: 255) wrap back exactly.
// RUN: %python %S/Inputs/dynamic_quantization.py check-reference %t.conv.onnx %glow_bin positive | FileCheck %s --check-prefix=CONV-REF
// RUN: %python %S/Inputs/dynamic_quantization.py check-reference %t.conv8.onnx %glow_bin negative | FileCheck %s --check-prefix=CONV-REF

// Pads that make the result larger than --max-tensor-bytes: one line, exit 1.
// RUN: %python %S/Inputs/dynamic_quantization.py conv-huge-pads %t.convp.onnx
// RUN: not glow-import %t.convp.onnx -o %t.convp.mlir 2>&1 | FileCheck %s --check-prefix=CONV-PADS
// RUN: not test -e %t.convp.mlir
// CONV-PADS: glow-import: error: node 'conv' (ConvInteger): output 'y': a I32 tensor of shape [1, 4, 200006, 200006] would hold 640038400576 bytes, over the limit of 4294967296 (--max-tensor-bytes)

// A filter given at run time cannot have its sums computed: one line, exit 1, no
// output file.
// RUN: %python %S/Inputs/dynamic_quantization.py conv-runtime-filter %t.convw.onnx
// RUN: rm -f %t.convw.mlir
// RUN: not glow-import %t.convw.onnx -o %t.convw.mlir 2>&1 | FileCheck %s --check-prefix=CONV-FILTER
// RUN: not test -e %t.convw.mlir
// CONV-FILTER: glow-import: error: node 'conv' (ConvInteger): with a run-time input zero point, the filter (input #1, 'w') must be a constant
// CONV-FILTER-NOT: panicked

// A run-time input zero point per channel, or of another type than the input: one
// line, exit 1, no output file.
// RUN: %python %S/Inputs/dynamic_quantization.py conv-zero-point-per-channel %t.convz.onnx
// RUN: %python %S/Inputs/dynamic_quantization.py conv-zero-point-int8 %t.convt.onnx
// RUN: rm -f %t.convz.mlir %t.convt.mlir
// RUN: not glow-import %t.convz.onnx -o %t.convz.mlir 2>&1 | FileCheck %s --check-prefix=CONV-ZP
// RUN: not glow-import %t.convt.onnx -o %t.convt.mlir 2>&1 | FileCheck %s --check-prefix=CONV-ZP-TYPE
// RUN: not test -e %t.convz.mlir
// RUN: not test -e %t.convt.mlir
// CONV-ZP: glow-import: error: node 'conv' (ConvInteger): a run-time zero point of shape [3]: only one per tensor is supported
// CONV-ZP-TYPE: glow-import: error: node 'conv' (ConvInteger): a zero point of type I8 for an operand of type U8
// CONV-ZP-TYPE-NOT: panicked
