// adaptive_avg_pool -> avg_pool when the extents divide, two matmuls with constant
// averaging matrices otherwise; `keep` leaves it alone. The values are checked by
// lit-tests/glow-run/adaptive-avg-pool.mlir.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes))' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=adaptive_avg_pool}))' | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @divides
// CHECK-NEXT: %[[P:.*]] = glow.graph.avg_pool %arg0 kernel [2, 3] strides [2, 3] : tensor<1x4x8x9xf32> -> tensor<1x4x4x3xf32>
// CHECK-NEXT: return %[[P]]
// KEEP-LABEL: func.func @divides
// KEEP: glow.graph.adaptive_avg_pool
func.func @divides(%x: tensor<1x4x8x9xf32>) -> tensor<1x4x4x3xf32> {
  %0 = glow.graph.adaptive_avg_pool %x : tensor<1x4x8x9xf32> -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// 5 -> 3 rows (windows [0, 2), [1, 4), [3, 5)), 4 -> 3 columns ([0, 2), [1, 3), [2, 4)).
// CHECK-LABEL: func.func @overlapping
// CHECK-NOT: adaptive_avg_pool
// The greedy driver hoists the constants to the top of the function.
// CHECK-DAG: %[[A:.*]] = glow.graph.constant dense<{{\[}}[5.000000e-01, 0.000000e+00, 0.000000e+00], [5.000000e-01, 0.333333343, 0.000000e+00], [0.000000e+00, 0.333333343, 0.000000e+00], [0.000000e+00, 0.333333343, 5.000000e-01], [0.000000e+00, 0.000000e+00, 5.000000e-01]]> : tensor<5x3xf32>
// CHECK-DAG: %[[B:.*]] = glow.graph.constant dense<{{\[}}[5.000000e-01, 0.000000e+00, 0.000000e+00], [5.000000e-01, 5.000000e-01, 0.000000e+00], [0.000000e+00, 5.000000e-01, 5.000000e-01], [0.000000e+00, 0.000000e+00, 5.000000e-01]]> : tensor<4x3xf32>
// CHECK: %[[ROWS:.*]] = glow.graph.reshape %arg0 : tensor<2x3x5x4xf32> -> tensor<30x4xf32>
// CHECK: %[[C:.*]] = glow.graph.matmul %[[ROWS]], %[[B]] : (tensor<30x4xf32>, tensor<4x3xf32>) -> tensor<30x3xf32>
// CHECK: %[[S:.*]] = glow.graph.reshape %[[C]] : tensor<30x3xf32> -> tensor<6x5x3xf32>
// CHECK: %[[T:.*]] = glow.graph.transpose %[[S]] perm [0, 2, 1] : tensor<6x5x3xf32> -> tensor<6x3x5xf32>
// CHECK: %[[F:.*]] = glow.graph.reshape %[[T]] : tensor<6x3x5xf32> -> tensor<18x5xf32>
// CHECK: %[[R:.*]] = glow.graph.matmul %[[F]], %[[A]] : (tensor<18x5xf32>, tensor<5x3xf32>) -> tensor<18x3xf32>
// CHECK: %[[U:.*]] = glow.graph.reshape %[[R]] : tensor<18x3xf32> -> tensor<2x3x3x3xf32>
// CHECK: %[[Y:.*]] = glow.graph.transpose %[[U]] perm [0, 1, 3, 2] : tensor<2x3x3x3xf32> -> tensor<2x3x3x3xf32>
// CHECK: return %[[Y]]
func.func @overlapping(%x: tensor<2x3x5x4xf32>) -> tensor<2x3x3x3xf32> {
  %0 = glow.graph.adaptive_avg_pool %x : tensor<2x3x5x4xf32> -> tensor<2x3x3x3xf32>
  return %0 : tensor<2x3x3x3xf32>
}
