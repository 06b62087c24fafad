// GridSample as gathers of the flattened image, one per interpolation tap: every
// mode (bilinear, nearest, bicubic) with every padding mode and both align_corners
// settings matches onnxruntime, on a standard-normal grid (about a third of its
// coordinates fall outside [-1, 1] and exercise the padding).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/grid_sample.py modes %t/modes.onnx
// RUN: glow-import %t/modes.onnx | FileCheck %s --check-prefix=IR
// Bilinear: 2 x 2 taps, each a gather_elements of the image flattened to [N, C, H W].
// IR-COUNT-4: glow.graph.gather_elements %{{.*}}, %{{.*}} axis 2 : tensor<2x3x35xf32>, tensor<2x3x24xi64> -> tensor<2x3x24xf32>
// IR: glow.graph.reshape %{{.*}} : tensor<2x3x24xf32> -> tensor<2x3x4x6xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/modes.onnx --input-shape x=2x3x5x7 --input-shape grid=2x4x6x2 --bin %glow_bin | FileCheck %s
// CHECK-COUNT-8: output {{.*}}: 144 values
// CHECK: PASS
// AffineGrid makes a spatial transformer's grid: one batch_matmul of the homogeneous
// base grid with theta^T.
// RUN: %python %S/Inputs/grid_sample.py transformer %t/transformer.onnx
// RUN: glow-import %t/transformer.onnx | FileCheck %s --check-prefix=AFFINE
// AFFINE: glow.graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x30x3xf32>, tensor<2x3x2xf32>) -> tensor<2x30x2xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/transformer.onnx --input-shape x=2x3x5x7 --input-shape theta=2x2x3 --bin %glow_bin | FileCheck %s --check-prefix=TRANSFORMER
// TRANSFORMER: PASS
// A grid of NaN, infinities and 1e30: every position is clamped into the image before
// it is read; the run completes (NaN weights give NaN outputs there).
// RUN: %python %S/Inputs/grid_sample.py hostile %t
// RUN: glow-run %t/modes.onnx --input x=%t/x.npy --input grid=%t/grid.npy | FileCheck %s --check-prefix=HOSTILE
// HOSTILE: bilinear_zeros_0 2x3x4x6
// HOSTILE: compile {{.*}} s, run {{.*}} ms (1 run, median)

// Bad input: one line naming the node and what is wrong, exit 1, no output file.
// RUN: %python %S/Inputs/grid_sample.py grid-shape %t/bad1.onnx
// RUN: not glow-import %t/bad1.onnx -o %t/bad1.mlir 2>&1 | FileCheck %s --check-prefix=BAD1
// RUN: not test -e %t/bad1.mlir
// BAD1: glow-import: error: node 'sample' (GridSample): grid has shape [1, 3, 3, 3]; X [1, 1, 4, 4] needs [1, ..., 2] of rank 4
// RUN: %python %S/Inputs/grid_sample.py mode %t/bad2.onnx
// RUN: not glow-import %t/bad2.onnx 2>&1 | FileCheck %s --check-prefix=BAD2
// BAD2: glow-import: error: node 'sample' (GridSample): mode 'area' is not linear, nearest or cubic
