// Ops whose results hold no element become empty constants, and the ops that only
// fed them go: a batch of 0 through a strided convolution, whose lowering cut
// out-of-bounds slices before, and an empty slice, whose concat stays.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s
// RUN: %python %S/Inputs/empty_batch.py %t.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=0x3x16x16 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=3x3x16x16 --bin %glow_bin | FileCheck %s --check-prefix=ORT

// ORT: PASS

// CHECK-LABEL: func.func @batch_of_zero
// CHECK-NEXT: %[[E:.*]] = glow.graph.constant dense<> : tensor<0x8x8x8xf32>
// CHECK-NEXT: return %[[E]]
func.func @batch_of_zero(%x: tensor<0x3x16x16xf32>) -> tensor<0x8x8x8xf32> {
  %w = glow.graph.constant dense<1.0> : tensor<8x3x3x3xf32>
  %c = glow.graph.conv2d %x, %w strides [2, 2] pads [1, 1, 1, 1] : (tensor<0x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<0x8x8x8xf32>
  %r = glow.graph.relu %c : tensor<0x8x8x8xf32>
  return %r : tensor<0x8x8x8xf32>
}

// -----

// CHECK-LABEL: func.func @empty_slice
// CHECK: %[[E:.*]] = glow.graph.constant dense<> : tensor<0x4xf32>
// CHECK: glow.graph.concat %arg0, %[[E]]
func.func @empty_slice(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %s = glow.graph.slice %x start [1, 0] : tensor<3x4xf32> -> tensor<0x4xf32>
  %n = glow.graph.neg %s : tensor<0x4xf32>
  %c = glow.graph.concat %x, %n dim 0 : (tensor<3x4xf32>, tensor<0x4xf32>) -> tensor<3x4xf32>
  return %c : tensor<3x4xf32>
}
