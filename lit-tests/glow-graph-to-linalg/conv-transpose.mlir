// conv_transpose2d: the input spread by the strides into a zero tensor, the filter
// flipped and transposed, then a stride-1 convolution. Values through glow-run.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[[[1, 0], [0, 2]]]], np.float32)); np.save('%t/w.npy', np.array([[[[1, 2], [3, 4]]]], np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --input input1=%t/w.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; print(np.load('%t/out/output0.npy').tolist()); print(np.load('%t/out/output1.npy').tolist())" | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[\[\[}}[1.0, 2.0, 0.0], [3.0, 6.0, 4.0], [0.0, 6.0, 8.0]]]]
// VALUES-NEXT: {{\[\[\[}}[1.0, 2.0, 0.0, 0.0], [3.0, 4.0, 0.0, 0.0], [0.0, 0.0, 2.0, 4.0], [0.0, 0.0, 6.0, 8.0]]]]

// CHECK-LABEL: func.func @main
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x1x5x5xf32>
// CHECK: tensor.insert_slice %arg0 into %[[Z]][0, 0, 1, 1] [1, 1, 2, 2] [1, 1, 2, 2]
// CHECK: linalg.generic {{.*}}ins(%arg1 : tensor<1x1x2x2xf32>)
// CHECK: linalg.conv_2d_nchw_fchw
func.func @main(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x2x2xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>) {
  %0 = glow.graph.conv_transpose2d %x, %w : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
  %1 = glow.graph.conv_transpose2d %x, %w strides [2, 2] : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0, %1 : tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>
}
