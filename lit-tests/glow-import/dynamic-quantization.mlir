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
// CHECK: %[[Z:.*]] = glow.graph.convert %{{.*}} : tensor<1xui8> -> tensor<1xi32>
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
// weights, centred on their zero points, as two int8 halves (twice the packed rows).
// RUN: glow-import %t.onnx | glow-opt --glow-cpu-pipeline -o /dev/null --mlir-print-ir-after=glow-quant-kernels 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL-DAG: arith.constant dense_resource<packed{{.*}}> : tensor<1x2x64xi8>
// KERNEL-DAG: arith.constant dense_resource<packed{{.*}}> : tensor<1x4x64xi8>
// KERNEL-DAG: func.func private @glow_int8_kernel_1({{.*}}) -> tensor<1x1x10x16xi32>
// KERNEL-DAG: func.func private @glow_int8_kernel_2({{.*}}) -> tensor<1x1x10x16xi32>

// An MLP quantized by onnxruntime's own quantize_dynamic: the same output.
// RUN: %python %S/Inputs/dynamic_quantization.py quantized %t.mlp.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.mlp.onnx --input-shape x=2x7x16 --tolerance 0 --bin %glow_bin | FileCheck %s --check-prefix=MLP
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.mlp.onnx --input-shape x=2x7x16 --tolerance 0 --bin %glow_bin --seed 1 | FileCheck %s --check-prefix=MLP
// MLP: output y: 112 values, max |glow - ort| = 0,
// MLP: PASS

// A convolution with a run-time input zero point: one line, exit 1, no output file.
// RUN: %python %S/Inputs/dynamic_quantization.py conv %t.conv.onnx
// RUN: rm -f %t.conv.mlir
// RUN: not glow-import %t.conv.onnx -o %t.conv.mlir 2>&1 | FileCheck %s --check-prefix=CONV
// RUN: not test -e %t.conv.mlir
// CONV: glow-import: error: node 'conv' (ConvInteger): a run-time input zero point (DynamicQuantizeLinear's) is not supported for convolutions; quantize them statically (glow-run --calibration, or onnxruntime's quantize_static)
// CONV-NOT: panicked
