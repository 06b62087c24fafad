// glow-instr-memory-order: independent instructions are reordered so that what frees
// most runs first, when that lowers the peak of live activation bytes; values,
// buffers (through views) and unknown effects keep their order.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-instr-memory-order))' | FileCheck %s

// Two branches from %x, each a large buffer reduced to a small one. In program order
// both large buffers are live at once (2 x 4 KB); running each branch to its end
// first holds one at a time.
// CHECK-LABEL: func.func @branches
// CHECK: linalg.fill {{.*}} outs(%[[A:.*]] : memref<1024xf32>)
// CHECK: linalg.reduce ins(%[[A]] : memref<1024xf32>) outs(%[[SA:.*]] : memref<f32>)
// CHECK: linalg.fill {{.*}} outs(%[[B:.*]] : memref<1024xf32>)
// CHECK: linalg.reduce ins(%[[B]] : memref<1024xf32>) outs(%[[SB:.*]] : memref<f32>)
// CHECK: linalg.add ins(%[[SA]], %[[SB]] : {{.*}}) outs(%{{.*}} : memref<f32>)
// CHECK: glow.instr.dealloc_activation
func.func @branches(%x: f32, %out: memref<f32>) {
  %a = glow.instr.alloc_activation : memref<1024xf32>
  %b = glow.instr.alloc_activation : memref<1024xf32>
  %sa = glow.instr.alloc_activation : memref<f32>
  %sb = glow.instr.alloc_activation : memref<f32>
  linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<1024xf32>)
  linalg.reduce ins(%a : memref<1024xf32>) outs(%sa : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%b : memref<1024xf32>) outs(%sb : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.add ins(%sa, %sb : memref<f32>, memref<f32>) outs(%out : memref<f32>)
  glow.instr.dealloc_activation %a : memref<1024xf32>
  glow.instr.dealloc_activation %b : memref<1024xf32>
  glow.instr.dealloc_activation %sa : memref<f32>
  glow.instr.dealloc_activation %sb : memref<f32>
  return
}

// -----

// Accesses through views order like any other: the second branch writes half of %b
// again through a view, which stays between %b's fill and its reduction while the
// first branch moves ahead.
// CHECK-LABEL: func.func @views
// CHECK: linalg.fill {{.*}} outs(%[[A:.*]] : memref<1024xf32>)
// CHECK: linalg.reduce ins(%[[A]]
// CHECK: linalg.fill {{.*}} outs(%[[B:.*]] : memref<1024xf32>)
// CHECK: linalg.fill {{.*}} outs(%{{.*}} : memref<512xf32, strided<[1]>>)
// CHECK: linalg.reduce ins(%[[B]]
func.func @views(%x: f32, %out: memref<f32>) {
  %a = glow.instr.alloc_activation : memref<1024xf32>
  %b = glow.instr.alloc_activation : memref<1024xf32>
  %sa = glow.instr.alloc_activation : memref<f32>
  %sb = glow.instr.alloc_activation : memref<f32>
  %v = memref.subview %b[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<1024xf32>)
  linalg.fill ins(%x : f32) outs(%v : memref<512xf32, strided<[1]>>)
  linalg.reduce ins(%a : memref<1024xf32>) outs(%sa : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%b : memref<1024xf32>) outs(%sb : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.add ins(%sa, %sb : memref<f32>, memref<f32>) outs(%out : memref<f32>)
  glow.instr.dealloc_activation %a : memref<1024xf32>
  glow.instr.dealloc_activation %b : memref<1024xf32>
  glow.instr.dealloc_activation %sa : memref<f32>
  glow.instr.dealloc_activation %sb : memref<f32>
  return
}

// -----

// The op making %b also writes half of %a through a view: %a's reduction must follow
// it (a read after a write through the alias), so no order frees %a before %b is
// made, and the program order stays.
// CHECK-LABEL: func.func @aliasing
// CHECK: linalg.fill {{.*}} outs(%[[A:.*]] : memref<1024xf32>)
// CHECK: linalg.generic
// CHECK: linalg.reduce ins(%[[A]]
// CHECK: linalg.reduce
#id = affine_map<(i) -> (i)>
func.func @aliasing(%x: f32, %out: memref<f32>) {
  %a = glow.instr.alloc_activation : memref<1024xf32>
  %b = glow.instr.alloc_activation : memref<512xf32>
  %sa = glow.instr.alloc_activation : memref<f32>
  %sb = glow.instr.alloc_activation : memref<f32>
  %v = memref.subview %a[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      outs(%b, %v : memref<512xf32>, memref<512xf32, strided<[1]>>) {
    ^bb0(%o: f32, %p: f32):
      linalg.yield %x, %x : f32, f32
  }
  linalg.reduce ins(%a : memref<1024xf32>) outs(%sa : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%b : memref<512xf32>) outs(%sb : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.add ins(%sa, %sb : memref<f32>, memref<f32>) outs(%out : memref<f32>)
  glow.instr.dealloc_activation %a : memref<1024xf32>
  glow.instr.dealloc_activation %b : memref<512xf32>
  glow.instr.dealloc_activation %sa : memref<f32>
  glow.instr.dealloc_activation %sb : memref<f32>
  return
}

// -----

// A call has effects the pass cannot see: nothing moves across it, so the branches
// keep their order.
// CHECK-LABEL: func.func @barrier
// CHECK: linalg.fill {{.*}} outs(%[[A:.*]] : memref<1024xf32>)
// CHECK: linalg.fill {{.*}} outs(%[[B:.*]] : memref<1024xf32>)
// CHECK: call @effect()
// CHECK: linalg.reduce ins(%[[A]]
// CHECK: linalg.reduce ins(%[[B]]
func.func private @effect()
func.func @barrier(%x: f32, %out: memref<f32>) {
  %a = glow.instr.alloc_activation : memref<1024xf32>
  %b = glow.instr.alloc_activation : memref<1024xf32>
  %sa = glow.instr.alloc_activation : memref<f32>
  %sb = glow.instr.alloc_activation : memref<f32>
  linalg.fill ins(%x : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<1024xf32>)
  func.call @effect() : () -> ()
  linalg.reduce ins(%a : memref<1024xf32>) outs(%sa : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%b : memref<1024xf32>) outs(%sb : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.add ins(%sa, %sb : memref<f32>, memref<f32>) outs(%out : memref<f32>)
  glow.instr.dealloc_activation %a : memref<1024xf32>
  glow.instr.dealloc_activation %b : memref<1024xf32>
  glow.instr.dealloc_activation %sa : memref<f32>
  glow.instr.dealloc_activation %sb : memref<f32>
  return
}

// -----

// A value computed by one instruction orders its users after it, even through a
// view of a buffer whose offset it computes.
// CHECK-LABEL: func.func @values
// CHECK: %[[I:.*]] = arith.addi
// CHECK: memref.subview %{{.*}}[%[[I]]]
// CHECK: linalg.fill
func.func @values(%x: f32, %i: index, %out: memref<f32>) {
  %a = glow.instr.alloc_activation : memref<1024xf32>
  %c1 = arith.constant 1 : index
  %j = arith.addi %i, %c1 : index
  %v = memref.subview %a[%j] [4] [1] : memref<1024xf32> to memref<4xf32, strided<[1], offset: ?>>
  linalg.fill ins(%x : f32) outs(%v : memref<4xf32, strided<[1], offset: ?>>)
  glow.instr.dealloc_activation %a : memref<1024xf32>
  return
}
