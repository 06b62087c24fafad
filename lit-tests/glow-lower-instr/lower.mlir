// glow-lower-instr: after glow-plan-memory, every buffer is a view of one of the three
// byte buffers at its offset (constant weights, inputs/outputs, activations);
// deallocations go, glow.instr.copy becomes memref.copy and a tensorview a view of
// the same byte buffer further in.
// RUN: glow-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(glow-lower-instr))' | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[CONSTANT:.*]]: memref<64xi8>, %[[MUTABLE:.*]]: memref<128xi8>, %[[ACTIVATIONS:.*]]: memref<128xi8>)
// CHECK: %[[X:.*]] = memref.view %[[MUTABLE]][%{{.*}}][] : memref<128xi8> to memref<4xf32>
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[Y:.*]] = memref.view %[[MUTABLE]][%[[C64]]][] : memref<128xi8> to memref<4xf32>
// CHECK: %[[W:.*]] = memref.view %[[CONSTANT]][%{{.*}}][] : memref<64xi8> to memref<4xf32>
// CHECK: %[[C64_2:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ACTIVATIONS]][%[[C64_2]]][] : memref<128xi8> to memref<4xf32>
// CHECK-NEXT: linalg.add ins(%[[X]], %[[W]] : {{.*}}) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: memref.copy %[[A]], %[[Y]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: return
// CHECK-NOT: glow.instr
func.func @f(%constant: memref<64xi8>, %mutable: memref<128xi8>, %activations: memref<128xi8>)
    attributes {glow.activations_size = 128 : index} {
  %x = glow.instr.weight "x" mutable offset 0 : memref<4xf32>
  %y = glow.instr.weight "y" mutable offset 64 : memref<4xf32>
  %w = glow.instr.weight "w" constant offset 0 : memref<4xf32>
  %a = glow.instr.alloc_activation offset 64 : memref<4xf32>
  linalg.add ins(%x, %w : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  glow.instr.copy out %y, in %a : memref<4xf32>
  glow.instr.dealloc_activation %a : memref<4xf32>
  return
}

// -----

// A function with buffers but no plan is refused.
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{glow-lower-instr: the function's buffers are not planned: run glow-plan-memory first}}
  %a = glow.instr.alloc_activation : memref<4xf32>
  return
}

// -----

func.func @f(%constant: memref<64xi8>, %mutable: memref<128xi8>, %activations: memref<128xi8>)
    attributes {glow.activations_size = 128 : index} {
  // expected-error @+1 {{glow-lower-instr: a buffer without an offset: run glow-plan-memory first}}
  %a = glow.instr.alloc_activation : memref<4xf32>
  return
}

// -----

// A tensorview of an activation at 64 starting at element [1, 2] of its 3x4 shape
// (element 6, byte 24): a view of the arena at 88; views of views add up.
// CHECK-LABEL: func.func @tensorview
// CHECK: %[[C88:.*]] = arith.constant 88 : index
// CHECK-NEXT: %[[V:.*]] = memref.view %{{.*}}[%[[C88]]][] : memref<128xi8> to memref<2x2xf32>
// CHECK: %[[C96:.*]] = arith.constant 96 : index
// CHECK-NEXT: %[[W:.*]] = memref.view %{{.*}}[%[[C96]]][] : memref<128xi8> to memref<2xf32>
// CHECK: %[[S:.*]] = memref.subview %[[V]]
// CHECK-NEXT: linalg.copy ins(%[[W]] : memref<2xf32>) outs(%[[S]]
func.func @tensorview(%constant: memref<64xi8>, %mutable: memref<128xi8>, %activations: memref<128xi8>)
    attributes {glow.activations_size = 128 : index} {
  %a = glow.instr.alloc_activation offset 64 : memref<3x4xf32>
  %v = glow.instr.tensorview %a [1, 2] : memref<3x4xf32> -> memref<2x2xf32>
  %w = glow.instr.tensorview %v [1, 0] : memref<2x2xf32> -> memref<2xf32>
  %s = memref.subview %v[0, 0] [1, 2] [1, 1] : memref<2x2xf32> to memref<2xf32, strided<[1]>>
  linalg.copy ins(%w : memref<2xf32>) outs(%s : memref<2xf32, strided<[1]>>)
  glow.instr.dealloc_activation %a : memref<3x4xf32>
  return
}

// -----

// A tensorview of a subview of identity layout (contiguous, starting where its
// source starts: a leading slice, as of an input sliced per LSTM gate) is a view of
// the planned buffer under the subview, further in by the tensorview's offset.
// CHECK-LABEL: func.func @tensorview_of_leading_slice
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[V:.*]] = memref.view %{{.*}}[%[[C8]]][] : memref<128xi8> to memref<1x2xf32>
// CHECK: linalg.copy ins(%[[V]] : memref<1x2xf32>)
func.func @tensorview_of_leading_slice(%constant: memref<64xi8>, %mutable: memref<128xi8>, %activations: memref<128xi8>)
    attributes {glow.activations_size = 128 : index} {
  %a = glow.instr.alloc_activation offset 0 : memref<2x4xf32>
  %b = glow.instr.alloc_activation offset 64 : memref<1x2xf32>
  %s = memref.subview %a[0, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1]>>
  %v = glow.instr.tensorview %s [2] : memref<4xf32, strided<[1]>> -> memref<1x2xf32>
  linalg.copy ins(%v : memref<1x2xf32>) outs(%b : memref<1x2xf32>)
  return
}

// -----

// A tensorview of something that is not a planned buffer (here a subview that starts
// further in, whose layout has an offset) is refused.
func.func @f(%constant: memref<64xi8>, %mutable: memref<128xi8>, %activations: memref<128xi8>)
    attributes {glow.activations_size = 128 : index} {
  %a = glow.instr.alloc_activation offset 0 : memref<2x4xf32>
  %s = memref.subview %a[1, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  // expected-error @+1 {{glow-lower-instr: a tensorview of a buffer that is not a planned weight or activation}}
  %v = glow.instr.tensorview %s [0] : memref<4xf32, strided<[1], offset: 4>> -> memref<2xf32>
  return
}
