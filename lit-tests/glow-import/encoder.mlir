// A transformer-encoder slice with int64 token ids and an attention mask: embedding
// Gather, LayerNormalization, MatMul with shared and batched operands, Where,
// Erf-based Gelu; scalar constants become splats.
// RUN: %python %S/Inputs/models.py encoder %t.onnx
// RUN: glow-import %t.onnx --input-shape ids=2x8 --input-shape mask=2x8 --no-locations | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[IDS:.*]]: tensor<2x8xi64> {glow.name = "ids"}, %[[MASK:.*]]: tensor<2x8xi64> {glow.name = "mask"}) -> (tensor<2x8x16xf32> {glow.name = "out"})
// CHECK: glow.graph.gather %{{.*}}, %[[IDS]] : (tensor<50x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
// CHECK: glow.graph.layer_norm %{{.*}} axis 2 epsilon 9.99999996E-13 : tensor<2x8x16xf32>, tensor<16xf32>
// A shared weight matrix: the batch folds into the rows of one matmul.
// CHECK: glow.graph.reshape %{{.*}} : tensor<2x8x16xf32> -> tensor<16x16xf32>
// CHECK: glow.graph.matmul %{{.*}} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK: glow.graph.transpose %{{.*}} perm [0, 2, 1] : tensor<2x8x16xf32> -> tensor<2x16x8xf32>
// CHECK: glow.graph.batch_matmul %{{.*}} : (tensor<2x8x16xf32>, tensor<2x16x8xf32>) -> tensor<2x8x8xf32>
// CHECK: glow.graph.convert %[[MASK]] : tensor<2x8xi64> -> tensor<2x8xi1>
// The mask broadcasts explicitly to the scores' shape; the fill value is a splat.
// CHECK: glow.graph.broadcast %{{.*}} axis 0 : tensor<2x1x8xi1> -> tensor<2x8x8xi1>
// CHECK: glow.graph.splat -1.000000e+04 : tensor<2x8x8xf32>
// CHECK: glow.graph.select %{{.*}} : tensor<2x8x8xi1>, tensor<2x8x8xf32>
// CHECK: glow.graph.softmax %{{.*}} axis 2 : tensor<2x8x8xf32>
// CHECK: glow.graph.erf
