// With threads=2, a generic of at least 16384 iterations first gets an outer
// scf.forall splitting its first outer parallel loop that divides evenly into two
// equal parts; the rows inside each part are then vectorized as without threads (a
// broadcast add), or left to LLVM (a plain add). Smaller generics, and generics whose
// outer loops do not divide, are not split. A loop the row schedule tiles is split only
// into whole tiles.
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

// A transpose in 16 x 16 blocks (channels x columns) is split along a loop its blocks
// take one step at a time (the rows), not along the 16 channels: halved, a block would
// no longer fit its part (found on a UNet's NHWC -> NCHW GroupNorm input: "Attempted
// to vectorize, but failed" with two threads).
#nhwc_as_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @transpose_blocks
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: tensor.extract_slice %{{.*}} [1, 16, 32, 64] [1, 1, 1, 1] : tensor<1x16x64x64xf32> to tensor<1x16x32x64xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x16x16xf32>, vector<1x16x1x16xf32>
// CHECK: scf.forall.in_parallel
func.func @transpose_blocks(%x: tensor<1x64x64x16xf32>) -> tensor<1x16x64x64xf32> {
  %e = tensor.empty() : tensor<1x16x64x64xf32>
  %r = linalg.generic {indexing_maps = [#nhwc_as_nchw, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x64x64x16xf32>) outs(%e : tensor<1x16x64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x16x64x64xf32>
  return %r : tensor<1x16x64x64xf32>
}
