// Round trip of reductions, arg_max/arg_min, log_softmax, layer_norm, batch_matmul,
// slice, pad, tile, convert and gather, with inferred result types.
// RUN: glow-opt %s | glow-opt | FileCheck %s
// RUN: glow-opt %s --mlir-print-op-generic | glow-opt | FileCheck %s

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<1x64x7x7xf32>, %i: tensor<4x5xi32>) -> (tensor<1x64x1x1xf32>, tensor<1x64xf32>, tensor<4xi32>, tensor<5xi32>, tensor<1x7x7xf32>) {
  // CHECK: glow.graph.reduce_mean %{{.*}} axes [2, 3] keep_dims : tensor<1x64x7x7xf32> -> tensor<1x64x1x1xf32>
  %0 = glow.graph.reduce_mean %x axes [2, 3] keep_dims : tensor<1x64x7x7xf32> -> tensor<1x64x1x1xf32>
  // CHECK: glow.graph.reduce_sum %{{.*}} axes [-1, -2] : tensor<1x64x7x7xf32> -> tensor<1x64xf32>
  %1 = glow.graph.reduce_sum %x axes [-1, -2] : tensor<1x64x7x7xf32> -> tensor<1x64xf32>
  // CHECK: glow.graph.reduce_max %{{.*}} axes [1] : tensor<4x5xi32> -> tensor<4xi32>
  %2 = glow.graph.reduce_max %i axes [1] : tensor<4x5xi32> -> tensor<4xi32>
  // CHECK: glow.graph.reduce_min %{{.*}} axes [0] : tensor<4x5xi32> -> tensor<5xi32>
  %3 = glow.graph.reduce_min %i axes [0] : tensor<4x5xi32> -> tensor<5xi32>
  // CHECK: glow.graph.reduce_prod %{{.*}} axes [1] : tensor<1x64x7x7xf32> -> tensor<1x7x7xf32>
  %4 = glow.graph.reduce_prod %x axes [1] : tensor<1x64x7x7xf32> -> tensor<1x7x7xf32>
  return %0, %1, %2, %3, %4 : tensor<1x64x1x1xf32>, tensor<1x64xf32>, tensor<4xi32>, tensor<5xi32>, tensor<1x7x7xf32>
}

// CHECK-LABEL: func.func @arg
func.func @arg(%x: tensor<2x1000xf32>) -> (tensor<2xi64>, tensor<1x1000xi64>) {
  // CHECK: glow.graph.arg_max %{{.*}} axis 1 : tensor<2x1000xf32> -> tensor<2xi64>
  %0 = glow.graph.arg_max %x axis 1 : tensor<2x1000xf32> -> tensor<2xi64>
  // CHECK: glow.graph.arg_min %{{.*}} axis 0 keep_dims : tensor<2x1000xf32> -> tensor<1x1000xi64>
  %1 = glow.graph.arg_min %x axis 0 keep_dims : tensor<2x1000xf32> -> tensor<1x1000xi64>
  return %0, %1 : tensor<2xi64>, tensor<1x1000xi64>
}

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<1x128x768xf32>, %g: tensor<768xf32>, %h: tensor<128x768xf32>) -> (tensor<1x128x768xf32>, tensor<1x128x768xf32>, tensor<1x128x768xf32>) {
  // CHECK: glow.graph.log_softmax %{{.*}} : tensor<1x128x768xf32>
  %0 = glow.graph.log_softmax %x : tensor<1x128x768xf32>
  // CHECK: glow.graph.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x128x768xf32>, tensor<768xf32>
  %1 = glow.graph.layer_norm %x, %g, %g : tensor<1x128x768xf32>, tensor<768xf32>
  // CHECK: glow.graph.layer_norm %{{.*}}, %{{.*}}, %{{.*}} axis 1 epsilon 9.99999996E-13 : tensor<1x128x768xf32>, tensor<128x768xf32>
  %2 = glow.graph.layer_norm %x, %h, %h axis 1 epsilon 1.0e-12 : tensor<1x128x768xf32>, tensor<128x768xf32>
  return %0, %1, %2 : tensor<1x128x768xf32>, tensor<1x128x768xf32>, tensor<1x128x768xf32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%a: tensor<8x4x16xf32>, %b: tensor<8x16x4xf32>, %x: tensor<4x8xf32>, %img: tensor<1x3x8x8xf32>, %ids: tensor<1x7xi64>, %table: tensor<100x32xf32>) -> (tensor<8x4x4xf32>, tensor<4x3xf32>, tensor<1x3x10x10xf32>, tensor<4x24xf32>, tensor<4x8xi32>, tensor<1x7x32xf32>) {
  // CHECK: glow.graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<8x4x16xf32>, tensor<8x16x4xf32>) -> tensor<8x4x4xf32>
  %0 = glow.graph.batch_matmul %a, %b : (tensor<8x4x16xf32>, tensor<8x16x4xf32>) -> tensor<8x4x4xf32>
  // CHECK: glow.graph.slice %{{.*}} start [0, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  %1 = glow.graph.slice %x start [0, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  // CHECK: glow.graph.pad %{{.*}} pads [0, 0, 1, 1, 0, 0, 1, 1] value 0.000000e+00 : f32 : tensor<1x3x8x8xf32> -> tensor<1x3x10x10xf32>
  %2 = glow.graph.pad %img pads [0, 0, 1, 1, 0, 0, 1, 1] value 0.0 : f32 : tensor<1x3x8x8xf32> -> tensor<1x3x10x10xf32>
  // CHECK: glow.graph.tile %{{.*}} repeats [1, 3] : tensor<4x8xf32> -> tensor<4x24xf32>
  %3 = glow.graph.tile %x repeats [1, 3] : tensor<4x8xf32> -> tensor<4x24xf32>
  // CHECK: glow.graph.convert %{{.*}} : tensor<4x8xf32> -> tensor<4x8xi32>
  %4 = glow.graph.convert %x : tensor<4x8xf32> -> tensor<4x8xi32>
  // CHECK: glow.graph.gather %{{.*}}, %{{.*}} : (tensor<100x32xf32>, tensor<1x7xi64>) -> tensor<1x7x32xf32>
  %5 = glow.graph.gather %table, %ids : (tensor<100x32xf32>, tensor<1x7xi64>) -> tensor<1x7x32xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<8x4x4xf32>, tensor<4x3xf32>, tensor<1x3x10x10xf32>, tensor<4x24xf32>, tensor<4x8xi32>, tensor<1x7x32xf32>
}

// CHECK-LABEL: func.func @channel_norms
func.func @channel_norms(%x: tensor<1x64x8x8xf32>, %v: tensor<64xf32>) -> (tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) {
  // CHECK: glow.graph.local_response_norm %{{.*}} size 5 alpha 2.000000e-04 : tensor<1x64x8x8xf32>
  %0 = glow.graph.local_response_norm %x size 5 alpha 2.0e-4 : tensor<1x64x8x8xf32>
  // CHECK: glow.graph.instance_norm %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x64x8x8xf32>, tensor<64xf32>
  %1 = glow.graph.instance_norm %x, %v, %v : tensor<1x64x8x8xf32>, tensor<64xf32>
  return %0, %1 : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>
}

// CHECK-LABEL: func.func @indexing
func.func @indexing(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>, %img: tensor<1x3x8x8xf32>) -> (tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x2xi64>, tensor<1x3x16x16xf32>, tensor<1x3x4x4xf32>) {
  // CHECK: glow.graph.gather_elements %{{.*}}, %{{.*}} axis 1 : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
  %0 = glow.graph.gather_elements %x, %i axis 1 : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
  // CHECK: glow.graph.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} axis 1 reduction "add" : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %1 = glow.graph.scatter_elements %x, %i, %u axis 1 reduction "add" : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  // CHECK: glow.graph.top_k %{{.*}} k 2 axis 1 smallest : tensor<3x4xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
  %2:2 = glow.graph.top_k %x k 2 axis 1 smallest : tensor<3x4xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
  // CHECK: glow.graph.resize %{{.*}} mode "linear" coordinates "half_pixel" : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  %3 = glow.graph.resize %img mode "linear" coordinates "half_pixel" : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  // CHECK: glow.graph.resize %{{.*}} mode "cubic" coordinates "tf_crop_and_resize" scales [1.000000e+00, 1.000000e+00, 5.000000e-01, 5.000000e-01] roi [0.000000e+00, 0.000000e+00, 2.500000e-01, 2.500000e-01, 1.000000e+00, 1.000000e+00, 7.500000e-01, 7.500000e-01] cubic_coeff_a -5.000000e-01 exclude_outside extrapolation_value 1.000000e+00 : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  %4 = glow.graph.resize %img mode "cubic" coordinates "tf_crop_and_resize" scales [1.0, 1.0, 0.5, 0.5] roi [0.0, 0.0, 0.25, 0.25, 1.0, 1.0, 0.75, 0.75] cubic_coeff_a -0.5 exclude_outside extrapolation_value 1.0 : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %0, %1, %2#0, %2#1, %3, %4 : tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x2xi64>, tensor<1x3x16x16xf32>, tensor<1x3x4x4xf32>
}
