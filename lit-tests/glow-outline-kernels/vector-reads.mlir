// Vector reads and splats made just before a kernel (a tile loop's hoisted read of a
// run-time scale, a reduction's initial accumulator) are re-created inside it, which
// takes the buffer instead of a wide vector by value; a read with a write to memory
// between it and the kernel stays an argument.
// RUN: glow-opt %s --glow-outline-kernels | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK: call @[[SCALE:main_kernel_[0-9]+]](%arg1, %arg0, %{{.*}}, %arg3) : (memref<4x64xf32>, memref<1xf32>, f32, memref<4x64xf32>) -> ()
// CHECK: %[[STALE:.*]] = vector.transfer_read %arg2
// CHECK: memref.store
// CHECK: call @[[ACC:main_kernel_[0-9]+]](%[[STALE]], %{{.*}}) : (vector<64xf32>, memref<4x64xf32>) -> vector<64xf32>
func.func @main(%s: memref<1xf32>, %x: memref<4x64xf32>, %acc: memref<64xf32>, %y: memref<4x64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f0 = arith.constant 0.0 : f32
  %scalar = memref.load %s[%c0] : memref<1xf32>
  %splat = vector.broadcast %scalar : f32 to vector<64xf32>
  %scale = vector.transfer_read %s[%c0], %f0 {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<1xf32>, vector<64xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %row = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true]} : memref<4x64xf32>, vector<64xf32>
    %p = arith.mulf %row, %scale : vector<64xf32>
    %q = arith.addf %p, %splat : vector<64xf32>
    vector.transfer_write %q, %y[%i, %c0] {in_bounds = [true]} : vector<64xf32>, memref<4x64xf32>
  }
  %init = vector.transfer_read %acc[%c0], %f0 {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
  memref.store %f0, %acc[%c0] : memref<64xf32>
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %init) -> vector<64xf32> {
    %row = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true]} : memref<4x64xf32>, vector<64xf32>
    %m = arith.maximumf %a, %row : vector<64xf32>
    scf.yield %m : vector<64xf32>
  }
  return %sum : vector<64xf32>
}

// CHECK: func.func private @[[SCALE]](%{{.*}}: memref<4x64xf32>, %[[S:.*]]: memref<1xf32>, %[[SCALAR:.*]]: f32, %{{.*}}: memref<4x64xf32>)
// CHECK-DAG: vector.transfer_read %[[S]]
// CHECK-DAG: vector.broadcast %[[SCALAR]] : f32 to vector<64xf32>
// CHECK: scf.for
