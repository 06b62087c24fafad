// resize: one linalg.generic over the output; per resampled dimension the input
// coordinate in f64, the taps (1 nearest, 2 linear, 4 cubic) clamped to the input, and
// their weighted sum. Values through glow-run (ONNX's own cases run in conformance.py).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[[[1, 2], [3, 4]]]], np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(np.load('%t/out/output%%d.npy' %% k).tolist()) for k in range(4)]" | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[\[\[}}[1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 4.0, 4.0], [3.0, 3.0, 4.0, 4.0]]]]
// VALUES-NEXT: {{\[\[\[}}[1.0, 1.25, 1.75, 2.0], [1.5, 1.75, 2.25, 2.5], [2.5, 2.75, 3.25, 3.5], [3.0, 3.25, 3.75, 4.0]]]]
// VALUES-NEXT: {{\[\[\[}}[1.0, 1.5, 2.0], [2.0, 2.5, 3.0], [3.0, 3.5, 4.0]]]]
// VALUES-NEXT: {{\[\[\[}}[2.5, 0.0], [0.0, 0.0]]]]

// The batch and channel dimensions are not resampled: their output index (folded to
// 0 for these unit dimensions) is used as is.
// CHECK-LABEL: func.func @main
// CHECK: linalg.generic {{.*}}outs(%{{.*}} : tensor<1x1x4x4xf32>)
// CHECK: linalg.index 2
// CHECK: arith.divf {{.*}} : f64
// CHECK: math.floor
// CHECK: tensor.extract %arg0[%c0, %c0, %{{.*}}, %{{.*}}] : tensor<1x1x2x2xf32>
// CHECK: linalg.generic
// CHECK: arith.extf {{.*}} : f32 to f64
// CHECK: arith.truncf {{.*}} : f64 to f32
func.func @main(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) {
  %0 = glow.graph.resize %x mode "nearest" coordinates "asymmetric" nearest_mode "floor" scales [1.0, 1.0, 2.0, 2.0] : tensor<1x1x2x2xf32> -> tensor<1x1x4x4xf32>
  %1 = glow.graph.resize %x mode "linear" coordinates "half_pixel" : tensor<1x1x2x2xf32> -> tensor<1x1x4x4xf32>
  %2 = glow.graph.resize %x mode "cubic" coordinates "align_corners" : tensor<1x1x2x2xf32> -> tensor<1x1x3x3xf32>
  // A crop from the centre (0.5, 0.5) to (1.5, 1.5), sampled at its corners: the
  // extrapolation value 0 outside the input.
  %3 = glow.graph.resize %x mode "linear" coordinates "tf_crop_and_resize" roi [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.5, 1.5] : tensor<1x1x2x2xf32> -> tensor<1x1x2x2xf32>
  return %0, %1, %2, %3 : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>
}
