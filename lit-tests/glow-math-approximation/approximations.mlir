// glow-math-approximation: f32 erf / tanh, scalar or vector, become MLIR's
// polynomial approximations (fma chains, no libm call); f32 exp becomes glow's
// shorter expansion (clamps, one rounding FMA, two reduction FMAs, six polynomial
// FMAs, the scale built by an integer add and shift); other types are left alone.
// RUN: glow-opt %s --glow-math-approximation | FileCheck %s

// CHECK-LABEL: func.func @approximate
// CHECK-SAME: (%[[X:.*]]: f32,
// CHECK-NOT: math.erf
// erf keeps the sign of its argument (erf(-0) = -0):
// CHECK: %[[ERF:.*]] = math.copysign %{{.*}}, %[[X]] : f32
// CHECK-NOT: math.tanh
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK: math.exp {{.*}} : f64
func.func @approximate(%x: f32, %v: vector<8xf32>, %d: f64) -> (f32, vector<8xf32>, f32, f64) {
  %0 = math.erf %x : f32
  %1 = math.exp %v : vector<8xf32>
  %2 = math.tanh %x : f32
  %3 = math.exp %d : f64
  return %0, %1, %2, %3 : f32, vector<8xf32>, f32, f64
}

// CHECK-LABEL: func.func @exp
// CHECK-SAME: (%[[V:.*]]: vector<8xf32>, %[[S:.*]]: f32)
// CHECK-DAG: %[[LOW:.*]] = arith.constant dense<-8.768000e+01> : vector<8xf32>
// CHECK-DAG: %[[HIGH:.*]] = arith.constant dense<8.900000e+01> : vector<8xf32>
// CHECK-DAG: %[[SHIFTER:.*]] = arith.constant dense<0x4B400000> : vector<8xf32>
// CHECK-DAG: %[[BIAS:.*]] = arith.constant dense<126> : vector<8xi32>
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant dense<1.44269502> : vector<8xf32>
// CHECK-DAG: %[[LN2_HI:.*]] = arith.constant dense<-0.693359375> : vector<8xf32>
// CHECK-DAG: %[[LN2_LO:.*]] = arith.constant dense<2.12194442E-4> : vector<8xf32>
// CHECK-DAG: %[[C6:.*]] = arith.constant dense<0.0027687191> : vector<8xf32>
// CHECK-DAG: %[[C5:.*]] = arith.constant dense<0.0167482849> : vector<8xf32>
// CHECK-DAG: %[[C4:.*]] = arith.constant dense<8.333600e-02> : vector<8xf32>
// CHECK-DAG: %[[C3:.*]] = arith.constant dense<0.333328635> : vector<8xf32>
// CHECK-DAG: %[[C2:.*]] = arith.constant dense<0.99999988> : vector<8xf32>
// CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<8xf32>
// CHECK-DAG: %[[TWENTY_THREE:.*]] = arith.constant dense<23> : vector<8xi32>
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[V]], %[[LOW]]
// CHECK: %[[XL:.*]] = arith.select %[[BELOW]], %[[LOW]], %[[V]]
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[XL]], %[[HIGH]]
// CHECK: %[[XC:.*]] = arith.select %[[ABOVE]], %[[HIGH]], %[[XL]]
// CHECK: %[[T:.*]] = math.fma %[[XC]], %[[LOG2E]], %[[SHIFTER]]
// CHECK: %[[N:.*]] = arith.subf %[[T]], %[[SHIFTER]]
// CHECK: %[[R1:.*]] = math.fma %[[N]], %[[LN2_HI]], %[[XC]]
// CHECK: %[[R:.*]] = math.fma %[[N]], %[[LN2_LO]], %[[R1]]
// CHECK: %[[P5:.*]] = math.fma %[[C6]], %[[R]], %[[C5]]
// CHECK: %[[P4:.*]] = math.fma %[[P5]], %[[R]], %[[C4]]
// CHECK: %[[P3:.*]] = math.fma %[[P4]], %[[R]], %[[C3]]
// CHECK: %[[P2:.*]] = math.fma %[[P3]], %[[R]], %[[C2]]
// CHECK: %[[P1:.*]] = math.fma %[[P2]], %[[R]], %[[TWO]]
// CHECK: %[[P:.*]] = math.fma %[[P1]], %[[R]], %[[TWO]]
// CHECK: %[[BITS:.*]] = arith.bitcast %[[T]] : vector<8xf32> to vector<8xi32>
// CHECK: %[[BIASED:.*]] = arith.addi %[[BITS]], %[[BIAS]]
// CHECK: %[[SCALE_BITS:.*]] = arith.shli %[[BIASED]], %[[TWENTY_THREE]]
// CHECK: %[[SCALE:.*]] = arith.bitcast %[[SCALE_BITS]] : vector<8xi32> to vector<8xf32>
// CHECK: arith.mulf %[[P]], %[[SCALE]] : vector<8xf32>
// The scalar form is the same sequence on f32 / i32:
// CHECK: arith.cmpf olt, %[[S]], %{{.*}} : f32
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.shli %{{.*}} : i32
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp(%v: vector<8xf32>, %s: f32) -> (vector<8xf32>, f32) {
  %0 = math.exp %v : vector<8xf32>
  %1 = math.exp %s : f32
  return %0, %1 : vector<8xf32>, f32
}
