// glow-instr-shorten-lifetimes: each alloc_activation moves down to its first user and
// its dealloc_activation up to after its last user, also when that user reaches the
// buffer through a view inside a loop. An unused buffer's dealloc follows its alloc; a
// buffer without a dealloc gets one.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-instr-shorten-lifetimes))' | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[UNUSED:.*]] = glow.instr.alloc_activation : memref<2xf32>
// CHECK-NEXT: glow.instr.dealloc_activation %[[UNUSED]]
// CHECK-NEXT: %[[C:.*]] = arith.constant
// CHECK-NEXT: %[[A:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.fill ins(%[[C]] : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: %[[B:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.add ins(%[[A]], %[[A]] : {{.*}}) outs(%[[B]] : memref<4xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[A]]
// CHECK-COUNT-3: arith.constant
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[B]]
// CHECK-NEXT: scf.for
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK: }
// CHECK-NEXT: glow.instr.dealloc_activation %[[B]]
// CHECK-NEXT: %[[D:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.fill ins(%[[C]] : f32) outs(%[[D]] : memref<4xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[D]]
// CHECK-NEXT: return
func.func @f() {
  %a = glow.instr.alloc_activation : memref<4xf32>
  %b = glow.instr.alloc_activation : memref<4xf32>
  %d = glow.instr.alloc_activation : memref<4xf32>
  %unused = glow.instr.alloc_activation : memref<2xf32>
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<4xf32>)
  linalg.add ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  %view = memref.subview %b[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    memref.store %c, %view[%i] : memref<2xf32, strided<[1], offset: 1>>
  }
  linalg.fill ins(%c : f32) outs(%d : memref<4xf32>)
  glow.instr.dealloc_activation %unused : memref<2xf32>
  glow.instr.dealloc_activation %a : memref<4xf32>
  glow.instr.dealloc_activation %b : memref<4xf32>
  return
}

// A view made before the first compute use moves down to its own first user; the
// alloc stays above both.
// CHECK-LABEL: func.func @view_first
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[E:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[E]] : memref<4xf32>)
// CHECK-NEXT: %[[FLAT:.*]] = memref.expand_shape %[[E]]
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[FLAT]] : memref<2x2xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[E]]
func.func @view_first() {
  %e = glow.instr.alloc_activation : memref<4xf32>
  %c = arith.constant 1.0 : f32
  %flat = memref.expand_shape %e [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  linalg.fill ins(%c : f32) outs(%e : memref<4xf32>)
  linalg.fill ins(%c : f32) outs(%flat : memref<2x2xf32>)
  return
}

// Allocations and views at the top, as glow-instr-memory-order leaves a reordered
// function: the views (a tensorview of a tensorview too) move down to their first
// users, so each alloc can follow; before, every buffer stayed live from the top.
// CHECK-LABEL: func.func @views_at_top
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[X:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[X]] : memref<4xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[X]]
// CHECK-NEXT: %[[Y:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: %[[Y2:.*]] = glow.instr.tensorview %[[Y]]
// CHECK-NEXT: %[[Y1:.*]] = glow.instr.tensorview %[[Y2]]
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[Y1]] : memref<4xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[Y]]
// CHECK-NEXT: return
func.func @views_at_top() {
  %x = glow.instr.alloc_activation : memref<4xf32>
  %y = glow.instr.alloc_activation : memref<4xf32>
  %y2 = glow.instr.tensorview %y [0] : memref<4xf32> -> memref<2x2xf32>
  %y1 = glow.instr.tensorview %y2 [0, 0] : memref<2x2xf32> -> memref<4xf32>
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%x : memref<4xf32>)
  linalg.fill ins(%c : f32) outs(%y1 : memref<4xf32>)
  glow.instr.dealloc_activation %x : memref<4xf32>
  glow.instr.dealloc_activation %y : memref<4xf32>
  return
}
