// glow-stack on an imported model with two 24-channel inverted residual blocks
// (Inputs/residual_24.py): the stem and both projections are computed 32 wide and
// sliced back, and each residual add moves onto the 32-wide results and is stacked into
// its projection (before, each add was a separate pass over strided slices: MNASNet's
// 56 x 56 x 24 sums, 0.008 and 0.055 ms). The model still agrees with onnxruntime.
// RUN: %python %S/Inputs/residual_24.py %t.onnx
// RUN: glow-import %t.onnx | glow-opt --glow-cpu-pipeline --mlir-print-ir-after=glow-stack -o /dev/null 2>&1 | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x16x28x28 --bin %glow_bin | FileCheck %s --check-prefix=AGREES

// CHECK-LABEL: IR Dump After glow-stack
// CHECK: %[[PROJECT1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}glow.stack{{.*}} -> tensor<1x28x28x32xf32>
// CHECK: %[[SUM1:.*]] = linalg.generic {{.*}} ins(%[[PROJECT1]], %{{.*}} : tensor<1x28x28x32xf32>, tensor<1x28x28x32xf32>)
// CHECK: arith.addf
// CHECK: tensor.extract_slice %[[SUM1]][0, 0, 0, 0] [1, 28, 28, 24]
// CHECK: %[[PROJECT2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}glow.stack{{.*}} -> tensor<1x28x28x32xf32>
// CHECK: linalg.generic {{.*}} ins(%[[PROJECT2]], %[[SUM1]] : tensor<1x28x28x32xf32>, tensor<1x28x28x32xf32>)
// CHECK: arith.addf

// AGREES: PASS: worst ratio
