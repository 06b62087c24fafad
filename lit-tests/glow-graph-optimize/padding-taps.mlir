// glow-graph-optimize's trim-padding-taps: conv2d filter taps that only ever read
// padding are cut from the filter, and the padding shrunk so the output keeps its
// shape; a single remaining tap along an axis drops that axis' dilation. Executed
// against onnxruntime on DeepLabV3's ASPP shape (models.py atrous-convs: dilations 2,
// 4, 8 on a 6 x 6 map, one strided on the height only, and the upsampling after them).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=split-padding-regions}))' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=trim-padding-taps}))' | FileCheck %s --check-prefix=DISABLED
// RUN: %python %S/../glow-import/Inputs/models.py atrous-convs %t.onnx
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=split-padding-regions}))' | FileCheck %s --check-prefix=ASPP
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x8x6x6 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// ORT: PASS

// Dilation 8 and padding 8 on a 6 x 6 map: only the centre tap reads it (rows o - 8
// and o + 8 are padding for every o), so this is a 1 x 1 convolution.
// CHECK-LABEL: func.func @centre_only
// CHECK: %[[W:.*]] = glow.graph.constant dense<[{{\[\[\[}}5.000000e+00]]], {{\[\[\[}}1.400000e+01]]]]> : tensor<2x1x1x1xf32>
// CHECK: glow.graph.conv2d %arg0, %[[W]] : (tensor<1x1x6x6xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x6x6xf32>
// DISABLED-LABEL: func.func @centre_only
// DISABLED: glow.graph.conv2d %arg0, %{{.*}} pads [8, 8, 8, 8] dilations [8, 8]
func.func @centre_only(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %w = glow.graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]]]> : tensor<2x1x3x3xf32>
  %y = glow.graph.conv2d %x, %w pads [8, 8, 8, 8] dilations [8, 8] : (tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x6x6xf32>
  return %y : tensor<1x2x6x6xf32>
}

// -----

// Channels last, a 6 x 16 map: the height's outer taps are padding, the width's all
// read it (rows o - 8 >= 0 for o >= 8). The filter keeps its middle row; the width
// keeps its dilation and padding.
// CHECK-LABEL: func.func @height_only
// CHECK: %[[W:.*]] = glow.graph.constant dense<{{\[\[\[}}[4.000000e+00, 5.000000e+00, 6.000000e+00]]]]> : tensor<1x1x1x3xf32>
// CHECK: glow.graph.conv2d %arg0, %[[W]], %arg1 pads [0, 8, 0, 8] dilations [1, 8] channels_last : (tensor<1x6x16x1xf32>, tensor<1x1x1x3xf32>, tensor<1xf32>) -> tensor<1x6x16x1xf32>
func.func @height_only(%x: tensor<1x6x16x1xf32>, %b: tensor<1xf32>) -> tensor<1x6x16x1xf32> {
  %w = glow.graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %y = glow.graph.conv2d %x, %w, %b pads [8, 8, 8, 8] dilations [8, 8] channels_last : (tensor<1x6x16x1xf32>, tensor<1x1x3x3xf32>, tensor<1xf32>) -> tensor<1x6x16x1xf32>
  return %y : tensor<1x6x16x1xf32>
}

// -----

// A filter computed at run time is sliced instead.
// CHECK-LABEL: func.func @runtime_filter
// CHECK: %[[W:.*]] = glow.graph.slice %arg1 start [0, 0, 1, 1] : tensor<2x1x3x3xf32> -> tensor<2x1x1x1xf32>
// CHECK: glow.graph.conv2d %arg0, %[[W]] :
func.func @runtime_filter(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %y = glow.graph.conv2d %x, %w pads [5, 5, 5, 5] dilations [5, 5] : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// Every tap reads the map for some output: left alone (a plain 3 x 3 with padding 1,
// and dilation 4 on 6 rows, whose outer taps read rows 0-1 and 4-5).
// CHECK-LABEL: func.func @all_live
// CHECK: glow.graph.conv2d %arg0, %{{.*}} pads [1, 1, 1, 1] :
// CHECK: glow.graph.conv2d %arg0, %{{.*}} pads [4, 4, 4, 4] dilations [4, 4] :
func.func @all_live(%x: tensor<1x1x6x6xf32>) -> (tensor<1x1x6x6xf32>, tensor<1x1x6x6xf32>) {
  %w = glow.graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %a = glow.graph.conv2d %x, %w pads [1, 1, 1, 1] : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
  %b = glow.graph.conv2d %x, %w pads [4, 4, 4, 4] dilations [4, 4] : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
  return %a, %b : tensor<1x1x6x6xf32>, tensor<1x1x6x6xf32>
}

// The ASPP model: dilation 8 becomes 1 x 1, the strided branch keeps one row of taps.
// ASPP-DAG: glow.graph.conv2d %arg0, %{{.*}} pads [2, 2, 2, 2] dilations [2, 2] : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>
// ASPP-DAG: glow.graph.conv2d %arg0, %{{.*}} pads [4, 4, 4, 4] dilations [4, 4] : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>
// ASPP-DAG: glow.graph.conv2d %arg0, %{{.*}} : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>
// ASPP-DAG: glow.graph.conv2d %arg0, %{{.*}} strides [2, 1] pads [0, 1, 0, 1] : (tensor<1x8x6x6xf32>, tensor<4x8x1x3xf32>
