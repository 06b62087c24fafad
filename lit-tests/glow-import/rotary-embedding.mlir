// RotaryEmbedding (opset 23): cos / sin caches gathered at the position ids, the first
// 8 features of each of 2 heads rotated as halves or as interleaved pairs, the other 4
// passed through; both match onnxruntime.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/rotary.py good %t/rotary.onnx
// RUN: glow-import %t/rotary.onnx | FileCheck %s --check-prefix=IR
// IR: glow.graph.gather %{{.*}}, %arg1 : (tensor<16x4xf32>, tensor<2x5xi64>) -> tensor<2x5x4xf32>
// IR: glow.graph.concat %{{.*}}, %{{.*}} dim 3 : (tensor<2x5x2x8xf32>, tensor<2x5x2x4xf32>) -> tensor<2x5x2x12xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/rotary.onnx --input-shape x=2x5x24 --input-shape positions=2x5 --int-high 16 --bin %glow_bin | FileCheck %s
// CHECK: PASS

// Bad input: one line naming the node and what is wrong, exit 1, no output file.
// RUN: %python %S/Inputs/rotary.py bad %t/bad.onnx
// RUN: not glow-import %t/bad.onnx -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t/bad.mlir
// BAD: glow-import: error: node 'pairs' (RotaryEmbedding): 3-D input of hidden size 24 needs num_heads dividing it (num_heads 5)
