// SoftmaxCrossEntropyLoss and NegativeLogLikelihoodLoss: the score at each target
// class picked by a gather_elements, weighted, reduced; they match onnxruntime, with
// targets that hit ignore_index.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/losses.py losses %t/losses.onnx
// RUN: glow-import %t/losses.onnx | FileCheck %s --check-prefix=IR
// IR: glow.graph.log_softmax %arg0 axis 1 : tensor<3x5x4xf32>
// IR: glow.graph.gather_elements %{{.*}}, %{{.*}} axis 1 : tensor<3x5x4xf32>, tensor<3x1x4xi64> -> tensor<3x1x4xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/losses.onnx --input-shape x=3x5x4 --input-shape target=3x4 --int-high 5 --bin %glow_bin | FileCheck %s
// CHECK: output sce: 1 values
// CHECK: output log_prob: 60 values
// CHECK: output nll: 12 values
// CHECK: output nll_sum: 1 values
// CHECK: PASS

// Bad input: one line naming the node and what is wrong, exit 1, no output file.
// RUN: %python %S/Inputs/losses.py bad %t/bad.onnx
// RUN: not glow-import %t/bad.onnx -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t/bad.mlir
// BAD: glow-import: error: node 'nll' (NegativeLogLikelihoodLoss): target has shape [3, 5]; scores [3, 5, 4] need [3, 4]
