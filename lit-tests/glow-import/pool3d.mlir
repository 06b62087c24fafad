// 3-D MaxPool / AveragePool import as two 2-D pools (the window is a box) over
// channels-last data: (H, W) over the N x D planes, then depth over (D, H' x W'), the
// transposes around them those glow-channels-last cancels. An average that counts
// explicit pads under ceil_mode pads explicitly first. Values checked against onnx's
// reference evaluator.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/models.py pool3d %t/pool.onnx
// RUN: glow-import %t/pool.onnx | FileCheck %s
// CHECK: glow.graph.transpose %arg0 perm [0, 2, 3, 4, 1] : tensor<1x2x5x7x7xf32> -> tensor<1x5x7x7x2xf32>
// CHECK: glow.graph.max_pool %{{.*}} kernel [3, 2] strides [2, 2] pads [0, 1, 1, 0] : tensor<5x2x7x7xf32> -> tensor<5x2x3x4xf32>
// CHECK: glow.graph.reshape %{{.*}} : tensor<5x3x4x2xf32> -> tensor<1x5x12x2xf32>
// CHECK: glow.graph.max_pool %{{.*}} kernel [2, 1] pads [1, 0, 0, 0] dilations [2, 1] : tensor<1x2x5x12xf32> -> tensor<1x2x4x12xf32>
// CHECK: glow.graph.transpose %{{.*}} perm [0, 4, 1, 2, 3] : tensor<1x4x3x4x2xf32> -> tensor<1x2x4x3x4xf32>
// CHECK: glow.graph.pad
// CHECK-COUNT-2: glow.graph.avg_pool
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.random.default_rng(0).standard_normal((1, 2, 5, 7, 7)).astype(np.float32))"
// RUN: glow-run %t/pool.onnx --input x=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np, onnx; from onnx.reference import ReferenceEvaluator as R; x = np.load('%t/x.npy'); ref = R(onnx.load('%t/pool.onnx')).run(None, {'x': x}); [print(n, r.shape == np.load('%t/out/%%s.npy' %% n).shape, float(np.abs(r - np.load('%t/out/%%s.npy' %% n)).max()) < 1e-5) for n, r in zip(('max', 'avg'), ref)]" | FileCheck %s --check-prefix=VALUES
// VALUES: max True True
// VALUES-NEXT: avg True True
