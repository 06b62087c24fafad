// glow-instr-share-buffers: an elementwise generic writing a fresh activation while
// reading another one for the last time writes in place; the shared buffer lives as
// long as the output did.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-instr-share-buffers))' | FileCheck %s

// CHECK-LABEL: func.func @relu
// CHECK: %[[A:.*]] = glow.instr.alloc_activation : memref<8xf32>
// CHECK-NEXT: linalg.add ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[A]] : memref<8xf32>)
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]] : memref<8xf32>) outs(%[[A]] : memref<8xf32>)
// CHECK: linalg.add ins(%[[A]], %[[A]] : {{.*}}) outs(%{{.*}} : memref<8xf32>)
// CHECK-NEXT: glow.instr.dealloc_activation %[[A]]
// CHECK-NEXT: return
#id = affine_map<(d0) -> (d0)>
func.func @relu(%x: memref<8xf32>, %y: memref<8xf32>) {
  %a = glow.instr.alloc_activation : memref<8xf32>
  linalg.add ins(%x, %x : memref<8xf32>, memref<8xf32>) outs(%a : memref<8xf32>)
  %b = glow.instr.alloc_activation : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  glow.instr.dealloc_activation %a : memref<8xf32>
  linalg.add ins(%b, %b : memref<8xf32>, memref<8xf32>) outs(%y : memref<8xf32>)
  glow.instr.dealloc_activation %b : memref<8xf32>
  return
}

// -----

// Refused: the input is read again afterwards; a transposing map reads other
// elements than it writes; the input is a view.
// CHECK-LABEL: func.func @refused
// CHECK-COUNT-4: glow.instr.alloc_activation
#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @refused(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  %a = glow.instr.alloc_activation : memref<4x4xf32>
  linalg.add ins(%x, %x : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  %b = glow.instr.alloc_activation : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.add ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%y : memref<4x4xf32>)
  %c = glow.instr.alloc_activation : memref<4x4xf32>
  linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %d = glow.instr.alloc_activation : memref<16xf32>
  %flat = memref.collapse_shape %c [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%flat : memref<16xf32>) outs(%d : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %flat_y = memref.collapse_shape %y [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  linalg.copy ins(%d : memref<16xf32>) outs(%flat_y : memref<16xf32>)
  glow.instr.dealloc_activation %a : memref<4x4xf32>
  glow.instr.dealloc_activation %b : memref<4x4xf32>
  glow.instr.dealloc_activation %c : memref<4x4xf32>
  glow.instr.dealloc_activation %d : memref<16xf32>
  return
}
