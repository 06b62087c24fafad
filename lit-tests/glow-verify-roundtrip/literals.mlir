// Every literal a Glow op holds prints in a form that reads back to the same bits
// (--verify-roundtrip: custom text, generic text and portable bytecode, compared bit
// for bit): splats of inf / -inf / NaN payloads / -0.0 / denormals in f16, bf16, f32,
// f64, integer extremes, and resize's f64 scales, which MLIR 22's stripped
// array<f64: ...> printer would cut to 6 digits.
// RUN: glow-opt %s --verify-roundtrip | FileCheck %s
// RUN: glow-opt %s --verify-roundtrip --mlir-print-op-generic | glow-opt --verify-roundtrip | FileCheck %s
// RUN: glow-opt %s --emit-bytecode -o %t.mlirbc && glow-opt %t.mlirbc --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func.func @floats
func.func @floats() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK: glow.graph.splat 0xFF800000 : tensor<2xf32>
  %0 = glow.graph.splat 0xFF800000 : tensor<2xf32>
  // CHECK: glow.graph.splat 0x7F800000 : tensor<2xf32>
  %1 = glow.graph.splat 0x7F800000 : tensor<2xf32>
  // A NaN with a payload keeps it.
  // CHECK: glow.graph.splat 0x7FC00123 : tensor<2xf32>
  %2 = glow.graph.splat 0x7FC00123 : tensor<2xf32>
  // CHECK: glow.graph.splat -0.000000e+00 : tensor<2xf32>
  %3 = glow.graph.splat -0.0 : tensor<2xf32>
  // The smallest denormal, and a decimal that needs all 9 digits.
  // CHECK: glow.graph.splat 1.401300e-45 : tensor<2xf32>
  %4 = glow.graph.splat 1.401298464e-45 : tensor<2xf32>
  // CHECK: glow.graph.splat 1.41421354 : tensor<2xf32>
  %5 = glow.graph.splat 1.41421354 : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @other_widths
func.func @other_widths() -> (tensor<2xf16>, tensor<2xbf16>, tensor<2xf64>, tensor<2xf64>, tensor<2xf16>) {
  // CHECK: glow.graph.splat 0xFC00 : tensor<2xf16>
  %0 = glow.graph.splat 0xFC00 : tensor<2xf16>
  // CHECK: glow.graph.splat 0xFF81 : tensor<2xbf16>
  %1 = glow.graph.splat 0xFF81 : tensor<2xbf16>
  // CHECK: glow.graph.splat 4.940660e-324 : tensor<2xf64>
  %2 = glow.graph.splat 0x0000000000000001 : tensor<2xf64>
  // CHECK: glow.graph.splat 1.000000e-01 : tensor<2xf64>
  %3 = glow.graph.splat 0.1 : tensor<2xf64>
  // A decimal is rounded once, in the element type.
  // CHECK: glow.graph.splat 6.550400e+04 : tensor<2xf16>
  %4 = glow.graph.splat 65504.0 : tensor<2xf16>
  return %0, %1, %2, %3, %4 : tensor<2xf16>, tensor<2xbf16>, tensor<2xf64>, tensor<2xf64>, tensor<2xf16>
}

// CHECK-LABEL: func.func @integers
func.func @integers() -> (tensor<2xi64>, tensor<2xi64>, tensor<2xui8>, tensor<2xi8>) {
  // CHECK: glow.graph.splat -9223372036854775808 : tensor<2xi64>
  %0 = glow.graph.splat -9223372036854775808 : tensor<2xi64>
  // CHECK: glow.graph.splat 9223372036854775807 : tensor<2xi64>
  %1 = glow.graph.splat 9223372036854775807 : tensor<2xi64>
  // CHECK: glow.graph.splat 255 : tensor<2xui8>
  %2 = glow.graph.splat 255 : tensor<2xui8>
  // CHECK: glow.graph.splat -128 : tensor<2xi8>
  %3 = glow.graph.splat -128 : tensor<2xi8>
  return %0, %1, %2, %3 : tensor<2xi64>, tensor<2xi64>, tensor<2xui8>, tensor<2xi8>
}

// CHECK-LABEL: func.func @resize_scales
func.func @resize_scales(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x4x4xf32> {
  // CHECK: scales [1.000000e+00, 1.000000e+00, 0.80000001192092896, 0.80000001192092896]
  %0 = glow.graph.resize %x mode "linear" coordinates "half_pixel" scales [1.0, 1.0, 0.80000001192092896, 0.80000001192092896] : tensor<1x1x5x5xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}
