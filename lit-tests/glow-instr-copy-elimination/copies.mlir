// glow-instr-copy-elimination: copies of splats become fills, copies whose source
// dies at the copy are propagated backward (the producer writes the destination),
// copies whose destination is then only read are propagated forward (the readers read
// the source).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-instr-copy-elimination))' | FileCheck %s

// Copy of a splat: the reduction's init is filled directly; the filled buffer, read
// by nothing now, is left for glow-instr-dead-allocs. Then the accumulator dies at its
// copy into the output: the reduction accumulates in the output directly.
// CHECK-LABEL: func.func @splat
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: linalg.generic {{.*}} outs(%[[SPLAT:.*]] : memref<4xf32>)
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[Y]] : memref<4xf32>)
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]] : memref<4xf32>) outs(%[[Y]] : memref<4xf32>)
// CHECK-NOT: glow.instr.copy
#id = affine_map<(d0) -> (d0)>
func.func @splat(%x: memref<4xf32>, %y: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %splat = glow.instr.alloc_activation : memref<4xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%splat : memref<4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  %acc = glow.instr.alloc_activation : memref<4xf32>
  glow.instr.copy out %acc, in %splat : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  glow.instr.copy out %y, in %acc : memref<4xf32>
  glow.instr.dealloc_activation %acc : memref<4xf32>
  glow.instr.dealloc_activation %splat : memref<4xf32>
  return
}

// -----

// Backward: %a dies at the copy into the output %y, which nothing touches meanwhile:
// the add writes %y.
// CHECK-LABEL: func.func @backward
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4xf32>)
// CHECK-NEXT: linalg.add ins(%[[X]], %[[X]] : {{.*}}) outs(%[[Y]] : memref<4xf32>)
// CHECK-NEXT: return
func.func @backward(%x: memref<4xf32>, %y: memref<4xf32>) {
  %a = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  glow.instr.copy out %y, in %a : memref<4xf32>
  glow.instr.dealloc_activation %a : memref<4xf32>
  return
}

// -----

// Backward into an activation allocated later: its alloc moves up.
// CHECK-LABEL: func.func @backward_moves_alloc
// CHECK-NEXT: %[[B:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.add ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[B]] : memref<4xf32>)
// CHECK-NEXT: linalg.add ins(%[[B]], %[[B]] : {{.*}}) outs(%{{.*}} : memref<4xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[B]]
// CHECK-NEXT: return
func.func @backward_moves_alloc(%x: memref<4xf32>, %y: memref<4xf32>) {
  %a = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %b = glow.instr.alloc_activation : memref<4xf32>
  glow.instr.copy out %b, in %a : memref<4xf32>
  glow.instr.dealloc_activation %a : memref<4xf32>
  linalg.add ins(%b, %b : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
  glow.instr.dealloc_activation %b : memref<4xf32>
  return
}

// -----

// Forward: %b is a copy of the constant %w, then only read: the add reads %w.
// CHECK-LABEL: func.func @forward
// CHECK-NEXT: %[[W:.*]] = glow.instr.weight "w" constant
// CHECK-NEXT: linalg.add ins(%[[W]], %[[W]] : {{.*}}) outs(%{{.*}} : memref<4xf32>)
// CHECK-NEXT: return
func.func @forward(%y: memref<4xf32>) {
  %w = glow.instr.weight "w" constant : memref<4xf32>
  %b = glow.instr.alloc_activation : memref<4xf32>
  glow.instr.copy out %b, in %w : memref<4xf32>
  linalg.add ins(%b, %b : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
  glow.instr.dealloc_activation %b : memref<4xf32>
  return
}

// -----

// Forward from an activation that dies before the copy's readers: its lifetime grows.
// CHECK-LABEL: func.func @forward_extends
// CHECK: %[[A:.*]] = glow.instr.alloc_activation
// CHECK-NEXT: linalg.add ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: linalg.add ins(%[[A]], %{{.*}} : {{.*}}) outs(%{{.*}} : memref<4xf32>)
// CHECK-NEXT: linalg.add ins(%[[A]], %[[A]] : {{.*}}) outs(%{{.*}} : memref<4xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[A]]
// CHECK-NEXT: return
func.func @forward_extends(%x: memref<4xf32>, %y: memref<4xf32>, %z: memref<4xf32>) {
  %a = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %b = glow.instr.alloc_activation : memref<4xf32>
  glow.instr.copy out %b, in %a : memref<4xf32>
  linalg.add ins(%a, %x : memref<4xf32>, memref<4xf32>) outs(%z : memref<4xf32>)
  glow.instr.dealloc_activation %a : memref<4xf32>
  linalg.add ins(%b, %b : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
  glow.instr.dealloc_activation %b : memref<4xf32>
  return
}

// -----

// Refused: the source is read after the copy and the destination is written after it
// (backward would clobber what %a's later reader needs, forward would make the write
// land in %a); the destination is read between the source's allocation and the copy.
// CHECK-LABEL: func.func @refused
// CHECK-COUNT-2: glow.instr.copy
func.func @refused(%x: memref<4xf32>, %y: memref<4xf32>, %z: memref<4xf32>) {
  %a = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %b = glow.instr.alloc_activation : memref<4xf32>
  glow.instr.copy out %b, in %a : memref<4xf32>
  linalg.add ins(%b, %b : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  linalg.add ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%z : memref<4xf32>)
  glow.instr.dealloc_activation %a : memref<4xf32>
  glow.instr.dealloc_activation %b : memref<4xf32>
  %c = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  linalg.add ins(%y, %y : memref<4xf32>, memref<4xf32>) outs(%z : memref<4xf32>)
  glow.instr.copy out %y, in %c : memref<4xf32>
  glow.instr.dealloc_activation %c : memref<4xf32>
  return
}
