// glow-graph-optimize's sink-transposes on channel splits and shuffles (ShuffleNet):
// slices of a transpose become transposes of slices when only slices use it, and a
// shuffle of one dimension of a transpose (reshape splitting it, transpose swapping
// the two parts, reshape merging them) becomes the same shuffle on the source's
// dimension, then the transpose. Executed against onnxruntime on two ShuffleNetV2
// units as torch.onnx writes them (models.py shuffle-units): after the channels-last
// layout only the model's own input / output transposes and the two shuffles remain.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s
// RUN: %python %S/../glow-import/Inputs/models.py shuffle-units %t.onnx
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-channels-last{grouped=true}))' | FileCheck %s --check-prefix=UNITS
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=sink-transposes},glow-lower-nodes,glow-graph-optimize{disable=sink-transposes}))' | FileCheck %s --check-prefix=OFF
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x8x6x6 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// UNITS-LABEL: func.func @main
// UNITS: glow.graph.transpose %arg0 perm [0, 2, 3, 1]
// UNITS-NOT: glow.graph.transpose
// UNITS: glow.graph.transpose %{{.*}} perm [0, 1, 2, 4, 3] : tensor<1x6x6x2x4xf32> -> tensor<1x6x6x4x2xf32>
// UNITS-NOT: glow.graph.transpose
// UNITS: glow.graph.transpose %{{.*}} perm [0, 1, 2, 4, 3] : tensor<1x6x6x2x4xf32> -> tensor<1x6x6x4x2xf32>
// UNITS-NOT: glow.graph.transpose
// UNITS: glow.graph.transpose %{{.*}} perm [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
// UNITS-NOT: glow.graph.transpose
// OFF: glow.graph.transpose %{{.*}} perm [0, 2, 1, 3, 4]
// ORT: PASS

// Both slices of a transpose: each slices the source and transposes its part.
// CHECK-LABEL: func.func @slices_of_transpose
// CHECK-NEXT: %[[A:.*]] = glow.graph.slice %arg0 start [0, 0, 0, 0] : tensor<1x6x6x8xf32> -> tensor<1x6x6x4xf32>
// CHECK-NEXT: %[[TA:.*]] = glow.graph.transpose %[[A]] perm [0, 3, 1, 2] : tensor<1x6x6x4xf32> -> tensor<1x4x6x6xf32>
// CHECK-NEXT: %[[B:.*]] = glow.graph.slice %arg0 start [0, 0, 0, 4] : tensor<1x6x6x8xf32> -> tensor<1x6x6x4xf32>
// CHECK-NEXT: %[[TB:.*]] = glow.graph.transpose %[[B]] perm [0, 3, 1, 2] : tensor<1x6x6x4xf32> -> tensor<1x4x6x6xf32>
// CHECK-NEXT: return %[[TA]], %[[TB]]
func.func @slices_of_transpose(%x: tensor<1x6x6x8xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
  %a = glow.graph.slice %t start [0, 0, 0, 0] : tensor<1x8x6x6xf32> -> tensor<1x4x6x6xf32>
  %b = glow.graph.slice %t start [0, 4, 0, 0] : tensor<1x8x6x6xf32> -> tensor<1x4x6x6xf32>
  return %a, %b : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}

// -----

// Refused: the transpose has a user that is not a slice (it would be computed whole
// anyway, and the slice's part moved twice).
// CHECK-LABEL: func.func @slice_of_shared_transpose
// CHECK-NEXT: %[[T:.*]] = glow.graph.transpose %arg0 perm [0, 3, 1, 2]
// CHECK-NEXT: glow.graph.slice %[[T]] start [0, 0, 0, 0]
func.func @slice_of_shared_transpose(%x: tensor<1x6x6x8xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>) {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
  %a = glow.graph.slice %t start [0, 0, 0, 0] : tensor<1x8x6x6xf32> -> tensor<1x4x6x6xf32>
  %r = glow.graph.relu %t : tensor<1x8x6x6xf32>
  return %a, %r : tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>
}

// -----

// NHWC -> NCHW, then ShuffleNet's channel shuffle in NCHW: the shuffle moves onto
// the NHWC channels (split [2, 4], swap the two innermost, merge), then one transpose.
// CHECK-LABEL: func.func @shuffle_of_transpose
// CHECK-NEXT: %[[S:.*]] = glow.graph.reshape %arg0 : tensor<1x6x6x8xf32> -> tensor<1x6x6x2x4xf32>
// CHECK-NEXT: %[[W:.*]] = glow.graph.transpose %[[S]] perm [0, 1, 2, 4, 3] : tensor<1x6x6x2x4xf32> -> tensor<1x6x6x4x2xf32>
// CHECK-NEXT: %[[M:.*]] = glow.graph.reshape %[[W]] : tensor<1x6x6x4x2xf32> -> tensor<1x6x6x8xf32>
// CHECK-NEXT: %[[T:.*]] = glow.graph.transpose %[[M]] perm [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
// CHECK-NEXT: return %[[T]]
func.func @shuffle_of_transpose(%x: tensor<1x6x6x8xf32>) -> tensor<1x8x6x6xf32> {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
  %s = glow.graph.reshape %t : tensor<1x8x6x6xf32> -> tensor<1x2x4x6x6xf32>
  %w = glow.graph.transpose %s perm [0, 2, 1, 3, 4] : tensor<1x2x4x6x6xf32> -> tensor<1x4x2x6x6xf32>
  %m = glow.graph.reshape %w : tensor<1x4x2x6x6xf32> -> tensor<1x8x6x6xf32>
  return %m : tensor<1x8x6x6xf32>
}

// -----

// Refused: the transpose in the middle does not swap the two parts of the split
// dimension (it moves them past the height), so this is no shuffle of one dimension.
// CHECK-LABEL: func.func @not_a_shuffle
// CHECK-NEXT: glow.graph.transpose %arg0 perm [0, 3, 1, 2]
// CHECK-NEXT: glow.graph.reshape
// CHECK-NEXT: glow.graph.transpose %{{.*}} perm [0, 1, 3, 2, 4]
func.func @not_a_shuffle(%x: tensor<1x6x6x8xf32>) -> tensor<1x2x6x4x6xf32> {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x6x6x8xf32> -> tensor<1x8x6x6xf32>
  %s = glow.graph.reshape %t : tensor<1x8x6x6xf32> -> tensor<1x2x4x6x6xf32>
  %w = glow.graph.transpose %s perm [0, 1, 3, 2, 4] : tensor<1x2x4x6x6xf32> -> tensor<1x2x6x4x6xf32>
  return %w : tensor<1x2x6x4x6xf32>
}
