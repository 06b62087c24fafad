// batch_norm(conv2d) with constant weights folds into one conv2d.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=fold-batch-norm}))' | FileCheck %s --check-prefix=DISABLED

// Filter 2x1x1x1 = [1, 2], bias [0.5, -1]; scale [2, 3], shift [1, 1], mean [0.5, 0],
// var [3, 8], epsilon 1: k = scale / sqrt(var + 1) = [1, 1].
// W' = W * k = [1, 2]; b' = (b - mean) * k + shift = [1, 0].
// CHECK-LABEL: func.func @fold
// CHECK-DAG: %[[W:.*]] = glow.graph.constant dense_resource<folded_filter{{.*}}> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = glow.graph.constant dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = glow.graph.conv2d %arg0, %[[W]], %[[B]] strides [2, 2] : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NOT: batch_norm
// CHECK: return %[[Y]]
// DISABLED-LABEL: func.func @fold
// DISABLED: glow.graph.batch_norm
func.func @fold(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %w = glow.graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %b = glow.graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %scale = glow.graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %shift = glow.graph.splat 1.0 : tensor<2xf32>
  %mean = glow.graph.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %var = glow.graph.constant dense<[3.0, 8.0]> : tensor<2xf32>
  %c = glow.graph.conv2d %x, %w, %b strides [2, 2] : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %y = glow.graph.batch_norm %c, %scale, %shift, %mean, %var epsilon 1.0 : tensor<1x2x2x2xf32>, tensor<2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// The folded filter holds W * k: its bytes after the blob's 64-byte alignment word are f32 1.0, 2.0.
// CHECK: dialect_resources
// CHECK: folded_filter: "0x100000000000803F00000040"

// -----

// A conv2d with another user keeps its batch_norm (folding would change that user).
// CHECK-LABEL: func.func @shared
// CHECK: glow.graph.batch_norm
func.func @shared(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %v = glow.graph.splat 1.0 : tensor<2xf32>
  %c = glow.graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = glow.graph.batch_norm %c, %v, %v, %v, %v : tensor<1x2x4x4xf32>, tensor<2xf32>
  return %c, %y : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
