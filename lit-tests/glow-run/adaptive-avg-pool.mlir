// adaptive_avg_pool through the CPU pipeline (both lowerings: avg_pool when the
// extents divide, averaging matmuls otherwise) against a direct NumPy evaluation of
// PyTorch's windows (start = floor(i * H / OH), end = ceil((i + 1) * H / OH)).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.random.default_rng(7).standard_normal((2, 3, 7, 6)).astype(np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --output-dir %t/out
// RUN: %python %S/Inputs/adaptive_avg_pool_reference.py %t/x.npy %t/out/output0.npy %t/out/output1.npy %t/out/output2.npy | FileCheck %s
// CHECK: output 0 (3, 2): max |error| within 1e-6
// CHECK: output 1 (7, 3): max |error| within 1e-6
// CHECK: output 2 (1, 1): max |error| within 1e-6

func.func @main(%x: tensor<2x3x7x6xf32>) -> (tensor<2x3x3x2xf32>, tensor<2x3x7x3xf32>, tensor<2x3x1x1xf32>) {
  %0 = glow.graph.adaptive_avg_pool %x : tensor<2x3x7x6xf32> -> tensor<2x3x3x2xf32>
  %1 = glow.graph.adaptive_avg_pool %x : tensor<2x3x7x6xf32> -> tensor<2x3x7x3xf32>
  %2 = glow.graph.adaptive_avg_pool %x : tensor<2x3x7x6xf32> -> tensor<2x3x1x1xf32>
  return %0, %1, %2 : tensor<2x3x3x2xf32>, tensor<2x3x7x3xf32>, tensor<2x3x1x1xf32>
}
