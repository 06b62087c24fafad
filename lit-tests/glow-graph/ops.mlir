// Round trip of every glow.graph op: custom form -> print -> parse -> print, and the
// generic form back to the custom one.
// RUN: glow-opt %s | glow-opt | FileCheck %s
// RUN: glow-opt %s --mlir-print-op-generic | glow-opt | FileCheck %s

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<2xi1>, tensor<3xf16>) {
  // CHECK: glow.graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = glow.graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: glow.graph.splat 5.000000e-01 : tensor<2x3xf32>
  %1 = glow.graph.splat 0.5 : tensor<2x3xf32>
  // CHECK: glow.graph.splat -7 : tensor<4xi32>
  %2 = glow.graph.splat -7 : tensor<4xi32>
  // CHECK: glow.graph.splat true : tensor<2xi1>
  %3 = glow.graph.splat true : tensor<2xi1>
  // CHECK: glow.graph.splat 3.000000e+00 : tensor<3xf16>
  %4 = glow.graph.splat 3 : tensor<3xf16>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<2xi1>, tensor<3xf16>
}

// CHECK-LABEL: func.func @conv
func.func @conv(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>,
                %g: tensor<1x32x56x56xf32>, %gw: tensor<32x1x3x3xf32>) -> (tensor<1x64x112x112xf32>, tensor<1x64x218x218xf32>, tensor<1x32x54x54xf32>) {
  // CHECK: glow.graph.conv2d %{{.*}}, %{{.*}}, %{{.*}} strides [2, 2] pads [3, 3, 3, 3] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %0 = glow.graph.conv2d %x, %w, %b strides [2, 2] pads [3, 3, 3, 3] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  // No bias, defaults elided.
  // CHECK: glow.graph.conv2d %{{.*}}, %{{.*}} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x218x218xf32>
  %1 = glow.graph.conv2d %x, %w strides [1, 1] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x218x218xf32>
  // Depthwise (group = channels), dilated.
  // CHECK: glow.graph.conv2d %{{.*}}, %{{.*}} pads [1, 1, 1, 1] dilations [2, 2] group 32 : (tensor<1x32x56x56xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x54x54xf32>
  %2 = glow.graph.conv2d %g, %gw pads [1, 1, 1, 1] dilations [2, 2] group 32 : (tensor<1x32x56x56xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x54x54xf32>
  return %0, %1, %2 : tensor<1x64x112x112xf32>, tensor<1x64x218x218xf32>, tensor<1x32x54x54xf32>
}

// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x64x112x112xf32>, %y: tensor<1x2048x7x7xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x2048x1x1xf32>, tensor<1x64x56x56xf32>) {
  // CHECK: glow.graph.max_pool %{{.*}} kernel [3, 3] strides [2, 2] pads [1, 1, 1, 1] : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  %0 = glow.graph.max_pool %x kernel [3, 3] strides [2, 2] pads [1, 1, 1, 1] : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  // CHECK: glow.graph.avg_pool %{{.*}} kernel [7, 7] : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
  %1 = glow.graph.avg_pool %y kernel [7, 7] : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
  // CHECK: glow.graph.avg_pool %{{.*}} kernel [3, 3] strides [2, 2] pads [1, 1, 1, 1] count_include_pad : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  %2 = glow.graph.avg_pool %x kernel [3, 3] strides [2, 2] pads [1, 1, 1, 1] count_include_pad : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  return %0, %1, %2 : tensor<1x64x56x56xf32>, tensor<1x2048x1x1xf32>, tensor<1x64x56x56xf32>
}

// CHECK-LABEL: func.func @linear_algebra
func.func @linear_algebra(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %i: tensor<4x8xi8>, %j: tensor<8x2xi8>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x2xi8>) {
  // CHECK: glow.graph.fully_connected %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %0 = glow.graph.fully_connected %x, %w, %b : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  // CHECK: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = glow.graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: glow.graph.batched_add %{{.*}}, %{{.*}} : tensor<4x16xf32>, tensor<16xf32>
  %2 = glow.graph.batched_add %1, %b : tensor<4x16xf32>, tensor<16xf32>
  // CHECK: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<4x8xi8>, tensor<8x2xi8>) -> tensor<4x2xi8>
  %3 = glow.graph.matmul %i, %j : (tensor<4x8xi8>, tensor<8x2xi8>) -> tensor<4x2xi8>
  return %0, %1, %2, %3 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x2xi8>
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<5xi32>) -> tensor<2x3xf32> {
  // CHECK: glow.graph.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %0 = glow.graph.add %a, %b : tensor<2x3xf32>
  // CHECK: glow.graph.sub %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %1 = glow.graph.sub %0, %b : tensor<2x3xf32>
  // CHECK: glow.graph.mul %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %2 = glow.graph.mul %1, %b : tensor<2x3xf32>
  // CHECK: glow.graph.div %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %3 = glow.graph.div %2, %b : tensor<2x3xf32>
  // CHECK: glow.graph.max %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %4 = glow.graph.max %3, %b : tensor<2x3xf32>
  // CHECK: glow.graph.min %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %5 = glow.graph.min %4, %b : tensor<2x3xf32>
  // CHECK: glow.graph.relu %{{.*}} : tensor<2x3xf32>
  %6 = glow.graph.relu %5 : tensor<2x3xf32>
  // CHECK: glow.graph.sigmoid %{{.*}} : tensor<2x3xf32>
  %7 = glow.graph.sigmoid %6 : tensor<2x3xf32>
  // CHECK: glow.graph.tanh %{{.*}} : tensor<2x3xf32>
  %8 = glow.graph.tanh %7 : tensor<2x3xf32>
  // CHECK: glow.graph.sqrt %{{.*}} : tensor<2x3xf32>
  %9 = glow.graph.sqrt %8 : tensor<2x3xf32>
  // CHECK: glow.graph.add %{{.*}}, %{{.*}} : tensor<5xi32>
  %10 = glow.graph.add %i, %i : tensor<5xi32>
  return %9 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<1x1000xf32>, %y: tensor<1x64x8x8xf32>, %v: tensor<64xf32>, %z: tensor<2x5x64xf32>) -> (tensor<1x1000xf32>, tensor<1x64x8x8xf32>, tensor<2x5x64xf32>) {
  // CHECK: glow.graph.softmax %{{.*}} : tensor<1x1000xf32>
  %0 = glow.graph.softmax %x : tensor<1x1000xf32>
  // CHECK: glow.graph.softmax %{{.*}} axis 0 : tensor<1x1000xf32>
  %1 = glow.graph.softmax %0 axis 0 : tensor<1x1000xf32>
  // CHECK: glow.graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} epsilon 1.000000e-03 : tensor<1x64x8x8xf32>, tensor<64xf32>
  %2 = glow.graph.batch_norm %y, %v, %v, %v, %v epsilon 1.0e-3 : tensor<1x64x8x8xf32>, tensor<64xf32>
  // Channels last.
  // CHECK: glow.graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} channel 2 : tensor<2x5x64xf32>, tensor<64xf32>
  %3 = glow.graph.batch_norm %z, %v, %v, %v, %v channel 2 : tensor<2x5x64xf32>, tensor<64xf32>
  return %1, %2, %3 : tensor<1x1000xf32>, tensor<1x64x8x8xf32>, tensor<2x5x64xf32>
}

// CHECK-LABEL: func.func @shape
func.func @shape(%x: tensor<1x2048x1x1xf32>, %t: tensor<1x3x8x8xf32>, %a: tensor<1x16x8x8xf32>, %b: tensor<1x32x8x8xf32>, %v: tensor<64xf32>) -> (tensor<1x2048xf32>, tensor<1x8x8x3xf32>, tensor<1x48x8x8xf32>, tensor<1x64x56x56xf32>) {
  // CHECK: glow.graph.reshape %{{.*}} : tensor<1x2048x1x1xf32> -> tensor<1x2048xf32>
  %0 = glow.graph.reshape %x : tensor<1x2048x1x1xf32> -> tensor<1x2048xf32>
  // CHECK: glow.graph.transpose %{{.*}} perm [0, 2, 3, 1] : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  %1 = glow.graph.transpose %t perm [0, 2, 3, 1] : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  // CHECK: glow.graph.concat %{{.*}}, %{{.*}} dim 1 : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
  %2 = glow.graph.concat %a, %b dim 1 : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
  // CHECK: glow.graph.broadcast %{{.*}} axis 1 : tensor<64xf32> -> tensor<1x64x56x56xf32>
  %3 = glow.graph.broadcast %v axis 1 : tensor<64xf32> -> tensor<1x64x56x56xf32>
  return %0, %1, %2, %3 : tensor<1x2048xf32>, tensor<1x8x8x3xf32>, tensor<1x48x8x8xf32>, tensor<1x64x56x56xf32>
}

// CHECK-LABEL: func.func @more_pooling
func.func @more_pooling(%x: tensor<1x4x8x8xf32>, %q: tensor<1x4x8x8xi8>) -> (tensor<1x4x4x4xf32>, tensor<1x4x7x7xi8>) {
  // Dilated pooling (ONNX MaxPool dilations): span 2 * (2 - 1) + 1 = 3.
  // CHECK: glow.graph.max_pool %{{.*}} kernel [2, 2] dilations [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x6x6xf32>
  %0 = glow.graph.max_pool %x kernel [2, 2] dilations [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x6x6xf32>
  // CHECK: glow.graph.avg_pool %{{.*}} kernel [2, 2] strides [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %1 = glow.graph.avg_pool %x kernel [2, 2] strides [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  // Integer max pooling.
  // CHECK: glow.graph.max_pool %{{.*}} kernel [2, 2] : tensor<1x4x8x8xi8> -> tensor<1x4x7x7xi8>
  %2 = glow.graph.max_pool %q kernel [2, 2] : tensor<1x4x8x8xi8> -> tensor<1x4x7x7xi8>
  return %1, %2 : tensor<1x4x4x4xf32>, tensor<1x4x7x7xi8>
}

// CHECK-LABEL: func.func @unsigned
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xi1> {
  // CHECK: glow.graph.div %{{.*}}, %{{.*}} : tensor<4xui8>
  %0 = glow.graph.div %a, %b : tensor<4xui8>
  // CHECK: glow.graph.cmp_lt %{{.*}}, %{{.*}} : tensor<4xui8>
  %1 = glow.graph.cmp_lt %0, %b : tensor<4xui8>
  // CHECK: glow.graph.splat 255 : tensor<4xui8>
  %2 = glow.graph.splat 255 : tensor<4xui8>
  return %1 : tensor<4xi1>
}

// CHECK-LABEL: func.func @conv_transpose
func.func @conv_transpose(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<4xf32>, %g: tensor<8x2x3x3xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x8x6x6xf32>) {
  // CHECK: glow.graph.conv_transpose2d %{{.*}}, %{{.*}}, %{{.*}} strides [2, 2] pads [1, 1, 1, 1] output_padding [1, 1] : (tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %0 = glow.graph.conv_transpose2d %x, %w, %b strides [2, 2] pads [1, 1, 1, 1] output_padding [1, 1] : (tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: glow.graph.conv_transpose2d %{{.*}}, %{{.*}} group 4 : (tensor<1x8x4x4xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = glow.graph.conv_transpose2d %x, %g group 4 : (tensor<1x8x4x4xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0, %1 : tensor<1x4x8x8xf32>, tensor<1x8x6x6xf32>
}

// Negative literals of every kind round-trip.
// CHECK-LABEL: func.func @negative_splats
// CHECK: glow.graph.splat -1.000000e+04 : tensor<2xf32>
// CHECK: glow.graph.splat -2.500000e-01 : tensor<2xf16>
// CHECK: glow.graph.splat -128 : tensor<2xi8>
// CHECK: glow.graph.splat -9223372036854775808 : tensor<2xi64>
// CHECK: glow.graph.splat -3.000000e+00 : tensor<2xf32>
func.func @negative_splats() -> (tensor<2xf32>, tensor<2xf16>, tensor<2xi8>, tensor<2xi64>, tensor<2xf32>) {
  %0 = glow.graph.splat -1.0e4 : tensor<2xf32>
  %1 = glow.graph.splat -0.25 : tensor<2xf16>
  %2 = glow.graph.splat -128 : tensor<2xi8>
  %3 = glow.graph.splat -9223372036854775808 : tensor<2xi64>
  %4 = glow.graph.splat -3 : tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf16>, tensor<2xi8>, tensor<2xi64>, tensor<2xf32>
}

// channels_last: NHWC input and result; the filter keeps its OIHW layout.
// CHECK-LABEL: func.func @channels_last
// CHECK: glow.graph.conv2d %arg0, %arg1 strides [2, 2] channels_last : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x3x4xf32>
// CHECK: glow.graph.avg_pool %arg0 kernel [2, 2] channels_last : tensor<1x8x8x3xf32> -> tensor<1x7x7x3xf32>
func.func @channels_last(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> (tensor<1x3x3x4xf32>, tensor<1x7x7x3xf32>) {
  %0 = glow.graph.conv2d %x, %w strides [2, 2] channels_last : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x3x4xf32>
  %1 = glow.graph.avg_pool %x kernel [2, 2] channels_last : tensor<1x8x8x3xf32> -> tensor<1x7x7x3xf32>
  return %0, %1 : tensor<1x3x3x4xf32>, tensor<1x7x7x3xf32>
}

// CHECK-LABEL: func.func @adaptive_avg_pool
func.func @adaptive_avg_pool(%x: tensor<1x512x7x7xf32>) -> tensor<1x512x3x2xf32> {
  // CHECK: glow.graph.adaptive_avg_pool %{{.*}} : tensor<1x512x7x7xf32> -> tensor<1x512x3x2xf32>
  %0 = glow.graph.adaptive_avg_pool %x : tensor<1x512x7x7xf32> -> tensor<1x512x3x2xf32>
  return %0 : tensor<1x512x3x2xf32>
}

// CHECK-LABEL: func.func @remainder_and_shifts
func.func @remainder_and_shifts(%a: tensor<4xi32>, %f: tensor<4xf32>, %u: tensor<4xui8>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xui8>, tensor<4xui8>) {
  // CHECK: glow.graph.mod %{{.*}}, %{{.*}} sign_follow_divisor : tensor<4xi32>
  %0 = glow.graph.mod %a, %a sign_follow_divisor : tensor<4xi32>
  // CHECK: glow.graph.mod %{{.*}}, %{{.*}} : tensor<4xf32>
  %1 = glow.graph.mod %f, %f : tensor<4xf32>
  // CHECK: glow.graph.shift_left %{{.*}}, %{{.*}} : tensor<4xui8>
  %2 = glow.graph.shift_left %u, %u : tensor<4xui8>
  // CHECK: glow.graph.shift_right %{{.*}}, %{{.*}} : tensor<4xui8>
  %3 = glow.graph.shift_right %u, %u : tensor<4xui8>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xf32>, tensor<4xui8>, tensor<4xui8>
}
