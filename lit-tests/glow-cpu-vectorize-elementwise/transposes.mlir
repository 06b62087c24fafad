// glow-cpu-vectorize-elementwise: a generic reading an operand across its innermost
// loop (a transpose) is tiled into 16 x 16 blocks (8 where 16 does not divide) and
// each block vectorized whole: a transposing transfer_read of contiguous rows, the
// payload on the block, contiguous row writes. A generic permuting outer axes only
// (rows stay contiguous) becomes one vector per row. A block loop that 8 does not
// divide is split after its last whole 16 first: blocks on the main part, the rest a
// generic of its own (left to LLVM). Refused: 16-bit elements, a block loop shorter
// than 16 that 8 does not divide, two operands transposed along different loops.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise),canonicalize)' | FileCheck %s

#nhwc_as_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#heads = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>

// NHWC -> NCHW with a ReLU: 16 channels x 16 columns per block.
// CHECK: #[[BLOCK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-LABEL: func.func @to_nchw
// CHECK: scf.for {{.*}} to %c48 step %c16
// CHECK: scf.for {{.*}} to %c4 step %c1
// CHECK: scf.for {{.*}} to %c32 step %c16
// CHECK: tensor.extract_slice %{{.*}} [1, 1, 16, 16] [1, 1, 1, 1] : tensor<1x4x32x48xf32> to tensor<1x1x16x16xf32>
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true, true, true, true], permutation_map = #[[BLOCK]]} : tensor<1x1x16x16xf32>, vector<1x16x1x16xf32>
// CHECK: arith.maximumf {{.*}} : vector<1x16x1x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x16x1x16xf32>, tensor<1x16x1x16xf32>
// CHECK-NOT: linalg.generic
func.func @to_nchw(%x: tensor<1x4x32x48xf32>) -> tensor<1x48x4x32xf32> {
  %e = tensor.empty() : tensor<1x48x4x32xf32>
  %y = linalg.generic {indexing_maps = [#nhwc_as_nchw, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x32x48xf32>) outs(%e : tensor<1x48x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x48x4x32xf32>
  return %y : tensor<1x48x4x32xf32>
}

// 56 columns: 8-column blocks; i32 elements too.
// CHECK-LABEL: func.func @eight_wide
// CHECK: scf.for {{.*}} to %c56 step %c8
// CHECK: vector.transfer_read {{.*}} : tensor<16x8xi32>, vector<8x16xi32>
// CHECK-NOT: linalg.generic
func.func @eight_wide(%x: tensor<32x56xi32>) -> tensor<56x32xi32> {
  %e = tensor.empty() : tensor<56x32xi32>
  %y = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<32x56xi32>) outs(%e : tensor<56x32xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<56x32xi32>
  return %y : tensor<56x32xi32>
}

// Attention's head transpose (tokens x heads x 32 -> heads x tokens x 32): rows of 32.
// CHECK-LABEL: func.func @head_rows
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x1x32xf32>, vector<1x1x1x32xf32>
// CHECK-NOT: linalg.generic
func.func @head_rows(%x: tensor<2x7x12x32xf32>) -> tensor<2x12x7x32xf32> {
  %e = tensor.empty() : tensor<2x12x7x32xf32>
  %y = linalg.generic {indexing_maps = [#heads, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x7x12x32xf32>) outs(%e : tensor<2x12x7x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x12x7x32xf32>
  return %y : tensor<2x12x7x32xf32>
}

// Attention's key transpose at 300 tokens: 288 columns in blocks, the last 12 apart.
// CHECK-LABEL: func.func @key_tail
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 288, 12, 32]
// CHECK: scf.for {{.*}} to %c288 step %c16
// CHECK: vector.transfer_read {{.*}} : tensor<1x16x1x16xf32>, vector<1x1x16x16xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 288, 0, 0] [1, 12, 12, 32]
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x12x12x32xf32>) outs(%{{.*}} : tensor<1x12x32x12xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @key_tail(%k: tensor<1x300x12x32xf32>) -> tensor<1x12x32x300xf32> {
  %e = tensor.empty() : tensor<1x12x32x300xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x300x12x32xf32>) outs(%e : tensor<1x12x32x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x12x32x300xf32>
  return %y : tensor<1x12x32x300xf32>
}

// Both block loops split (35 x 20 -> 20 x 35): 16 x 32 in blocks, then 16 x 3 and
// 4 x 35 apart.
// CHECK-LABEL: func.func @both_tails
// CHECK: scf.for {{.*}} to %c32 step %c16
// CHECK: vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<3x16xf32>) outs(%{{.*}} : tensor<16x3xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<35x4xf32>) outs(%{{.*}} : tensor<4x35xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @both_tails(%x: tensor<35x20xf32>) -> tensor<20x35xf32> {
  %e = tensor.empty() : tensor<20x35xf32>
  %y = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<35x20xf32>) outs(%e : tensor<20x35xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<20x35xf32>
  return %y : tensor<20x35xf32>
}

// Refused: f16 elements, 12 columns, and operands transposed along different loops.
// CHECK-LABEL: func.func @refused
// CHECK-NOT: vector.transfer_read
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: vector.transfer_read
// CHECK: return
func.func @refused(%h: tensor<32x32xf16>, %n: tensor<16x12xf32>, %a: tensor<16x16x16xf32>, %b: tensor<16x16x16xf32>)
    -> (tensor<32x32xf16>, tensor<12x16xf32>, tensor<16x16x16xf32>) {
  %e0 = tensor.empty() : tensor<32x32xf16>
  %y0 = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<32x32xf16>) outs(%e0 : tensor<32x32xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<32x32xf16>
  %e1 = tensor.empty() : tensor<12x16xf32>
  %y1 = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<16x12xf32>) outs(%e1 : tensor<12x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<12x16xf32>
  %e2 = tensor.empty() : tensor<16x16x16xf32>
  %y2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<16x16x16xf32>, tensor<16x16x16xf32>) outs(%e2 : tensor<16x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x16x16xf32>
  return %y0, %y1, %y2 : tensor<32x32xf16>, tensor<12x16xf32>, tensor<16x16x16xf32>
}
