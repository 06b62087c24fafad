// A softmax's row maximum (tagged glow.softmax_max by glow-lower-nodes) is reduced with
// arith.maxnumf: a NaN in the row makes every output NaN through the row's sum
// whatever the maximum, and LLVM lowers maxnumf to a compare and a blend where
// maximumf also orders signed zeros. Any other reduce_max keeps maximumf (NaN
// propagates, as ONNX ReduceMax does).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes,glow-graph-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK: linalg.reduce
// CHECK: arith.maxnumf
// CHECK-NOT: arith.maximumf
// CHECK: return
func.func @softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %y = glow.graph.softmax %x axis 1 : tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// CHECK-LABEL: func.func @reduce_max
// CHECK: arith.maximumf
// CHECK-NOT: arith.maxnumf
// CHECK: return
func.func @reduce_max(%x: tensor<4x64xf32>) -> tensor<4xf32> {
  %y = glow.graph.reduce_max %x axes [1] : tensor<4x64xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
