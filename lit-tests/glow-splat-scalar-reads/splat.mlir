// A transfer_read of a one-element memref at index 0 that broadcasts into an n-D
// vector becomes a scalar load and a splat; upstream's lowering broadcast and then
// transposed a vector<1xf32>, one LLVM extract / insert per lane. Reads of larger
// memrefs, at other indices, or masked, stay.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-splat-scalar-reads))' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-splat-scalar-reads),convert-vector-to-scf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @scale
// CHECK: %[[S:.*]] = memref.load %arg0[%{{.*}}] : memref<1xf32>
// CHECK: %[[V:.*]] = vector.broadcast %[[S]] : f32 to vector<1x1x1x32xf32>
// CHECK: return %[[V]]
// LLVM-LABEL: llvm.func @scale
// LLVM: llvm.insertelement {{.*}} : vector<32xf32>
// LLVM-NEXT: llvm.shufflevector {{.*}} [0, 0, 0,
// LLVM-NOT: llvm.insertelement
// LLVM: llvm.return
func.func @scale(%m: memref<1xf32>) -> vector<1x1x1x32xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0], %pad {in_bounds = [true, true, true, true], permutation_map = affine_map<(d0) -> (d0, 0, 0, 0)>} : memref<1xf32>, vector<1x1x1x32xf32>
  return %v : vector<1x1x1x32xf32>
}

// -----

// A rank-0 memref (a reduction's result) alike.
// CHECK-LABEL: func.func @scalar
// CHECK: %[[S:.*]] = memref.load %arg0[] : memref<i32>
// CHECK: vector.broadcast %[[S]] : i32 to vector<16xi32>
func.func @scalar(%m: memref<i32>) -> vector<16xi32> {
  %pad = arith.constant 0 : i32
  %v = vector.transfer_read %m[], %pad {in_bounds = [true], permutation_map = affine_map<() -> (0)>} : memref<i32>, vector<16xi32>
  return %v : vector<16xi32>
}

// -----

// CHECK-LABEL: func.func @kept
// CHECK-NOT: memref.load
// CHECK-COUNT-3: vector.transfer_read
func.func @kept(%wide: memref<4xf32>, %one: memref<1xf32>, %i: index, %mask: vector<1xi1>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %wide[%c0], %pad {permutation_map = affine_map<(d0) -> (0)>} : memref<4xf32>, vector<8xf32>
  %b = vector.transfer_read %one[%i], %pad {permutation_map = affine_map<(d0) -> (0)>} : memref<1xf32>, vector<8xf32>
  %c = vector.transfer_read %one[%c0], %pad, %mask {permutation_map = affine_map<(d0) -> (0)>} : memref<1xf32>, vector<8xf32>
  return %a, %b, %c : vector<8xf32>, vector<8xf32>, vector<8xf32>
}
