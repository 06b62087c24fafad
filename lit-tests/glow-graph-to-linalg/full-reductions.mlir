// A sum, max or min over every axis of a tensor whose element count is a multiple of
// 16 (and at least 64) runs in two steps: the tensor as rows of at most 64 elements,
// reduced over the rows (an elementwise combine of whole rows, which vectorizes), then
// those columns. One reduction of every axis ran as a chain of scalar steps (a
// DynamicQuantizeLinear's range over 401,408 values: 0.33 -> 0.03 ms). Products, and
// counts that 16 does not divide, keep one step.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes,glow-graph-to-linalg))' | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: %[[ROWS:.*]] = tensor.reshape %arg0(%{{.*}}) : (tensor<1x4x32x32xf32>, tensor<2xi64>) -> tensor<64x64xf32>
// CHECK: %[[COLUMNS:.*]] = linalg.reduce ins(%[[ROWS]] : tensor<64x64xf32>) outs(%{{.*}} : tensor<64xf32>) dimensions = [0]
// CHECK: arith.maximumf
// CHECK: linalg.reduce ins(%[[COLUMNS]] : tensor<64xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0]
// CHECK: tensor.reshape %arg1(%{{.*}}) : (tensor<2x8x8xi32>, tensor<2xi64>) -> tensor<4x32xi32>
// CHECK: linalg.reduce ins(%arg2 : tensor<3x5x7xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0, 1, 2]
// CHECK: linalg.reduce ins(%{{.*}} : tensor<1x4x32x32xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0, 1, 2, 3]
// CHECK: arith.mulf

// Executed on integer-valued data (exact in any order): the values numpy gives.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; x = ((np.arange(4096) * 37) % 97 - 48).astype(np.float32).reshape(1, 4, 32, 32); x[0, 3, 31, 5] = 1000; x[0, 0, 0, 7] = -500; np.save('%t/x.npy', x); np.save('%t/i.npy', ((np.arange(128) * 53) % 201 - 100).astype(np.int32).reshape(2, 8, 8)); o = ((np.arange(105) * 11) % 23 - 11).astype(np.float32).reshape(3, 5, 7); o[2, 4, 6] = 77; np.save('%t/odd.npy', o)"
// RUN: glow-run %s --input x=%t/x.npy --input i=%t/i.npy --input odd=%t/odd.npy | FileCheck %s --check-prefix=VALUES
// VALUES: max{{ +}}1.000000e3
// VALUES-NEXT: min{{ +}}-5.000000e2
// VALUES-NEXT: sum{{ +}}4.470000e2
// VALUES-NEXT: mean{{ +}}1x1x1x1{{ +}}1.091309e-1
// VALUES-NEXT: imax{{ +}}1.000000e2
// VALUES-NEXT: isum{{ +}}-9.600000e1
// VALUES-NEXT: oddmax{{ +}}7.700000e1
// VALUES-NEXT: prod{{ +}}1.000000e0
func.func @main(%x: tensor<1x4x32x32xf32> {glow.name = "x"}, %i: tensor<2x8x8xi32> {glow.name = "i"}, %odd: tensor<3x5x7xf32> {glow.name = "odd"}) -> (tensor<f32> {glow.name = "max"}, tensor<f32> {glow.name = "min"}, tensor<f32> {glow.name = "sum"}, tensor<1x1x1x1xf32> {glow.name = "mean"}, tensor<i32> {glow.name = "imax"}, tensor<i32> {glow.name = "isum"}, tensor<f32> {glow.name = "oddmax"}, tensor<f32> {glow.name = "prod"}) {
  %max = glow.graph.reduce_max %x axes [0, 1, 2, 3] : tensor<1x4x32x32xf32> -> tensor<f32>
  %min = glow.graph.reduce_min %x axes [0, 1, 2, 3] : tensor<1x4x32x32xf32> -> tensor<f32>
  %sum = glow.graph.reduce_sum %x axes [0, 1, 2, 3] : tensor<1x4x32x32xf32> -> tensor<f32>
  %mean = glow.graph.reduce_mean %x axes [0, 1, 2, 3] keep_dims : tensor<1x4x32x32xf32> -> tensor<1x1x1x1xf32>
  %imax = glow.graph.reduce_max %i axes [0, 1, 2] : tensor<2x8x8xi32> -> tensor<i32>
  %isum = glow.graph.reduce_sum %i axes [0, 1, 2] : tensor<2x8x8xi32> -> tensor<i32>
  %oddmax = glow.graph.reduce_max %odd axes [0, 1, 2] : tensor<3x5x7xf32> -> tensor<f32>
  %ones = glow.graph.splat 1.0 : tensor<1x4x32x32xf32>
  %same = glow.graph.max %x, %ones : tensor<1x4x32x32xf32>
  %unit = glow.graph.div %same, %same : tensor<1x4x32x32xf32>
  %prod = glow.graph.reduce_prod %unit axes [0, 1, 2, 3] : tensor<1x4x32x32xf32> -> tensor<f32>
  return %max, %min, %sum, %mean, %imax, %isum, %oddmax, %prod : tensor<f32>, tensor<f32>, tensor<f32>, tensor<1x1x1x1xf32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>
}
