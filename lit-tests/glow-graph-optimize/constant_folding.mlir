// Elementwise arithmetic on constants (dense and splat) folds; so, after node
// lowering, does batch_norm's per-channel arithmetic on constant statistics.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-lower-nodes,glow-graph-optimize))' | FileCheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @arithmetic
// CHECK-NEXT: %[[C:.*]] = glow.graph.constant dense<[5.000000e+00, 1.200000e+01]> : tensor<2xf32>
// CHECK-NEXT: %[[I:.*]] = glow.graph.constant dense<[3, -2]> : tensor<2xi32>
// CHECK-NEXT: return %[[C]], %[[I]]
func.func @arithmetic() -> (tensor<2xf32>, tensor<2xi32>) {
  %a = glow.graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = glow.graph.splat 4.0 : tensor<2xf32>
  %c = glow.graph.add %a, %b : tensor<2xf32>
  %d = glow.graph.mul %a, %c : tensor<2xf32>
  %e = glow.graph.max %c, %d : tensor<2xf32>
  %i = glow.graph.constant dense<[7, -5]> : tensor<2xi32>
  %j = glow.graph.splat 2 : tensor<2xi32>
  %k = glow.graph.div %i, %j : tensor<2xi32>
  return %e, %k : tensor<2xf32>, tensor<2xi32>
}

// -----

// Integer division by zero is left for run time.
// CHECK-LABEL: func.func @unary
// CHECK-NEXT: %[[C:.*]] = glow.graph.constant dense<[2.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @unary() -> tensor<2xf32> {
  %a = glow.graph.constant dense<[4.0, -9.0]> : tensor<2xf32>
  %r = glow.graph.relu %a : tensor<2xf32>
  %s = glow.graph.sqrt %r : tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @divide_by_zero
// CHECK: glow.graph.div
func.func @divide_by_zero() -> tensor<2xi32> {
  %i = glow.graph.constant dense<[7, -5]> : tensor<2xi32>
  %z = glow.graph.splat 0 : tensor<2xi32>
  %k = glow.graph.div %i, %z : tensor<2xi32>
  return %k : tensor<2xi32>
}

// -----

// batch_norm with splat statistics: after lowering, k and shift are constants and
// one mul and one add per element remain.
// LOWERED-LABEL: func.func @batch_norm
// LOWERED-NOT: glow.graph.sqrt
// LOWERED-NOT: glow.graph.sub
// LOWERED: glow.graph.mul %arg0
// LOWERED: glow.graph.add
// LOWERED-NOT: glow.graph.div
func.func @batch_norm(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %scale = glow.graph.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %zero = glow.graph.splat 0.0 : tensor<2xf32>
  %var = glow.graph.splat 1.0 : tensor<2xf32>
  %y = glow.graph.batch_norm %x, %scale, %zero, %zero, %var : tensor<1x2x2x2xf32>, tensor<2xf32>
  return %y : tensor<1x2x2x2xf32>
}
