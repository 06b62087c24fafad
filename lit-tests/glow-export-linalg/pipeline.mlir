// glow-export-linalg: glow.graph to upstream-only linalg on tensors. Elementwise
// work is linalg.generic (IREE's MLIR has no linalg.add / linalg.exp ...), contractions
// keep their names, convolutions are channels-last, the runtime index check is gone
// (its indices stay wrapped and clamped), and no glow op is left.
// RUN: glow-opt %s --glow-export-linalg | FileCheck %s
// RUN: glow-opt %s --glow-export-linalg -o %t.mlir
// RUN: not grep -E "glow\.(graph|quant|instr)\.[a-z]" %t.mlir

// CHECK-LABEL: func.func @mlp
// CHECK-NOT: linalg.add
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: arith.cmpf
// CHECK: arith.select
func.func @mlp(%x: tensor<2x4xf32> {glow.name = "x"}) -> tensor<2x3xf32> {
  %w = glow.graph.constant dense<0.5> : tensor<4x3xf32>
  %b = glow.graph.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %y = glow.graph.fully_connected %x, %w, %b : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = glow.graph.relu %y : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @embed
// CHECK-NOT: glow.instr.check
// CHECK: linalg.generic
// CHECK: arith.minsi
// CHECK: tensor.extract
func.func @embed(%ids: tensor<2x2xi64> {glow.name = "ids"}) -> tensor<2x2x2xf32> {
  %table = glow.graph.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]> : tensor<4x2xf32>
  %y = glow.graph.gather %table, %ids axis 0 : (tensor<4x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32> loc("embed")
  return %y : tensor<2x2x2xf32>
}
