// A transposed convolution whose kernel equals its strides (an upsampling) is a
// matmul of the NHWC rows with the filter viewed as [C, F*KH*KW], then a pixel
// shuffle and the bias. With a constant filter, one group, no dilation and a kernel at
// least its strides, it is one stride-1 conv2d per output phase (sub-filters of the
// taps that phase takes, flipped), the phases interleaved in NHWC and cropped. Others
// are left for glow-graph-to-linalg. The executed check compares with onnxruntime.
// RUN: glow-opt %s --split-input-file --glow-lower-nodes | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=conv_transpose2d}))' | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @upsample
// CHECK: %[[ROWS:.*]] = glow.graph.transpose %arg0 perm [0, 2, 3, 1] : tensor<2x8x5x7xf32> -> tensor<2x5x7x8xf32>
// CHECK: %[[FLAT:.*]] = glow.graph.reshape %[[ROWS]] : tensor<2x5x7x8xf32> -> tensor<70x8xf32>
// CHECK: %[[TAPS:.*]] = glow.graph.reshape %arg1 : tensor<8x4x3x2xf32> -> tensor<8x24xf32>
// CHECK: %[[PRODUCT:.*]] = glow.graph.matmul %[[FLAT]], %[[TAPS]] : (tensor<70x8xf32>, tensor<8x24xf32>) -> tensor<70x24xf32>
// CHECK: %[[PIXELS:.*]] = glow.graph.reshape %[[PRODUCT]] : tensor<70x24xf32> -> tensor<2x5x7x4x3x2xf32>
// CHECK: %[[SHUFFLED:.*]] = glow.graph.transpose %[[PIXELS]] perm [0, 1, 4, 2, 5, 3] : tensor<2x5x7x4x3x2xf32> -> tensor<2x5x3x7x2x4xf32>
// CHECK: %[[NHWC:.*]] = glow.graph.reshape %[[SHUFFLED]] : tensor<2x5x3x7x2x4xf32> -> tensor<2x15x14x4xf32>
// CHECK: %[[NCHW:.*]] = glow.graph.transpose %[[NHWC]] perm [0, 3, 1, 2] : tensor<2x15x14x4xf32> -> tensor<2x4x15x14xf32>
// CHECK: %[[BIAS:.*]] = glow.graph.broadcast %arg2 axis 1 : tensor<4xf32> -> tensor<2x4x15x14xf32>
// CHECK: %[[Y:.*]] = glow.graph.add %[[NCHW]], %[[BIAS]] : tensor<2x4x15x14xf32>
// CHECK: return %[[Y]]
// KEEP: glow.graph.conv_transpose2d
func.func @upsample(%x: tensor<2x8x5x7xf32>, %w: tensor<8x4x3x2xf32>, %b: tensor<4xf32>) -> tensor<2x4x15x14xf32> {
  %y = glow.graph.conv_transpose2d %x, %w, %b strides [3, 2] : (tensor<2x8x5x7xf32>, tensor<8x4x3x2xf32>, tensor<4xf32>) -> tensor<2x4x15x14xf32>
  return %y : tensor<2x4x15x14xf32>
}

// -----

// Kernel 3, stride 2, pads 1: phases (0, 0), (0, 1), (1, 0), (1, 1) take 2x2, 2x1,
// 1x2 and 1x1 taps; rows t in [0, 4) of each, interleaved to 8x8, cropped at 1 to 7x7.
// CHECK-LABEL: func.func @phases
// CHECK: glow.graph.conv2d %arg0, %{{.*}} pads [1, 1, 0, 0] : (tensor<1x8x4x4xf32>, tensor<4x8x2x2xf32>) -> tensor<1x4x4x4xf32>
// CHECK: glow.graph.conv2d %arg0, %{{.*}} pads [1, 0, 0, 0] : (tensor<1x8x4x4xf32>, tensor<4x8x2x1xf32>) -> tensor<1x4x4x4xf32>
// CHECK: glow.graph.concat %{{.*}}, %{{.*}} dim 4 : (tensor<1x4x1x4x1x4xf32>, tensor<1x4x1x4x1x4xf32>) -> tensor<1x4x1x4x2x4xf32>
// CHECK: glow.graph.conv2d %arg0, %{{.*}} pads [0, 1, 0, 0] : (tensor<1x8x4x4xf32>, tensor<4x8x1x2xf32>) -> tensor<1x4x4x4xf32>
// CHECK: glow.graph.conv2d %arg0, %{{.*}} : (tensor<1x8x4x4xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x4x4xf32>
// CHECK: glow.graph.concat %{{.*}}, %{{.*}} dim 2 : (tensor<1x4x1x4x2x4xf32>, tensor<1x4x1x4x2x4xf32>) -> tensor<1x4x2x4x2x4xf32>
// CHECK: glow.graph.reshape %{{.*}} : tensor<1x4x2x4x2x4xf32> -> tensor<1x8x8x4xf32>
// CHECK: glow.graph.slice %{{.*}} start [0, 1, 1, 0] : tensor<1x8x8x4xf32> -> tensor<1x7x7x4xf32>
// CHECK: glow.graph.transpose %{{.*}} perm [0, 3, 1, 2] : tensor<1x7x7x4xf32> -> tensor<1x4x7x7xf32>
// CHECK-NOT: conv_transpose2d
func.func @phases(%x: tensor<1x8x4x4xf32>) -> tensor<1x4x7x7xf32> {
  %w = glow.graph.splat 0.5 : tensor<8x4x3x3xf32>
  %y = glow.graph.conv_transpose2d %x, %w strides [2, 2] pads [1, 1, 1, 1] : (tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32>) -> tensor<1x4x7x7xf32>
  return %y : tensor<1x4x7x7xf32>
}

// -----

// Kept: filters given at run time (overlapping taps, groups, output padding), and
// constant filters with a dilation or with more than 64 phases (strides 9 x 9).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: glow.graph.conv_transpose2d
// CHECK-NOT: glow.graph.matmul
// CHECK-NOT: glow.graph.conv2d
func.func @kept(%x: tensor<1x8x5x5xf32>, %w4: tensor<8x4x4x4xf32>, %wg: tensor<8x2x2x2xf32>, %w2: tensor<8x4x2x2xf32>) -> (tensor<1x4x10x10xf32>, tensor<1x4x10x10xf32>, tensor<1x4x11x11xf32>, tensor<1x4x11x11xf32>, tensor<1x4x46x46xf32>) {
  %a = glow.graph.conv_transpose2d %x, %w4 strides [2, 2] pads [1, 1, 1, 1] : (tensor<1x8x5x5xf32>, tensor<8x4x4x4xf32>) -> tensor<1x4x10x10xf32>
  %b = glow.graph.conv_transpose2d %x, %wg strides [2, 2] group 2 : (tensor<1x8x5x5xf32>, tensor<8x2x2x2xf32>) -> tensor<1x4x10x10xf32>
  %c = glow.graph.conv_transpose2d %x, %w2 strides [2, 2] output_padding [1, 1] : (tensor<1x8x5x5xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x11x11xf32>
  %wd = glow.graph.splat 0.5 : tensor<8x4x2x2xf32>
  %d = glow.graph.conv_transpose2d %x, %wd strides [2, 2] dilations [2, 2] : (tensor<1x8x5x5xf32>, tensor<8x4x2x2xf32>) -> tensor<1x4x11x11xf32>
  %w9 = glow.graph.splat 0.5 : tensor<8x4x10x10xf32>
  %e = glow.graph.conv_transpose2d %x, %w9 strides [9, 9] : (tensor<1x8x5x5xf32>, tensor<8x4x10x10xf32>) -> tensor<1x4x46x46xf32>
  return %a, %b, %c, %d, %e : tensor<1x4x10x10xf32>, tensor<1x4x10x10xf32>, tensor<1x4x11x11xf32>, tensor<1x4x11x11xf32>, tensor<1x4x46x46xf32>
}

// RUN: %python %S/Inputs/conv_transpose.py %t.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=2x8x5x7 --bin %glow_bin | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
