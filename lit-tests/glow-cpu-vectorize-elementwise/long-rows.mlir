// A reduction along the innermost axis alone, longer than one vectorized row (256), is
// cut into 128-element pieces folded into the row's accumulator one after the other (a
// layer norm's mean over 384 features); a reduction over an outer axis as well is left
// as it is.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s

// CHECK-LABEL: func.func @mean_of_384
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64 step %c1
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c384 step %c128
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x128xf32> to vector<1xf32>
// CHECK-NOT: linalg.generic
func.func @mean_of_384(%x: tensor<64x384xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x384xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}

// CHECK-LABEL: func.func @total_of_2x384
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @total_of_2x384(%x: tensor<2x384xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                         iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<2x384xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %sum : tensor<f32>
}
