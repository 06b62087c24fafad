// glow-raise-to-instr: allocations become alloc_activation with a dealloc_activation
// before the return (whole-function lifetimes; glow-instr-shorten-lifetimes shortens
// them), an existing memref.dealloc is dropped for it, constant globals become
// weights, whole-buffer copies glow.instr.copy, reshapes tensorviews. Compute stays as it is; a copy into a
// view and a non-constant global stay upstream ops.
// RUN: glow-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(glow-raise-to-instr))' | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[W:.*]] = glow.instr.weight "w" constant : memref<4xf32>
// CHECK-NEXT: %[[S:.*]] = memref.get_global @state : memref<4xf32>
// CHECK-NEXT: %[[A:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.add ins(%[[X:.*]], %[[W]] : {{.*}}) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: %[[B:.*]] = glow.instr.alloc_activation : memref<8xf32>
// CHECK-NEXT: %[[HALF:.*]] = memref.subview %[[B]][0] [4] [1]
// CHECK-NEXT: memref.copy %[[A]], %[[HALF]]
// CHECK-NEXT: glow.instr.copy out %[[Y:.*]], in %[[A]] : memref<4xf32>
// CHECK-NEXT: linalg.add ins(%[[S]], %[[A]] : {{.*}}) outs(%[[Y]] : memref<4xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[A]] : memref<4xf32>
// CHECK-NEXT: glow.instr.dealloc_activation %[[B]] : memref<8xf32>
// CHECK-NEXT: return
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
memref.global "private" constant @w : memref<4xf32> = dense<1.0>
memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @f(%x: memref<4xf32>, %y: memref<4xf32>) {
  %w = memref.get_global @w : memref<4xf32>
  %s = memref.get_global @state : memref<4xf32>
  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  linalg.add ins(%x, %w : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.alloc() : memref<8xf32>
  %half = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %a, %half : memref<4xf32> to memref<4xf32, strided<[1]>>
  memref.dealloc %b : memref<8xf32>
  memref.copy %a, %y : memref<4xf32> to memref<4xf32>
  linalg.add ins(%s, %a : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{glow-raise-to-instr: allocation of memref<?xf32> is not a static memref with the identity layout}}
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{glow-raise-to-instr: an allocation inside a loop or region cannot be planned}}
    %a = memref.alloc() : memref<4xf32>
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{glow-raise-to-instr: an alignment of 128 bytes is more than the planner's 64}}
  %a = memref.alloc() {alignment = 128 : i64} : memref<4xf32>
  return
}

// -----

// Reshapes between identity-layout buffers become tensorviews at offset zero; the
// shape operand of memref.reshape goes with its now unused weight. A reshape to a
// layout (here a strided result) stays an upstream view.
// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: %[[A:.*]] = glow.instr.alloc_activation : memref<2x6xf32>
// CHECK-NEXT: %[[R:.*]] = glow.instr.tensorview %[[A]] [0, 0] : memref<2x6xf32> -> memref<3x4xf32>
// CHECK-NEXT: %[[E:.*]] = glow.instr.tensorview %[[A]] [0, 0] : memref<2x6xf32> -> memref<2x2x3xf32>
// CHECK-NEXT: %[[C:.*]] = glow.instr.tensorview %[[E]] [0, 0, 0] : memref<2x2x3xf32> -> memref<4x3xf32>
// CHECK-NEXT: %[[S:.*]] = memref.subview %[[A]]
// CHECK-NEXT: memref.expand_shape %[[S]]
// CHECK-NEXT: "test.use"(%[[R]], %[[C]],
// CHECK-NOT: memref.reshape
// CHECK-NOT: memref.get_global
memref.global "private" constant @shape : memref<2xi64> = dense<[3, 4]>
func.func @reshapes() {
  %shape = memref.get_global @shape : memref<2xi64>
  %a = memref.alloc() : memref<2x6xf32>
  %r = memref.reshape %a(%shape) : (memref<2x6xf32>, memref<2xi64>) -> memref<3x4xf32>
  %e = memref.expand_shape %a [[0], [1, 2]] output_shape [2, 2, 3] : memref<2x6xf32> into memref<2x2x3xf32>
  %c = memref.collapse_shape %e [[0, 1], [2]] : memref<2x2x3xf32> into memref<4x3xf32>
  %s = memref.subview %a[0, 0] [2, 3] [1, 1] : memref<2x6xf32> to memref<2x3xf32, strided<[6, 1]>>
  %t = memref.expand_shape %s [[0], [1, 2]] output_shape [2, 1, 3] : memref<2x3xf32, strided<[6, 1]>> into memref<2x1x3xf32, strided<[6, 3, 1]>>
  "test.use"(%r, %c, %t) : (memref<3x4xf32>, memref<4x3xf32>, memref<2x1x3xf32, strided<[6, 3, 1]>>) -> ()
  return
}
