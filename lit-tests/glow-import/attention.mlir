// ONNX's Attention op (opset 23) as its function body's ops: the models match
// onnxruntime. A decoder step: 3-D inputs split into 4 query heads over 2 key / value
// heads (grouped-query attention), past keys / values concatenated in front (the
// present outputs), causal after the 5 cached tokens, a boolean padding mask. And 4-D
// inputs with a float mask, a scale and the probabilities as a second output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/attention.py decoder %t/decoder.onnx
// RUN: glow-import %t/decoder.onnx | FileCheck %s --check-prefix=DECODER
// DECODER: glow.graph.transpose %{{.*}} perm [0, 2, 1, 3] : tensor<2x3x4x8xf32> -> tensor<2x4x3x8xf32>
// DECODER: glow.graph.concat %arg4, %{{.*}} dim 2 : (tensor<2x2x5x8xf32>, tensor<2x2x3x8xf32>) -> tensor<2x2x8x8xf32>
// Each key / value head repeated for its 2 query heads.
// DECODER: glow.graph.broadcast %{{.*}} : tensor<2x2x1x8x8xf32> -> tensor<2x2x2x8x8xf32>
// Q K^T over batch x heads, then softmax over the 8 keys.
// DECODER: glow.graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<8x3x8xf32>, tensor<8x8x8xf32>) -> tensor<8x3x8xf32>
// DECODER: glow.graph.softmax %{{.*}} axis 3 : tensor<2x4x3x8xf32>
// A row whose mask refuses every key gets zeros, not NaN.
// DECODER: glow.graph.reduce_max
// DECODER: glow.graph.select
// DECODER: glow.graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<8x3x8xf32>, tensor<8x8x8xf32>) -> tensor<8x3x8xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/decoder.onnx --input-shape q=2x3x32 --input-shape k=2x3x16 --input-shape v=2x3x16 --input-shape mask=2x1x3x8 --input-shape past_k=2x2x5x8 --input-shape past_v=2x2x5x8 --bin %glow_bin | FileCheck %s
// RUN: %python %S/Inputs/attention.py scores %t/scores.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/scores.onnx --input-shape q=1x2x4x8 --input-shape k=1x2x6x8 --input-shape v=1x2x6x5 --input-shape mask=4x6 --bin %glow_bin | FileCheck %s
// CHECK: PASS

// Bad input: one line naming the node and what is wrong, exit 1, no output file.
// RUN: %python %S/Inputs/attention.py no-heads %t/bad1.onnx
// RUN: not glow-import %t/bad1.onnx -o %t/bad1.mlir 2>&1 | FileCheck %s --check-prefix=BAD1
// RUN: not test -e %t/bad1.mlir
// BAD1: glow-import: error: node 'attention' (Attention): 3-D Q needs the q_num_heads and kv_num_heads attributes
// RUN: %python %S/Inputs/attention.py heads %t/bad2.onnx
// RUN: not glow-import %t/bad2.onnx 2>&1 | FileCheck %s --check-prefix=BAD2
// BAD2: glow-import: error: node 'attention' (Attention): 3 query heads are not a multiple of 2 key / value heads
