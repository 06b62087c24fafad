// Index-computing ops to linalg.generic (values checked in lit-tests/glow-run/indexing.mlir).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s

// arg_max: a reduction over the axis carrying (best value from -inf, its index).
// CHECK-LABEL: func.func @arg_max
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 1
// CHECK: arith.select
// CHECK: arith.select
// CHECK: linalg.yield {{.*}} : f32, i64
func.func @arg_max(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = glow.graph.arg_max %x axis 1 : tensor<2x3xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// gather_elements: the index, wrapped when negative, replaces the axis coordinate.
// CHECK-LABEL: func.func @gather_elements
// CHECK: linalg.generic {{.*}}ins(%arg1 : tensor<2x2xi64>)
// CHECK: arith.index_cast
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: %[[ROW:.*]] = linalg.index 0
// CHECK: tensor.extract %arg0[%[[ROW]], %{{.*}}] : tensor<2x3xf32>
func.func @gather_elements(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = glow.graph.gather_elements %x, %i axis 1 : tensor<2x3xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// tile: out[i] = in[i mod in_shape] on the repeated dimensions only.
// CHECK-LABEL: func.func @tile
// CHECK: %[[R:.*]] = linalg.index 0
// CHECK: %[[C:.*]] = linalg.index 1
// CHECK: %[[W:.*]] = arith.remui %[[C]]
// CHECK: tensor.extract %arg0[%[[R]], %[[W]]]
func.func @tile(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %0 = glow.graph.tile %x repeats [1, 2] : tensor<2x3xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// round: halves to even; pow on integers computed in f64.
// CHECK-LABEL: func.func @round_pow
// CHECK: math.roundeven
// CHECK: arith.sitofp {{.*}} : i32 to f64
// CHECK: math.powf {{.*}} : f64
// CHECK: arith.fptosi {{.*}} : f64 to i32
func.func @round_pow(%x: tensor<3xf32>, %n: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %0 = glow.graph.round %x : tensor<3xf32>
  %1 = glow.graph.pow %n, %n : tensor<3xi32>
  return %0, %1 : tensor<3xf32>, tensor<3xi32>
}

// -----

// A float power by a splat 2 or 3 is a product (math.powf has no vector lowering: it
// stays for other exponents, as a constant or a splat).
// CHECK-LABEL: func.func @small_powers
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[CUBE:.*]] = arith.mulf %[[SQUARE]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[CUBE]]
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SQUARE2:.*]] = arith.mulf %[[Y]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[SQUARE2]]
// CHECK: linalg.powf
// CHECK: linalg.powf
func.func @small_powers(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %three = glow.graph.splat 3.0 : tensor<4xf32>
  %0 = glow.graph.pow %x, %three : tensor<4xf32>
  %two = glow.graph.constant dense<2.0> : tensor<4xf32>
  %1 = glow.graph.pow %x, %two : tensor<4xf32>
  %half = glow.graph.splat 0.5 : tensor<4xf32>
  %2 = glow.graph.pow %x, %half : tensor<4xf32>
  %mixed = glow.graph.constant dense<[2.0, 3.0, 2.0, 3.0]> : tensor<4xf32>
  %3 = glow.graph.pow %x, %mixed : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// top_k: ranks along the axis (a reduction over a second walk of the axis), then the
// element of rank j picked for output position j.
// CHECK-LABEL: func.func @top_k
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins(%arg0, %arg0
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpi ult
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.yield {{.*}} : f32, i64
func.func @top_k(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
  %v, %i = glow.graph.top_k %x k 3 axis 1 : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi64>
}

// -----

// local_response_norm: squares padded along the channels, a window-sum reduction,
// then x / (bias + alpha / size * sum) ^ beta.
// CHECK-LABEL: func.func @lrn
// CHECK: arith.mulf
// CHECK: tensor.pad {{.*}} low[0, 1, 0, 0] high[0, 1, 0, 0]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: math.powf
// CHECK: arith.divf
func.func @lrn(%x: tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32> {
  %0 = glow.graph.local_response_norm %x size 3 alpha 1.0e-4 beta 0.75 bias 1.0 : tensor<1x5x2x2xf32>
  return %0 : tensor<1x5x2x2xf32>
}

// -----

// A window wider than 2 x channels covers every channel: it is clamped to 2 x 5 (no
// 2^62-wide padding), and the scale keeps the declared size (alpha / 2^62 = 2^-62).
// CHECK-LABEL: func.func @lrn_huge_window
// CHECK: arith.constant 2.16840434E-19 : f32
// CHECK: tensor.pad {{.*}} low[0, 4, 0, 0] high[0, 5, 0, 0]
// CHECK: tensor.empty() : tensor<10xf32>
func.func @lrn_huge_window(%x: tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32> {
  %0 = glow.graph.local_response_norm %x size 4611686018427387904 alpha 1.0 beta 0.75 bias 1.0 : tensor<1x5x2x2xf32>
  return %0 : tensor<1x5x2x2xf32>
}

// -----

// scatter_elements: an scf.for over the update positions carrying the output tensor.
// CHECK-LABEL: func.func @scatter
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg0) -> (tensor<3x3xf32>)
// CHECK: tensor.extract %arg1
// CHECK: tensor.extract %arg2
// CHECK: tensor.extract %[[ACC]]
// CHECK: arith.addf
// CHECK: tensor.insert {{.*}} into %[[ACC]]
// CHECK: scf.yield
func.func @scatter(%x: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = glow.graph.scatter_elements %x, %i, %u axis 0 reduction "add" : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  return %0 : tensor<3x3xf32>
}
