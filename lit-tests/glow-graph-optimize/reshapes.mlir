// Reshapes sink below elementwise ops and fold when they meet.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=sink-reshapes}))' | FileCheck %s --check-prefix=OFF

// Flatten, activation, un-flatten: the reshapes meet and vanish.
// CHECK-LABEL: func.func @cancel
// CHECK-NEXT: %[[G:.*]] = glow.graph.gelu %arg0 : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[G]]
// OFF-LABEL: func.func @cancel
// OFF: glow.graph.reshape
func.func @cancel(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %f = glow.graph.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %g = glow.graph.gelu %f : tensor<6x4xf32>
  %u = glow.graph.reshape %g : tensor<6x4xf32> -> tensor<2x3x4xf32>
  return %u : tensor<2x3x4xf32>
}

// -----

// Both operands reshaped alike from one type, and a splat re-made in the source shape:
// one reshape after the ops.
// CHECK-LABEL: func.func @binary
// CHECK-NEXT: %[[S:.*]] = glow.graph.splat 2.000000e+00 : tensor<2x6xf32>
// CHECK-NEXT: %[[A:.*]] = glow.graph.add %arg0, %arg1 : tensor<2x6xf32>
// CHECK-NEXT: %[[M:.*]] = glow.graph.mul %[[A]], %[[S]] : tensor<2x6xf32>
// CHECK-NEXT: %[[R:.*]] = glow.graph.reshape %[[M]] : tensor<2x6xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @binary(%a: tensor<2x6xf32>, %b: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %ra = glow.graph.reshape %a : tensor<2x6xf32> -> tensor<3x4xf32>
  %rb = glow.graph.reshape %b : tensor<2x6xf32> -> tensor<3x4xf32>
  %s = glow.graph.add %ra, %rb : tensor<3x4xf32>
  %two = glow.graph.splat 2.0 : tensor<3x4xf32>
  %m = glow.graph.mul %s, %two : tensor<3x4xf32>
  return %m : tensor<3x4xf32>
}

// -----

// A reshape with another user stays for it; operands from different shapes do not move.
// CHECK-LABEL: func.func @kept
// CHECK: %[[R:.*]] = glow.graph.reshape %arg0 : tensor<2x6xf32> -> tensor<3x4xf32>
// CHECK: glow.graph.relu %[[R]] : tensor<3x4xf32>
// CHECK: glow.graph.add %[[R]], %{{.*}} : tensor<3x4xf32>
func.func @kept(%a: tensor<2x6xf32>, %b: tensor<12xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %ra = glow.graph.reshape %a : tensor<2x6xf32> -> tensor<3x4xf32>
  %rb = glow.graph.reshape %b : tensor<12xf32> -> tensor<3x4xf32>
  %r = glow.graph.relu %ra : tensor<3x4xf32>
  %s = glow.graph.add %ra, %rb : tensor<3x4xf32>
  return %r, %s : tensor<3x4xf32>, tensor<3x4xf32>
}
