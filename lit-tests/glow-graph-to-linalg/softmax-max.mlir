// A softmax's row maximum (tagged glow.softmax_max by glow-lower-nodes) is reduced with
// arith.maxnumf: a NaN in the row makes every output NaN through the row's sum
// whatever the maximum, and LLVM lowers maxnumf to a compare and a blend where
// maximumf also orders signed zeros. Any other reduce_max keeps maximumf (NaN
// propagates, as ONNX ReduceMax does). The division by the row sum is a product with
// its reciprocal in f32 (one division per row once vectorized); bf16 and f16 divide
// (their rounded reciprocal would cost an ulp of the narrow type).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes,glow-graph-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK: linalg.reduce
// CHECK: arith.maxnumf
// CHECK-NOT: arith.maximumf
// CHECK: ^bb0(%[[E:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK-NEXT: arith.mulf %[[E]], %[[R]] : f32
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

// CHECK-LABEL: func.func @softmax_bf16
// CHECK: arith.maxnumf
// CHECK-NOT: arith.mulf
// CHECK: linalg.div
// CHECK: return
func.func @softmax_bf16(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %y = glow.graph.softmax %x axis 1 : tensor<4x64xbf16>
  return %y : tensor<4x64xbf16>
}
