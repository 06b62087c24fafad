// batch_norm (inference) -> per-channel scale/shift on 1-D tensors, broadcast, then
// one mul and one add per element (Glow's lowerBatchNormalizationNode).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes))' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=batch_norm}))' | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4x4xf32>, %[[S:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xf32>, %[[V:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[EPS:.*]] = glow.graph.splat 1.000000e-03 : tensor<3xf32>
// CHECK-NEXT: %[[VE:.*]] = glow.graph.add %[[V]], %[[EPS]] : tensor<3xf32>
// CHECK-NEXT: %[[SD:.*]] = glow.graph.sqrt %[[VE]] : tensor<3xf32>
// CHECK-NEXT: %[[K:.*]] = glow.graph.div %[[S]], %[[SD]] : tensor<3xf32>
// CHECK-NEXT: %[[MK:.*]] = glow.graph.mul %[[M]], %[[K]] : tensor<3xf32>
// CHECK-NEXT: %[[SH:.*]] = glow.graph.sub %[[B]], %[[MK]] : tensor<3xf32>
// CHECK-NEXT: %[[KB:.*]] = glow.graph.broadcast %[[K]] axis 1 : tensor<3xf32> -> tensor<1x3x4x4xf32>
// CHECK-NEXT: %[[SB:.*]] = glow.graph.broadcast %[[SH]] axis 1 : tensor<3xf32> -> tensor<1x3x4x4xf32>
// CHECK-NEXT: %[[Y0:.*]] = glow.graph.mul %[[X]], %[[KB]] : tensor<1x3x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = glow.graph.add %[[Y0]], %[[SB]] : tensor<1x3x4x4xf32>
// CHECK-NEXT: return %[[Y]]
// KEEP-LABEL: func.func @nchw
// KEEP: glow.graph.batch_norm
func.func @nchw(%x: tensor<1x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %y = glow.graph.batch_norm %x, %s, %b, %m, %v epsilon 1.0e-3 : tensor<1x3x4x4xf32>, tensor<3xf32>
  return %y : tensor<1x3x4x4xf32>
}

// Without an explicit epsilon the ODS default (1e-5, rounded to f16) is used; channel -1 is the last
// dimension, so the broadcast lines the vector up with dimension 2.
// CHECK-LABEL: func.func @channels_last
// CHECK: glow.graph.splat 1.001360e-05 : tensor<8xf16>
// CHECK: glow.graph.broadcast %{{.*}} axis 2 : tensor<8xf16> -> tensor<2x5x8xf16>
func.func @channels_last(%x: tensor<2x5x8xf16>, %v: tensor<8xf16>) -> tensor<2x5x8xf16> {
  %y = glow.graph.batch_norm %x, %v, %v, %v, %v channel -1 : tensor<2x5x8xf16>, tensor<8xf16>
  return %y : tensor<2x5x8xf16>
}
