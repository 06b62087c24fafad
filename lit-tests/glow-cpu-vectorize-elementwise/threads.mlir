// With threads=2, a generic of at least 16384 iterations first gets an outer
// scf.forall splitting its first outer parallel loop that divides evenly into two
// equal parts; the rows inside each part are then vectorized as without threads (a
// broadcast add), or left to LLVM (a plain add). Smaller generics, and generics whose
// outer loops do not divide, are not split.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise{threads=2}))' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s --check-prefix=ONE
// ONE-NOT: scf.forall
// A thread count outside 1..=1024 is a one-line error and no output file.
// RUN: rm -f %t.mlir && not glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise{threads=0}))' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.mlir
// BAD: invalid options for pass 'glow-cpu-vectorize-elementwise': threads must be in 1..=1024

#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#bias3 = affine_map<(d0, d1, d2) -> (d2)>

// CHECK-LABEL: func.func @minus_row_max
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: tensor.extract_slice %{{.*}} [2, 128, 128] [1, 1, 1] : tensor<4x128x128xf32> to tensor<2x128x128xf32>
// CHECK: scf.for
// CHECK: arith.subf {{.*}} : vector<1x1x128xf32>
// CHECK: scf.forall.in_parallel
func.func @minus_row_max(%x: tensor<4x128x128xf32>, %m: tensor<4x128xf32>) -> tensor<4x128x128xf32> {
  %e = tensor.empty() : tensor<4x128x128xf32>
  %r = linalg.generic {indexing_maps = [#map3, #row3, #map3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m : tensor<4x128x128xf32>, tensor<4x128xf32>) outs(%e : tensor<4x128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x128x128xf32>
  return %r : tensor<4x128x128xf32>
}

// A first loop of 3 does not divide: the second (128) is split.
// CHECK-LABEL: func.func @plain_add
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<3x64x128xf32>)
// CHECK-NOT: vector.
// CHECK: scf.forall.in_parallel
func.func @plain_add(%x: tensor<3x128x128xf32>, %b: tensor<128xf32>) -> tensor<3x128x128xf32> {
  %e = tensor.empty() : tensor<3x128x128xf32>
  %r = linalg.generic {indexing_maps = [#map3, #bias3, #map3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<3x128x128xf32>, tensor<128xf32>) outs(%e : tensor<3x128x128xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<3x128x128xf32>
  return %r : tensor<3x128x128xf32>
}

// 8x128x8 = 8192 iterations: too few to share.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.forall
// CHECK: return
func.func @small(%x: tensor<8x128x8xf32>, %b: tensor<8xf32>) -> tensor<8x128x8xf32> {
  %e = tensor.empty() : tensor<8x128x8xf32>
  %r = linalg.generic {indexing_maps = [#map3, #bias3, #map3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<8x128x8xf32>, tensor<8xf32>) outs(%e : tensor<8x128x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x128x8xf32>
  return %r : tensor<8x128x8xf32>
}
