// glow-channels-last{grouped=true} (the CPU pipeline) gives grouped f32 convolutions
// with constant filters the NHWC
// layout, and glow-grouped-conv replaces each with a call of a kernel looping over
// (merged) groups of one dense linalg.conv_2d_nhwc_hwcf each; depthwise convolutions,
// runtime filters and single groups are left to the other rules.
// RUN: glow-opt %s --pass-pipeline="builtin.module(func.func(glow-channels-last{grouped=true}),glow-grouped-conv)" --mlir-elide-elementsattrs-if-larger=4 | FileCheck %s
// Without `grouped` (the export pipelines), grouped convolutions keep NCHW.
// RUN: glow-opt %s --pass-pipeline="builtin.module(func.func(glow-channels-last),glow-grouped-conv)" --mlir-elide-elementsattrs-if-larger=4 | FileCheck %s --check-prefix=EXPORT
// EXPORT-LABEL: func.func @small_groups
// EXPORT: glow.graph.conv2d %arg0, %{{.*}}, %{{.*}} pads [1, 1, 1, 1] group 8 :
// EXPORT-NOT: call

// 8 groups of 4 channels: merged 4 at a time (16 output channels per step, 2 steps),
// the filter block-diagonal [2, 3, 3, 16, 16].
// CHECK-LABEL: func.func @small_groups
// CHECK: %[[W:.*]] = arith.constant dense_resource<grouped{{.*}}> : tensor<2x3x3x16x16xf32>
// CHECK: call @glow_grouped_conv_1(%{{.*}}, %[[W]], %{{.*}}) : (tensor<1x8x8x32xf32>, tensor<2x3x3x16x16xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32>
func.func @small_groups(%x: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> {
  %w = glow.graph.splat 0.5 : tensor<32x4x3x3xf32>
  %b = glow.graph.splat 0.25 : tensor<32xf32>
  %y = glow.graph.conv2d %x, %w, %b pads [1, 1, 1, 1] group 8 : (tensor<1x32x8x8xf32>, tensor<32x4x3x3xf32>, tensor<32xf32>) -> tensor<1x32x8x8xf32>
  return %y : tensor<1x32x8x8xf32>
}

// 2 groups of 16 in and 32 out: one group per step, stride 2.
// CHECK-LABEL: func.func @large_groups
// CHECK: call @glow_grouped_conv_2(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x8x8x32xf32>, tensor<2x3x3x16x32xf32>, tensor<64xf32>) -> tensor<1x4x4x64xf32>
func.func @large_groups(%x: tensor<1x32x8x8xf32>) -> tensor<1x64x4x4xf32> {
  %w = glow.graph.splat 0.5 : tensor<64x16x3x3xf32>
  %y = glow.graph.conv2d %x, %w strides [2, 2] pads [1, 1, 1, 1] group 2 : (tensor<1x32x8x8xf32>, tensor<64x16x3x3xf32>) -> tensor<1x64x4x4xf32>
  return %y : tensor<1x64x4x4xf32>
}

// CHECK-LABEL: func.func @left_alone
// CHECK: glow.graph.conv2d %arg0, %arg1 pads [1, 1, 1, 1] group 8 :
// CHECK: glow.graph.conv2d %{{.*}}, %{{.*}} pads [1, 1, 1, 1] group 32 channels_last
// CHECK-NOT: call
// CHECK: return
func.func @left_alone(%x: tensor<1x32x8x8xf32>, %rw: tensor<32x4x3x3xf32>) -> (tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>) {
  %runtime = glow.graph.conv2d %x, %rw pads [1, 1, 1, 1] group 8 : (tensor<1x32x8x8xf32>, tensor<32x4x3x3xf32>) -> tensor<1x32x8x8xf32>
  %dw = glow.graph.splat 0.5 : tensor<32x1x3x3xf32>
  %depthwise = glow.graph.conv2d %x, %dw pads [1, 1, 1, 1] group 32 : (tensor<1x32x8x8xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x8x8xf32>
  return %runtime, %depthwise : tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>
}

// The kernel: padded input, bias broadcast into the output, a forall over steps.
// CHECK-LABEL: func.func private @glow_grouped_conv_1(%arg0: tensor<1x8x8x32xf32>, %arg1: tensor<2x3x3x16x16xf32>, %arg2: tensor<32xf32>) -> tensor<1x8x8x32xf32>
// CHECK: tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: linalg.broadcast ins(%arg2 : tensor<32xf32>)
// CHECK: scf.forall (%[[G:.*]]) in (2)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, %{{.*}}] [1, 10, 10, 16] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %arg1[%[[G]], 0, 0, 0, 0] [1, 3, 3, 16, 16] [1, 1, 1, 1, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK: tensor.parallel_insert_slice
