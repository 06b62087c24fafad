// glow-graph-optimize's split-padding-regions: a conv2d at most half of whose tap
// products read the map (the rest read padding) becomes one conv2d per region of
// outputs with the same live taps, each on its slice of the input with those taps
// and no padding, joined by concats. Executed against onnxruntime through
// padding-taps.mlir's ASPP model (its dilation-4 branch is split).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize),cse)' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=split-padding-regions}))' | FileCheck %s --check-prefix=DISABLED
// RUN: %python %S/../glow-import/Inputs/models.py atrous-convs %t.onnx
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s --check-prefix=ASPP

// Dilation 4 and padding 4 on 6 x 6: along each axis rows 0-1 read taps 1-2, rows 2-3
// tap 1, rows 4-5 taps 0-1 (10 of 18 products); 3 x 3 regions, 31 % of the products.
// CHECK-LABEL: func.func @regions
// The top-left corner: taps 1-2 x 1-2 over the whole map, 2 x 2 outputs.
// CHECK-DAG: %[[CORNER:.*]] = glow.graph.constant dense<{{\[\[\[\[}}5.000000e+00, 6.000000e+00], [8.000000e+00, 9.000000e+00]]], {{\[\[\[}}1.400000e+01, 1.500000e+01], [1.700000e+01, 1.800000e+01]]]]> : tensor<2x1x2x2xf32>
// The centre: tap 1 x 1 on input rows and columns 2-3.
// CHECK-DAG: %[[CENTRE:.*]] = glow.graph.constant dense<{{\[\[\[\[}}5.000000e+00]]], {{\[\[\[}}1.400000e+01]]]]> : tensor<2x1x1x1xf32>
// CHECK: %[[TL:.*]] = glow.graph.conv2d %arg0, %[[CORNER]] dilations [4, 4] : (tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK: %[[TOP:.*]] = glow.graph.concat %[[TL]], %{{.*}}, %{{.*}} dim 3 : {{.*}} -> tensor<1x2x2x6xf32>
// CHECK: %[[MIDDLE_IN:.*]] = glow.graph.slice %arg0 start [0, 0, 2, 2] : tensor<1x1x6x6xf32> -> tensor<1x1x2x2xf32>
// CHECK: glow.graph.conv2d %[[MIDDLE_IN]], %[[CENTRE]] : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
// CHECK: %[[ALL:.*]] = glow.graph.concat %[[TOP]], %{{.*}}, %{{.*}} dim 2 : {{.*}} -> tensor<1x2x6x6xf32>
// CHECK: return %[[ALL]]
// DISABLED-LABEL: func.func @regions
// DISABLED: glow.graph.conv2d %arg0, %{{.*}} pads [4, 4, 4, 4] dilations [4, 4]
// DISABLED-NOT: glow.graph.concat
func.func @regions(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %w = glow.graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]]]> : tensor<2x1x3x3xf32>
  %y = glow.graph.conv2d %x, %w pads [4, 4, 4, 4] dilations [4, 4] : (tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x6x6xf32>
  return %y : tensor<1x2x6x6xf32>
}

// -----

// Channels last, a 1 x 3 filter with dilation 5 over 6 columns: column 0 reads taps
// 1-2, columns 1-4 tap 1, column 5 taps 0-1 (8 of 18 products). Three pieces along
// the width (dimension 2 in NHWC), the bias in each.
// CHECK-LABEL: func.func @width_only
// CHECK: glow.graph.conv2d %arg0, %{{.*}}, %arg1 dilations [1, 5] channels_last : (tensor<1x20x6x1xf32>, tensor<1x1x1x2xf32>, tensor<1xf32>) -> tensor<1x20x1x1xf32>
// CHECK: %[[MIDDLE:.*]] = glow.graph.slice %arg0 start [0, 0, 1, 0] : tensor<1x20x6x1xf32> -> tensor<1x20x4x1xf32>
// CHECK: glow.graph.conv2d %[[MIDDLE]], %{{.*}}, %arg1 channels_last : (tensor<1x20x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x20x4x1xf32>
// CHECK: glow.graph.concat {{.*}} dim 2 : {{.*}} -> tensor<1x20x6x1xf32>
func.func @width_only(%x: tensor<1x20x6x1xf32>, %b: tensor<1xf32>) -> tensor<1x20x6x1xf32> {
  %w = glow.graph.constant dense<[[[[1.0, 2.0, 3.0]]]]> : tensor<1x1x1x3xf32>
  %y = glow.graph.conv2d %x, %w, %b pads [0, 5, 0, 5] dilations [1, 5] channels_last : (tensor<1x20x6x1xf32>, tensor<1x1x1x3xf32>, tensor<1xf32>) -> tensor<1x20x6x1xf32>
  return %y : tensor<1x20x6x1xf32>
}

// -----

// Dilation 2 on 6 x 6: 14 of 18 products per axis read the map (60 % in 2-D): left
// alone, as is every ordinary padded convolution.
// CHECK-LABEL: func.func @mostly_live
// CHECK: glow.graph.conv2d %arg0, %{{.*}} pads [2, 2, 2, 2] dilations [2, 2] :
// CHECK-NOT: glow.graph.concat
func.func @mostly_live(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32> {
  %w = glow.graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %y = glow.graph.conv2d %x, %w pads [2, 2, 2, 2] dilations [2, 2] : (tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32>
  return %y : tensor<1x1x6x6xf32>
}

// The ASPP model: the dilation-4 branch (8 -> 4 channels) is split, dilation 2 is not.
// ASPP: glow.graph.conv2d %arg0, %{{.*}} pads [2, 2, 2, 2] dilations [2, 2] : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>
// ASPP: glow.graph.concat {{.*}} dim 2 : {{.*}} -> tensor<1x4x6x6xf32>
