// Round trip of every glow.quant op on upstream !quant.uniform types.
// RUN: glow-opt %s | glow-opt | FileCheck %s
// RUN: glow-opt %s --mlir-print-op-generic | glow-opt | FileCheck %s

!q8 = !quant.uniform<i8:f32, 0.1:-3>
!q8b = !quant.uniform<i8:f32, 0.2>
!qc = !quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>

// CHECK-LABEL: func.func @per_tensor
func.func @per_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Q:.*]] = glow.quant.quantize %{{.*}} : tensor<4xf32> -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %q = glow.quant.quantize %x : tensor<4xf32> -> tensor<4x!q8>
  // CHECK: %[[R:.*]] = glow.quant.rescale %[[Q]] : tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>> -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01>>
  %r = glow.quant.rescale %q : tensor<4x!q8> -> tensor<4x!q8b>
  // CHECK: glow.quant.dequantize %[[R]] : tensor<4x!quant.uniform<i8:f32, 2.000000e-01>> -> tensor<4xf32>
  %y = glow.quant.dequantize %r : tensor<4x!q8b> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @per_axis
func.func @per_axis(%w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: glow.quant.quantize %{{.*}} : tensor<2x3xf32> -> tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %q = glow.quant.quantize %w : tensor<2x3xf32> -> tensor<2x3x!qc>
  %y = glow.quant.dequantize %q : tensor<2x3x!qc> -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @profile
func.func @profile(%x: tensor<1x8xf32>) {
  // CHECK: glow.quant.profile %{{.*}} name "fc1" : tensor<1x8xf32>
  glow.quant.profile %x name "fc1" : tensor<1x8xf32>
  // CHECK: glow.quant.profile %{{.*}} name "fc1/kl" bins 2048 : tensor<1x8xf32>
  glow.quant.profile %x name "fc1/kl" bins 2048 : tensor<1x8xf32>
  return
}
