// glow-vector-accumulators: a loop reducing f32 rows chunk by chunk carries a 16-lane
// vector, started at the kind's identity; the lanes are folded with the initial value
// once after the loop. Other loops are left alone.
// RUN: glow-opt %s --glow-vector-accumulators | FileCheck %s

// CHECK-LABEL: func.func @max_row
// CHECK-SAME: (%[[ROW:.*]]: memref<1024xf32>, %[[INIT:.*]]: vector<1xf32>)
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7FC00000> : vector<16xf32>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[SCALAR:.*]] = %[[INIT]], %[[LANES:.*]] = %[[NAN]]) -> (vector<1xf32>, vector<16xf32>)
// CHECK-NOT: vector.multi_reduction
// CHECK: %[[PIECES:.*]] = vector.shape_cast %{{.*}} : vector<1x128xf32> to vector<8x16xf32>
// CHECK-COUNT-7: arith.maxnumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: %[[NEXT:.*]] = arith.maxnumf %[[LANES]], %{{.*}} : vector<16xf32>
// CHECK-NOT: vector.multi_reduction
// CHECK: scf.yield %[[SCALAR]], %[[NEXT]] : vector<1xf32>, vector<16xf32>
// CHECK: %[[FINAL:.*]] = vector.shape_cast %[[LOOP]]#1 : vector<16xf32> to vector<1x16xf32>
// CHECK: %[[FOLDED:.*]] = vector.multi_reduction <maxnumf>, %[[FINAL]], %[[INIT]] [1] : vector<1x16xf32> to vector<1xf32>
// CHECK: return %[[FOLDED]]
func.func @max_row(%row: memref<1024xf32>, %init: vector<1xf32>) -> vector<1xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  %pad = ub.poison : f32
  %r = scf.for %i = %c0 to %c1024 step %c128 iter_args(%acc = %init) -> (vector<1xf32>) {
    %chunk = vector.transfer_read %row[%i], %pad {in_bounds = [true]} : memref<1024xf32>, vector<128xf32>
    %rows = vector.shape_cast %chunk : vector<128xf32> to vector<1x128xf32>
    %next = vector.multi_reduction <maxnumf>, %rows, %acc [1] : vector<1x128xf32> to vector<1xf32>
    scf.yield %next : vector<1xf32>
  }
  return %r : vector<1xf32>
}

// Identities: -0 for add (x + -0 = x, also for x = -0), +inf for minimumf; a chunk of
// 48 lanes combines three pieces.
// CHECK-LABEL: func.func @identities
// CHECK: arith.constant dense<-0.000000e+00> : vector<16xf32>
// CHECK: vector.shape_cast %{{.*}} : vector<1x48xf32> to vector<3x16xf32>
// CHECK-COUNT-3: arith.addf
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK: arith.constant dense<0x7F800000> : vector<16xf32>
// CHECK-COUNT-3: arith.minimumf
// CHECK: vector.multi_reduction <minimumf>, %{{.*}}, %{{.*}} [1] : vector<1x16xf32> to vector<1xf32>
func.func @identities(%rows: vector<1x48xf32>, %init: vector<1xf32>) -> (vector<1xf32>, vector<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<1xf32>) {
    %next = vector.multi_reduction <add>, %rows, %acc [1] : vector<1x48xf32> to vector<1xf32>
    scf.yield %next : vector<1xf32>
  }
  %m = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<1xf32>) {
    %next = vector.multi_reduction <minimumf>, %rows, %acc [1] : vector<1x48xf32> to vector<1xf32>
    scf.yield %next : vector<1xf32>
  }
  return %s, %m : vector<1xf32>, vector<1xf32>
}

// Two reductions carried by one loop (max and a NaN-propagating maximum) each get
// their own lanes.
// CHECK-LABEL: func.func @two_in_one_loop
// CHECK: iter_args({{.*}}) -> (vector<1xf32>, vector<1xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-DAG: vector.multi_reduction <maximumf>, %{{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK-DAG: vector.multi_reduction <minnumf>, %{{.*}} [1] : vector<1x16xf32> to vector<1xf32>
func.func @two_in_one_loop(%rows: vector<1x32xf32>, %a: vector<1xf32>, %b: vector<1xf32>) -> (vector<1xf32>, vector<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a, %y = %b) -> (vector<1xf32>, vector<1xf32>) {
    %nx = vector.multi_reduction <maximumf>, %rows, %x [1] : vector<1x32xf32> to vector<1xf32>
    %ny = vector.multi_reduction <minnumf>, %rows, %y [1] : vector<1x32xf32> to vector<1xf32>
    scf.yield %nx, %ny : vector<1xf32>, vector<1xf32>
  }
  return %r#0, %r#1 : vector<1xf32>, vector<1xf32>
}

// Refused: a row of 24 lanes (not whole registers), f64 rows, an accumulator also read
// elsewhere in the loop, a result used beyond the yield, a reduction over the first
// axis of a 1 x 32 row, integer rows, a row reduced to a scalar, and products.
// CHECK-LABEL: func.func @refused
// CHECK-NOT: vector<16xf32>
// CHECK-COUNT-8: vector.multi_reduction
// CHECK-NOT: vector<16xf32>
// CHECK: return
func.func @refused(%a: vector<1x24xf32>, %b: vector<1x32xf64>, %c: vector<1x32xf32>, %e: vector<1x32xi32>, %g: vector<32xf32>,
                   %fa: vector<1xf32>, %fb: vector<1xf64>, %fd: vector<32xf32>, %fe: vector<1xi32>, %fg: f32, %out: memref<1xf32>)
    -> (vector<1xf32>, vector<1xf64>, vector<1xf32>, vector<1xf32>, vector<32xf32>, vector<1xi32>, f32, vector<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fa) -> (vector<1xf32>) {
    %next = vector.multi_reduction <add>, %a, %acc [1] : vector<1x24xf32> to vector<1xf32>
    scf.yield %next : vector<1xf32>
  }
  %r1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fb) -> (vector<1xf64>) {
    %next = vector.multi_reduction <add>, %b, %acc [1] : vector<1x32xf64> to vector<1xf64>
    scf.yield %next : vector<1xf64>
  }
  %r2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fa) -> (vector<1xf32>) {
    %next = vector.multi_reduction <add>, %c, %acc [1] : vector<1x32xf32> to vector<1xf32>
    vector.transfer_write %acc, %out[%c0] {in_bounds = [true]} : vector<1xf32>, memref<1xf32>
    scf.yield %next : vector<1xf32>
  }
  %r3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fa) -> (vector<1xf32>) {
    %next = vector.multi_reduction <add>, %c, %acc [1] : vector<1x32xf32> to vector<1xf32>
    vector.transfer_write %next, %out[%c0] {in_bounds = [true]} : vector<1xf32>, memref<1xf32>
    scf.yield %next : vector<1xf32>
  }
  %r4 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fd) -> (vector<32xf32>) {
    %next = vector.multi_reduction <add>, %c, %acc [0] : vector<1x32xf32> to vector<32xf32>
    scf.yield %next : vector<32xf32>
  }
  %r5 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fe) -> (vector<1xi32>) {
    %next = vector.multi_reduction <add>, %e, %acc [1] : vector<1x32xi32> to vector<1xi32>
    scf.yield %next : vector<1xi32>
  }
  %r6 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fg) -> (f32) {
    %next = vector.multi_reduction <add>, %g, %acc [0] : vector<32xf32> to f32
    scf.yield %next : f32
  }
  %r7 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %fa) -> (vector<1xf32>) {
    %next = vector.multi_reduction <mul>, %c, %acc [1] : vector<1x32xf32> to vector<1xf32>
    scf.yield %next : vector<1xf32>
  }
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : vector<1xf32>, vector<1xf64>, vector<1xf32>, vector<1xf32>, vector<32xf32>, vector<1xi32>, f32, vector<1xf32>
}
