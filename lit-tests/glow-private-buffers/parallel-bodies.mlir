// A buffer one scf.parallel iteration allocates becomes a stack allocation (its
// deallocation dropped), also one a nested parallel loop reads; buffers outside
// parallel loops, inside a loop of the body (each step would take more stack), larger
// than 64 KB, with a dynamic shape or passed to a call stay heap buffers (the memory
// plan then reports them).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-private-buffers))' | FileCheck %s

func.func private @consume(memref<16xf32>)

// CHECK-LABEL: func.func @row_buffers
func.func @row_buffers(%out: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: scf.parallel
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    // CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<1x16xf32>
    %row = memref.alloc() {alignment = 64 : i64} : memref<1x16xf32>
    linalg.fill ins(%zero : f32) outs(%row : memref<1x16xf32>)
    %slice = memref.subview %out[%i, 0] [1, 16] [1, 1] : memref<8x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    memref.copy %row, %slice : memref<1x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    // CHECK-NOT: memref.dealloc
    memref.dealloc %row : memref<1x16xf32>
    // CHECK: scf.for
    scf.for %j = %c0 to %c2 step %c1 {
      // CHECK-NEXT: memref.alloc() : memref<4xf32>
      %piece = memref.alloc() : memref<4xf32>
      linalg.fill ins(%zero : f32) outs(%piece : memref<4xf32>)
    }
    // CHECK: memref.alloca() : memref<16xf32>
    // CHECK: scf.parallel
    %shared = memref.alloc() : memref<16xf32>
    scf.parallel (%j) = (%c0) to (%c2) step (%c1) {
      linalg.fill ins(%zero : f32) outs(%shared : memref<16xf32>)
      scf.reduce
    }
    // 128 KB: too large for a thread's stack.
    // CHECK: memref.alloc() : memref<32768xf32>
    %large = memref.alloc() : memref<32768xf32>
    linalg.fill ins(%zero : f32) outs(%large : memref<32768xf32>)
    // CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
    %dynamic = memref.alloc(%i) : memref<?xf32>
    linalg.fill ins(%zero : f32) outs(%dynamic : memref<?xf32>)
    // CHECK: memref.alloc() : memref<16xf32>
    %called = memref.alloc() : memref<16xf32>
    func.call @consume(%called) : (memref<16xf32>) -> ()
    scf.reduce
  }
  return
}

// A sequential loop's buffer: the memory plan's (after buffer-loop-hoisting).
// CHECK-LABEL: func.func @sequential
func.func @sequential() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: scf.for
  // CHECK-NEXT: memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %row = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%row : memref<16xf32>)
  }
  // CHECK-NOT: memref.alloca
  return
}
