// Convolutions and pools take the NHWC layout; the transposes between them sink below
// elementwise ops (unary, binary, and binary with a splat) and cancel, leaving one at
// the input and one at the output.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-channels-last))' | FileCheck %s

// CHECK-LABEL: func.func @residual
// CHECK: %[[S:.*]] = glow.graph.splat 6.0{{.*}} : tensor<1x8x8x4xf32>
// CHECK: %[[X:.*]] = glow.graph.transpose %arg0 perm [0, 2, 3, 1] : tensor<1x4x8x8xf32> -> tensor<1x8x8x4xf32>
// CHECK: %[[C1:.*]] = glow.graph.conv2d %[[X]], %arg1 pads [1, 1, 1, 1] channels_last : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[R:.*]] = glow.graph.relu %[[C1]] : tensor<1x8x8x4xf32>
// CHECK: %[[D:.*]] = glow.graph.conv2d %[[R]], %arg2 group 4 channels_last : (tensor<1x8x8x4xf32>, tensor<4x1x1x1xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[M:.*]] = glow.graph.min %[[D]], %[[S]] : tensor<1x8x8x4xf32>
// CHECK: %[[A:.*]] = glow.graph.add %[[M]], %[[R]] : tensor<1x8x8x4xf32>
// CHECK: %[[P:.*]] = glow.graph.max_pool %[[A]] kernel [2, 2] strides [2, 2] channels_last : tensor<1x8x8x4xf32> -> tensor<1x4x4x4xf32>
// CHECK: %[[Y:.*]] = glow.graph.transpose %[[P]] perm [0, 3, 1, 2] : tensor<1x4x4x4xf32> -> tensor<1x4x4x4xf32>
// CHECK-NOT: glow.graph.transpose
// CHECK: return %[[Y]]
func.func @residual(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %dw: tensor<4x1x1x1xf32>) -> tensor<1x4x4x4xf32> {
  %0 = glow.graph.conv2d %x, %w pads [1, 1, 1, 1] : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = glow.graph.relu %0 : tensor<1x4x8x8xf32>
  %2 = glow.graph.conv2d %1, %dw group 4 : (tensor<1x4x8x8xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x8x8xf32>
  %six = glow.graph.splat 6.0 : tensor<1x4x8x8xf32>
  %3 = glow.graph.min %2, %six : tensor<1x4x8x8xf32>
  %4 = glow.graph.add %3, %1 : tensor<1x4x8x8xf32>
  %5 = glow.graph.max_pool %4 kernel [2, 2] strides [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return %5 : tensor<1x4x4x4xf32>
}

// -----

// A grouped convolution that is not depthwise has no channels-last form in linalg: it
// stays NCHW, and so does everything around it.
// CHECK-LABEL: func.func @grouped
// CHECK-NOT: channels_last
// CHECK-NOT: glow.graph.transpose
func.func @grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  %0 = glow.graph.conv2d %x, %w group 2 : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  %1 = glow.graph.relu %0 : tensor<1x6x6x6xf32>
  return %1 : tensor<1x6x6x6xf32>
}
