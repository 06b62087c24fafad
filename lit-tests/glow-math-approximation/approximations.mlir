// glow-math-approximation: f32 erf / exp / tanh, scalar or vector, become MLIR's
// polynomial approximations (fma chains, no libm call); other types are left alone.
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
