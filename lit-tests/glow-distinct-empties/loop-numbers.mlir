// The CPU schedules number their top-level scf.forall loops (`glow.loop`): CSE hashes
// an op's name, attributes and operands but not its regions, so kernels writing into one
// shared empty tensor (CSE merges all empties of a type) would all hash alike, and each
// would be compared region by region with every earlier one (quadratic in an unrolled
// recurrence). glow-distinct-empties, after the last CSE on tensors, drops the numbers.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-tile-and-vectorize),cse)' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-tile-and-vectorize),cse,func.func(glow-distinct-empties))' | FileCheck %s --check-prefix=DROPPED

// CHECK-LABEL: func.func @two_kernels_one_destination
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x64xf32>
// CHECK: scf.forall {{.*}} shared_outs(%{{.*}} = %[[E]])
// CHECK: } {glow.loop = 0 : i64}
// CHECK: scf.forall {{.*}} shared_outs(%{{.*}} = %[[E]])
// CHECK: } {glow.loop = 1 : i64}
// DROPPED-LABEL: func.func @two_kernels_one_destination
// DROPPED: scf.forall
// DROPPED-NOT: glow.loop
func.func @two_kernels_one_destination(%a: tensor<8x32xf32>, %b: tensor<8x32xf32>, %w: tensor<32x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m0 = linalg.matmul ins(%a, %w : tensor<8x32xf32>, tensor<32x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m1 = linalg.matmul ins(%b, %w : tensor<8x32xf32>, tensor<32x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m0, %m1 : tensor<8x64xf32>, tensor<8x64xf32>
}
