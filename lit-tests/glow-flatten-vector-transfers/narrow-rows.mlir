// glow-flatten-vector-transfers: a transfer on a buffer whose innermost vector
// dimension is narrower than a 128-bit register (here 3 floats) and whose elements are
// contiguous becomes one 1-D transfer through memref.collapse_shape and
// vector.shape_cast. Left alone: rows of whole registers (16 floats), rows that are not
// contiguous in the buffer (3 of 4 channels), and transfers that may run out of bounds.
// RUN: glow-opt %s --glow-flatten-vector-transfers | FileCheck %s

// 16 pixels of 3 channels into an NHWC image: 48 contiguous floats.
// CHECK-LABEL: func.func @pixels
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<1x226x226x3xf32> into memref<1x226x678xf32>
// CHECK: %[[ROW:.*]] = vector.shape_cast %{{.*}} : vector<1x1x16x3xf32> to vector<48xf32>
// CHECK: vector.transfer_write %[[ROW]], %[[FLAT]]{{.*}} {in_bounds = [true]} : vector<48xf32>, memref<1x226x678xf32>
func.func @pixels(%v: vector<1x1x16x3xf32>, %m: memref<1x226x226x3xf32>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %m[%c0, %h, %w, %c0] {in_bounds = [true, true, true, true]} : vector<1x1x16x3xf32>, memref<1x226x226x3xf32>
  return
}

// A read of 8 rows of 2 floats: 16 floats read at once.
// CHECK-LABEL: func.func @read_pairs
// CHECK: memref.collapse_shape
// CHECK: vector.transfer_read {{.*}} : memref<16xf32>, vector<16xf32>
// CHECK: vector.shape_cast {{.*}} : vector<16xf32> to vector<8x2xf32>
func.func @read_pairs(%m: memref<8x2xf32>) -> vector<8x2xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %v = vector.transfer_read %m[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x2xf32>, vector<8x2xf32>
  return %v : vector<8x2xf32>
}

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.collapse_shape
// CHECK-NOT: vector.shape_cast
// CHECK: vector.transfer_write {{.*}} : vector<8x16xf32>, memref<8x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16x3xf32>, memref<16x4xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16x3xf32>, memref<?x3xf32>
func.func @left_alone(%a: vector<8x16xf32>, %ma: memref<8x16xf32>, %b: vector<16x3xf32>, %mb: memref<16x4xf32>, %mc: memref<?x3xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %a, %ma[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x16xf32>
  vector.transfer_write %b, %mb[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x4xf32>
  vector.transfer_write %b, %mc[%i, %c0] {in_bounds = [false, true]} : vector<16x3xf32>, memref<?x3xf32>
  return
}
