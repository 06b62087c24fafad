// glow-generalize-elementwise: linalg's elementwise named ops become linalg.generic
// with the same scalar body; contractions, convolutions, fill and transpose keep
// their names.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-generalize-elementwise))' | FileCheck %s

// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: linalg.add
// CHECK-NOT: linalg.exp
// CHECK-NOT: linalg.select
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: arith.select
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xi1>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.exp ins(%0 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.select ins(%c, %1, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @kept
// CHECK: linalg.fill
// CHECK: linalg.matmul
// CHECK: linalg.transpose
// CHECK-NOT: linalg.generic
func.func @kept(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = linalg.transpose ins(%m : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}
