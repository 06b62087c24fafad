// A constant tensor.pad becomes an insert_slice into a filled tensor, so the producer
// can write into the padded buffer; a pad whose value is not a constant stays.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-pads-in-place))' | FileCheck %s
// End to end, after empty-tensor elimination the producer writes into a subview of
// the padded buffer and, once canonicalization drops the self-copy, no copy is left.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-pads-in-place),eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries},cse,canonicalize)' | FileCheck %s --check-prefix=BUFFERS

// CHECK-LABEL: func.func @pad
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x6x6x4xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %[[F]][0, 1, 1, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// CHECK-NOT: tensor.pad
// BUFFERS-LABEL: func.func @pad
// BUFFERS: %[[B:.*]] = memref.alloc() {{.*}} : memref<1x6x6x4xf32>
// BUFFERS: linalg.fill {{.*}} outs(%[[B]]
// BUFFERS: %[[V:.*]] = memref.subview %[[B]][0, 1, 1, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// BUFFERS: linalg.exp ins(%{{.*}}) outs(%[[V]]
// BUFFERS-NOT: memref.copy
func.func @pad(%x: tensor<1x4x4x4xf32>) -> tensor<1x6x6x4xf32> {
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %y = linalg.exp ins(%x : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %y low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_value
// BUFFERS-LABEL: func.func @dynamic_value
// CHECK: tensor.pad
func.func @dynamic_value(%x: tensor<4xf32>, %v: f32) -> tensor<6xf32> {
  %0 = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %0 : tensor<6xf32>
}
