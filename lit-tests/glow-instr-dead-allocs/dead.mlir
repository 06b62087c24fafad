// glow-instr-dead-allocs: a buffer nothing reads goes, with its views and the fills,
// stores, copies and elementwise writes into it. A buffer something reads stays, and
// so does one written by an op that also writes another buffer.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-instr-dead-allocs))' | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK-NOT: memref<3xf32>
// CHECK: %[[READ:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[READ]] : memref<4xf32>)
// CHECK-NEXT: glow.instr.copy out %[[Y:.*]], in %[[READ]]
// CHECK-NEXT: glow.instr.dealloc_activation %[[READ]]
// CHECK-NEXT: %[[SHARED:.*]] = glow.instr.alloc_activation : memref<4xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[Y]], %[[SHARED]] : memref<4xf32>, memref<4xf32>)
// CHECK-NOT: memref<3xf32>
// CHECK: return
#id = affine_map<(d0) -> (d0)>
func.func @f(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  %i = arith.constant 0 : index
  %dead = glow.instr.alloc_activation : memref<3xf32>
  linalg.fill ins(%c : f32) outs(%dead : memref<3xf32>)
  %view = memref.subview %dead[1] [2] [1] : memref<3xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.store %c, %view[%i] : memref<2xf32, strided<[1], offset: 1>>
  %x3 = memref.subview %x[0] [3] [1] : memref<4xf32> to memref<3xf32, strided<[1]>>
  memref.copy %x3, %dead : memref<3xf32, strided<[1]>> to memref<3xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x3 : memref<3xf32, strided<[1]>>) outs(%dead : memref<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  glow.instr.dealloc_activation %dead : memref<3xf32>
  %read = glow.instr.alloc_activation : memref<4xf32>
  linalg.fill ins(%c : f32) outs(%read : memref<4xf32>)
  glow.instr.copy out %y, in %read : memref<4xf32>
  glow.instr.dealloc_activation %read : memref<4xf32>
  %shared = glow.instr.alloc_activation : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%y, %shared : memref<4xf32>, memref<4xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    linalg.yield %in, %in : f32, f32
  }
  glow.instr.dealloc_activation %shared : memref<4xf32>
  return
}

// A buffer an accumulating op writes (its payload reads the init) is read: it stays.
// CHECK-LABEL: func.func @accumulate
// CHECK: glow.instr.alloc_activation
func.func @accumulate(%x: memref<4xf32>) {
  %acc = glow.instr.alloc_activation : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  glow.instr.dealloc_activation %acc : memref<4xf32>
  return
}
