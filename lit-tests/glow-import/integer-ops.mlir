// ONNX's integer operators (onnxruntime's QOperator format) become glow.quant compute:
// QLinearConv / QLinearMatMul keep their operands' and result's quantization (per-channel
// int8 weights, an int32 bias in units of x_scale * w_scale); ConvInteger and
// MatMulInteger are the same ops with unit scales and an exact int32 result.
// RUN: %python %S/Inputs/models.py integer-ops %t.onnx
// RUN: glow-import %t.onnx --no-locations | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<1x4x6x4x!quant.uniform<u8:f32, 0.15000000596046448:100>> {glow.name = "conv"}, tensor<2x5x!quant.uniform<u8:f32, 0.30000001192092896:7>> {glow.name = "matmul"}, tensor<1x4x2x5xi32> {glow.name = "conv_int"}, tensor<2x5xi32> {glow.name = "matmul_int"})
// CHECK: quant.scast %{{.*}} : tensor<4x3x3x3xi8> to tensor<4x3x3x3x!quant.uniform<i8:f32:0, {0.0099999997764825821,0.019999999552965164,0.004999999888241291,0.029999999329447746}>>
// CHECK: quant.scast %{{.*}} : tensor<4xi32> to tensor<4x!quant.uniform<i32:f32:0, {1.9999999494757503E-4,3.9999998989515007E-4,9.9999997473787516E-5,5.9999997029080987E-4}>>
// CHECK: glow.quant.conv2d %{{.*}}, %{{.*}}, %{{.*}} strides [1, 2] pads [1, 1, 1, 1]
// CHECK: glow.quant.fully_connected {{.*}} -> tensor<2x5x!quant.uniform<u8:f32, 0.30000001192092896:7>>
// CHECK: glow.quant.conv2d {{.*}} dilations [2, 1] : (tensor<1x3x6x7x!quant.uniform<u8:f32, 1.000000e+00:120>>, tensor<4x3x3x3x!quant.uniform<u8:f32, 1.000000e+00:130>>) -> tensor<1x4x2x5x!quant.uniform<i32:f32, 1.000000e+00>>
// CHECK: quant.scast %{{.*}} : tensor<1x4x2x5x!quant.uniform<i32:f32, 1.000000e+00>> to tensor<1x4x2x5xi32>
// CHECK: glow.quant.fully_connected {{.*}} -> tensor<2x5x!quant.uniform<i32:f32, 1.000000e+00>>

// Integer results equal onnxruntime's exactly, on three random uint8 inputs.
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x3x6x7 --input-shape a=2x6 --int-high 256 --tolerance 0 --bin %glow_bin | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x3x6x7 --input-shape a=2x6 --int-high 256 --tolerance 0 --bin %glow_bin --seed 1 | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x3x6x7 --input-shape a=2x6 --int-high 256 --tolerance 0 --bin %glow_bin --seed 2 --via-mlir | FileCheck %s --check-prefix=EXACT
// EXACT: output conv: 96 values, max |glow - ort| = 0
// EXACT: output matmul: 10 values, max |glow - ort| = 0
// EXACT: output conv_int: 40 values, max |glow - ort| = 0
// EXACT: output matmul_int: 10 values, max |glow - ort| = 0
// EXACT: PASS

// Bad parameters: one line, non-zero exit.
// RUN: %python %S/Inputs/models.py integer-zero-scale %t.zero.onnx
// RUN: not glow-import %t.zero.onnx 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: scale 0 is not a positive finite number
// ZERO-NOT: panicked
