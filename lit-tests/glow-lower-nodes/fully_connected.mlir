// fully_connected -> matmul + batched_add (Glow's lowerFullyConnectedNode), in a
// pipeline that mixes the Rust pass with upstream ones.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes),canonicalize)' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=fully_connected}))' | FileCheck %s --check-prefix=KEEP
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=glow.graph.fully_connected}))' | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @fc
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %[[W:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[M:.*]] = glow.graph.matmul %[[X]], %[[W]] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[A:.*]] = glow.graph.batched_add %[[M]], %[[B]] : tensor<2x4xf32>, tensor<4xf32>
// CHECK-NEXT: return %[[A]]
// KEEP-LABEL: func.func @fc
// KEEP: glow.graph.fully_connected
// KEEP-NOT: glow.graph.matmul
func.func @fc(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %y = glow.graph.fully_connected %x, %w, %b : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// Every fully_connected in every function is lowered (and the relu between them).
// CHECK-LABEL: func.func @chain
// CHECK-NOT: fully_connected
// CHECK: glow.graph.matmul
// CHECK: glow.graph.batched_add
// CHECK: glow.graph.select
// CHECK: glow.graph.matmul
// CHECK: glow.graph.batched_add
// CHECK-NOT: fully_connected
func.func @chain(%x: tensor<1x16xf32>, %w1: tensor<16x8xf32>, %b1: tensor<8xf32>, %w2: tensor<8x2xf32>, %b2: tensor<2xf32>) -> tensor<1x2xf32> {
  %h = glow.graph.fully_connected %x, %w1, %b1 : (tensor<1x16xf32>, tensor<16x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %r = glow.graph.relu %h : tensor<1x8xf32>
  %y = glow.graph.fully_connected %r, %w2, %b2 : (tensor<1x8xf32>, tensor<8x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// Integer fully_connected lowers the same way.
// CHECK-LABEL: func.func @int_fc
// CHECK: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<3x5xi32>
// CHECK: glow.graph.batched_add %{{.*}}, %{{.*}} : tensor<3x5xi32>, tensor<5xi32>
func.func @int_fc(%x: tensor<3x4xi32>, %w: tensor<4x5xi32>, %b: tensor<5xi32>) -> tensor<3x5xi32> {
  %y = glow.graph.fully_connected %x, %w, %b : (tensor<3x4xi32>, tensor<4x5xi32>, tensor<5xi32>) -> tensor<3x5xi32>
  return %y : tensor<3x5xi32>
}
