// resize: per resampled dimension, the taps (1 nearest, 2 linear, 4 cubic: input
// indices clamped to the input, and weights) are tables computed at compile time.
// A crop, or a single resampled dimension: one linalg.generic over the output whose
// tables are operands indexed by their dimension. Two or more resampled dimensions:
// one generic per dimension, the innermost first (weighted sums in f64 until the last
// rounds them; nearest values moved in their own type); the outer dimensions read
// their index tables with tensor.extract at the loop index (invariant along a row, so
// the vectorizer reads whole rows). Values through glow-run (ONNX's own cases run in
// conformance.py).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[[[1, 2], [3, 4]]]], np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(np.load('%t/out/output%%d.npy' %% k).tolist()) for k in range(5)]; print(np.load('%t/out/output5.npy')[0, 0, 5].tolist())" | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[\[\[}}[1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 4.0, 4.0], [3.0, 3.0, 4.0, 4.0]]]]
// VALUES-NEXT: {{\[\[\[}}[1.0, 1.25, 1.75, 2.0], [1.5, 1.75, 2.25, 2.5], [2.5, 2.75, 3.25, 3.5], [3.0, 3.25, 3.75, 4.0]]]]
// VALUES-NEXT: {{\[\[\[}}[1.0, 1.5, 2.0], [2.0, 2.5, 3.0], [3.0, 3.5, 4.0]]]]
// VALUES-NEXT: {{\[\[\[}}[2.5, 0.0], [0.0, 0.0]]]]
// VALUES-NEXT: {{\[\[\[}}[1.0, 1.0, 1.0, 1.0, 1.0625, 1.1875, 1.3125, 1.4375, 1.5625, 1.6875, 1.8125, 1.9375, 2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0, 3.0625, 3.1875, 3.3125, 3.4375, 3.5625, 3.6875, 3.8125, 3.9375, 4.0, 4.0, 4.0, 4.0]]]]
// Row 5 of the 16 x 16 upsampling (one dimension at a time): 1 + 2 (5.5 / 8 - 0.5) + x_w.
// VALUES-NEXT: [1.375, 1.375, 1.375, 1.375, 1.4375, 1.5625, 1.6875, 1.8125, 1.9375, 2.0625, 2.1875, 2.3125, 2.375, 2.375, 2.375, 2.375]

// The batch and channel dimensions are not resampled: their output index (folded to
// 0 for these unit dimensions) is used as is. Nearest, asymmetric, floor, 2 -> 4: one
// tap per dimension, indices 0 0 1 1.
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[NEAREST:.*]] = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi32>
// Linear, half_pixel, 2 -> 4: x = -0.25, 0.25, 0.75, 1.25; taps floor(x), floor(x) + 1
// clamped, weights 1 - r and r.
// CHECK-DAG: %[[LOW:.*]] = arith.constant dense<[0, 0, 0, 1]> : tensor<4xi32>
// CHECK-DAG: %[[HIGH:.*]] = arith.constant dense<[0, 1, 1, 1]> : tensor<4xi32>
// CHECK-DAG: %[[W_LOW:.*]] = arith.constant dense<[2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01]> : tensor<4xf64>
// CHECK-DAG: %[[W_HIGH:.*]] = arith.constant dense<[7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]> : tensor<4xf64>
// The crop: its outside flags as bytes (x = 0.5, 1.5: the second lies outside).
// CHECK-DAG: arith.constant dense<[0, 1]> : tensor<2xi8>
// The nearest resize: the width (gathers) ...
// CHECK: %[[NEAREST_W:.*]] = linalg.generic {{.*}}ins(%[[NEAREST]] : tensor<4xi32>) outs(%{{.*}} : tensor<1x1x2x4xf32>)
// CHECK: %[[W:.*]] = arith.index_cast %in : i32 to index
// CHECK: tensor.extract %arg0[%c0, %c0, %{{.*}}, %[[W]]] : tensor<1x1x2x2xf32>
// ... then the height, rows read whole, no arithmetic.
// CHECK: linalg.generic {{.*}}outs(%{{.*}} : tensor<1x1x4x4xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract %[[NEAREST]][%{{.*}}] : tensor<4xi32>
// CHECK: %[[H:.*]] = arith.index_cast %[[ROW]] : i32 to index
// CHECK: tensor.extract %[[NEAREST_W]][%c0, %c0, %[[H]], %{{.*}}] : tensor<1x1x2x4xf32>
// CHECK-NOT: arith.divf
// The linear resize: the width first, into f64 ...
// CHECK: %[[WIDTH:.*]] = linalg.generic {{.*}}ins(%[[LOW]], %[[HIGH]], %[[W_LOW]], %[[W_HIGH]] : tensor<4xi32>, tensor<4xi32>, tensor<4xf64>, tensor<4xf64>) outs(%{{.*}} : tensor<1x1x2x4xf64>)
// CHECK: arith.extf {{.*}} : f32 to f64
// ... then the height, its indices read from the tables, rounded at the end.
// CHECK: linalg.generic {{.*}}ins(%[[W_LOW]], %[[W_HIGH]] : tensor<4xf64>, tensor<4xf64>) outs(%{{.*}} : tensor<1x1x4x4xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract %[[LOW]][%{{.*}}] : tensor<4xi32>
// CHECK: %[[ROW_INDEX:.*]] = arith.index_cast %[[ROW]] : i32 to index
// CHECK: tensor.extract %[[WIDTH]][%c0, %c0, %[[ROW_INDEX]], %{{.*}}] : tensor<1x1x2x4xf64>
// CHECK: arith.truncf {{.*}} : f64 to f32
// CHECK: arith.trunci {{.*}} : i8 to i1
// CHECK: arith.select
func.func @main(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x16xf32>, tensor<1x1x16x16xf32>) {
  %0 = glow.graph.resize %x mode "nearest" coordinates "asymmetric" nearest_mode "floor" scales [1.0, 1.0, 2.0, 2.0] : tensor<1x1x2x2xf32> -> tensor<1x1x4x4xf32>
  %1 = glow.graph.resize %x mode "linear" coordinates "half_pixel" : tensor<1x1x2x2xf32> -> tensor<1x1x4x4xf32>
  %2 = glow.graph.resize %x mode "cubic" coordinates "align_corners" : tensor<1x1x2x2xf32> -> tensor<1x1x3x3xf32>
  // A crop from the centre (0.5, 0.5) to (1.5, 1.5), sampled at its corners: the
  // extrapolation value 0 outside the input.
  %3 = glow.graph.resize %x mode "linear" coordinates "tf_crop_and_resize" roi [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.5, 1.5] : tensor<1x1x2x2xf32> -> tensor<1x1x2x2xf32>
  // Rows of 16 (vectorized by the CPU pipeline: gathers at the tables' indices).
  %4 = glow.graph.resize %x mode "linear" coordinates "half_pixel" : tensor<1x1x2x2xf32> -> tensor<1x1x2x16xf32>
  // Both dimensions, rows of 16: each step vectorized (gathers, then row reads).
  %5 = glow.graph.resize %x mode "linear" coordinates "half_pixel" : tensor<1x1x2x2xf32> -> tensor<1x1x16x16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x16xf32>, tensor<1x1x16x16xf32>
}
