// A reduction over outer axes into a parallel innermost one — a global pool in NHWC,
// summing 7x7 pixels of 64 channels — steps through the reduced axes one pixel at a
// time with the channels as one vector accumulator, carried through both loops in
// registers (hoisted as vector iter_args), read and written once.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise),canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: func.func @global_sum
// CHECK: %[[INIT:.*]] = vector.transfer_read %{{.*}} : tensor<1x64xf32>, vector<1x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1 iter_args(%[[A:.*]] = %[[INIT]]) -> (vector<1x64xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1 iter_args(%[[B:.*]] = %[[A]]) -> (vector<1x64xf32>)
// CHECK: vector.transfer_read %{{.*}} : tensor<1x1x1x64xf32>, vector<1x1x1x64xf32>
// CHECK: arith.addf %[[B]], %{{.*}} : vector<1x64xf32>
// CHECK-NEXT: scf.yield
// CHECK: scf.yield
// CHECK: vector.transfer_write {{.*}} : vector<1x64xf32>, tensor<1x64xf32>
func.func @global_sum(%x: tensor<1x7x7x64xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>],
                         iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x7x7x64xf32>) outs(%init : tensor<1x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %sum : tensor<1x64xf32>
}
