// A transpose sinks below glow.graph.resize (every dimension is resampled on its own:
// the scales and roi entries move with the permutation), so the layout transposes
// around an upsampling between convolutions cancel. Not sunk: a resize the function
// returns (written in the result's layout directly), a transpose with another user.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s
// Through the channels-last layout, an upsampling between two convolutions runs on
// NHWC data with no transpose left between them, and executes as numpy does.
// RUN: glow-opt %S/Inputs/resize-execute.mlir --pass-pipeline='builtin.module(func.func(glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-channels-last))' | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: glow.graph.conv2d {{.*}} -> tensor<1x5x8x4xf32>
// LAYOUT-NOT: glow.graph.transpose
// LAYOUT: glow.graph.resize {{.*}} : tensor<1x5x8x4xf32> -> tensor<1x10x16x4xf32>
// LAYOUT-NOT: glow.graph.transpose
// LAYOUT: glow.graph.conv2d
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(2); [np.save(f'%t/{n}.npy', r.standard_normal(s).astype(np.float32)) for n, s in (('x', (1, 3, 5, 8)), ('w1', (4, 3, 1, 1)), ('b1', (4,)), ('w2', (2, 4, 1, 1)), ('b2', (2,)))]"
// RUN: glow-run %S/Inputs/resize-execute.mlir --threads 1 --input input0=%t/x.npy --input input1=%t/w1.npy --input input2=%t/b1.npy --input input3=%t/w2.npy --input input4=%t/b2.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; x, w1, b1, w2, b2 = (np.load(f'%t/{n}.npy') for n in ('x', 'w1', 'b1', 'w2', 'b2')); c = np.einsum('nchw,oc->nohw', x, w1[:, :, 0, 0]) + b1[:, None, None]; r = c.repeat(2, 2).repeat(2, 3); d = np.einsum('nchw,oc->nohw', r, w2[:, :, 0, 0]) + b2[:, None, None]; print(np.abs(np.load('%t/out/output0.npy') - d).max() < 1e-5)" | FileCheck %s --check-prefix=SAME
// SAME: True

// CHECK-LABEL: func.func @cancel
// CHECK-NEXT: %[[R:.*]] = glow.graph.resize %arg0 mode "linear" coordinates "tf_crop_and_resize" scales [1.000000e+00, 2.000000e+00, 3.000000e+00, 1.000000e+00] roi [0.000000e+00, 1.000000e-01, 2.000000e-01, 0.000000e+00, 1.000000e+00, 9.000000e-01, 8.000000e-01, 1.000000e+00] : tensor<1x4x5x3xf32> -> tensor<1x8x15x3xf32>
// CHECK-NEXT: %[[A:.*]] = glow.graph.relu %[[R]]
// CHECK-NEXT: return %[[A]]
func.func @cancel(%x: tensor<1x4x5x3xf32>) -> tensor<1x8x15x3xf32> {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x5x3xf32> -> tensor<1x3x4x5xf32>
  %r = glow.graph.resize %t mode "linear" coordinates "tf_crop_and_resize" scales [1.0, 1.0, 2.0, 3.0] roi [0.0, 0.0, 0.1, 0.2, 1.0, 1.0, 0.9, 0.8] : tensor<1x3x4x5xf32> -> tensor<1x3x8x15xf32>
  %u = glow.graph.transpose %r perm [0, 2, 3, 1] : tensor<1x3x8x15xf32> -> tensor<1x8x15x3xf32>
  %a = glow.graph.relu %u : tensor<1x8x15x3xf32>
  return %a : tensor<1x8x15x3xf32>
}

// -----

// CHECK-LABEL: func.func @returned
// CHECK-NEXT: glow.graph.transpose
// CHECK-NEXT: glow.graph.resize %{{.*}} : tensor<1x3x4x5xf32> -> tensor<1x3x8x10xf32>
func.func @returned(%x: tensor<1x4x5x3xf32>) -> tensor<1x3x8x10xf32> {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x5x3xf32> -> tensor<1x3x4x5xf32>
  %r = glow.graph.resize %t mode "nearest" coordinates "asymmetric" nearest_mode "floor" scales [1.0, 1.0, 2.0, 2.0] : tensor<1x3x4x5xf32> -> tensor<1x3x8x10xf32>
  return %r : tensor<1x3x8x10xf32>
}

// -----

// CHECK-LABEL: func.func @shared
// CHECK-NEXT: %[[T:.*]] = glow.graph.transpose
// CHECK-NEXT: glow.graph.resize %[[T]] {{.*}} : tensor<1x3x4x5xf32> -> tensor<1x3x8x10xf32>
func.func @shared(%x: tensor<1x4x5x3xf32>) -> (tensor<1x8x10x3xf32>, tensor<1x3x4x5xf32>) {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x5x3xf32> -> tensor<1x3x4x5xf32>
  %r = glow.graph.resize %t mode "nearest" coordinates "asymmetric" nearest_mode "floor" : tensor<1x3x4x5xf32> -> tensor<1x3x8x10xf32>
  %u = glow.graph.transpose %r perm [0, 2, 3, 1] : tensor<1x3x8x10xf32> -> tensor<1x8x10x3xf32>
  return %u, %t : tensor<1x8x10x3xf32>, tensor<1x3x4x5xf32>
}
