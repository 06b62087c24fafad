// A small CNN: Conv/BN/ReLU/MaxPool, the exporter's Shape->Gather->Unsqueeze->Concat->
// Reshape chain (folded into a static reshape), Gemm with transB (weights transposed
// at import), Softmax. The symbolic batch dimension is pinned with --input-shape.
// RUN: %python %S/Inputs/models.py cnn %t.onnx
// RUN: glow-import %t.onnx --input-shape x=2x3x16x16 --no-locations -o %t.mlir
// By default the text keeps locations: the ONNX node names.
// RUN: glow-import %t.onnx --input-shape x=2x3x16x16 | FileCheck %s --check-prefix=LOCATIONS
// LOCATIONS: glow.graph.conv2d {{.*}} loc(#[[CONV:.*]])
// LOCATIONS: #[[CONV]] = loc("conv1"(
// RUN: FileCheck %s < %t.mlir
// RUN: glow-opt %t.mlir --verify-each -o /dev/null
// The weights are streamed into the text (glow_dialects::text_output) exactly as MLIR's
// own printer writes them: glow-opt prints the module back byte for byte.
// RUN: glow-opt %t.mlir -o %t.reprinted.mlir
// RUN: diff %t.mlir %t.reprinted.mlir

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x16x16xf32> {glow.name = "x"}) -> (tensor<2x10xf32> {glow.name = "prob"})
// CHECK: glow.graph.constant dense_resource<{{.*}}> : tensor<8x3x3x3xf32>
// CHECK: glow.graph.conv2d %[[X]], %{{.*}}, %{{.*}} strides [2, 2] pads [1, 1, 1, 1] : (tensor<2x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<2x8x8x8xf32>
// CHECK: glow.graph.batch_norm %{{.*}} epsilon 1.000000e-03 : tensor<2x8x8x8xf32>, tensor<8xf32>
// CHECK: glow.graph.relu
// CHECK: glow.graph.max_pool %{{.*}} kernel [2, 2] strides [2, 2] : tensor<2x8x8x8xf32> -> tensor<2x8x4x4xf32>
// The shape chain leaves no Shape/Gather/Concat behind: one static reshape.
// CHECK-NOT: glow.graph.gather
// CHECK-NOT: glow.graph.concat
// CHECK: glow.graph.reshape %{{.*}} : tensor<2x8x4x4xf32> -> tensor<2x128xf32>
// Gemm(transB) with a bias vector is a fully_connected on the transposed weights.
// CHECK: glow.graph.fully_connected %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x128xf32>, tensor<128x10xf32>, tensor<10xf32>) -> tensor<2x10xf32>
// CHECK: glow.graph.softmax %{{.*}} axis 1 : tensor<2x10xf32>
// CHECK: dialect_resources
