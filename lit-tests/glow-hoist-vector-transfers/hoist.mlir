// The accumulator a reduction loop reads and writes at a loop-invariant address is
// read once before the loop and written once after it (kept in registers).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-hoist-vector-transfers))' | FileCheck %s

// CHECK-LABEL: func.func @accumulate
// CHECK: %[[INIT:.*]] = vector.transfer_read %arg1
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<16xf32>)
// CHECK: vector.transfer_read %arg0
// CHECK: arith.addf %{{.*}}, %[[ACC]]
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[SUM]], %arg1
func.func @accumulate(%a: memref<64x16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %acc = vector.transfer_read %out[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    %row = vector.transfer_read %a[%i, %c0], %pad {in_bounds = [true]} : memref<64x16xf32>, vector<16xf32>
    %sum = arith.addf %row, %acc : vector<16xf32>
    vector.transfer_write %sum, %out[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  }
  return
}
