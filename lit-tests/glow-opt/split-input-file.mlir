// --split-input-file processes each chunk on its own; -o writes the joined result.
// RUN: glow-opt %s --split-input-file -o %t.out && FileCheck %s < %t.out

// CHECK-LABEL: func.func @first
// CHECK: glow.graph.relu
func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = glow.graph.relu %x : tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// CHECK: // -----
// CHECK-LABEL: func.func @second
// CHECK: glow.graph.tanh
func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = glow.graph.tanh %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
