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

// An arg-max over an outer axis (index carried along, picked with a select) is not a
// reduction the vectorizer recognizes: left to the scalar lowering, not a failure.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s --check-prefix=ARGMAX
// ARGMAX-LABEL: func.func @arg_max
// ARGMAX: linalg.generic
// ARGMAX-NOT: vector.

// -----

func.func @arg_max(%x: tensor<10x64xf32>) -> (tensor<64xf32>, tensor<64xi64>) {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<64xf32>
  %i = tensor.empty() : tensor<64xi64>
  %m0 = linalg.fill ins(%lowest : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %i0 = linalg.fill ins(%zero : i64) outs(%i : tensor<64xi64>) -> tensor<64xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c)>, affine_map<(r, c) -> (c)>],
                         iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<10x64xf32>) outs(%m0, %i0 : tensor<64xf32>, tensor<64xi64>) {
  ^bb0(%in: f32, %best: f32, %at: i64):
    %k = linalg.index 0 : index
    %ki = arith.index_cast %k : index to i64
    %gt = arith.cmpf ogt, %in, %best : f32
    %b = arith.select %gt, %in, %best : f32
    %a = arith.select %gt, %ki, %at : i64
    linalg.yield %b, %a : f32, i64
  } -> (tensor<64xf32>, tensor<64xi64>)
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xi64>
}
