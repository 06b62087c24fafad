// glow-cpu-vectorize-elementwise: the generics LLVM's loop vectorizer leaves scalar —
// those reading a value invariant along the innermost loop (softmax's x - max) and
// those reducing along it (the max itself) — and elementwise ones calling erf / exp /
// tanh / log (a GELU: its polynomial then runs on vectors) become row loops of vector
// code, and so do selects on booleans (a masked fill); other plain elementwise
// generics, gathers, rows of an odd length and generics
// on dynamic shapes are left as they are.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK: #map = affine_map<(d0) -> (d0, 0)>
// CHECK-LABEL: func.func @softmax_steps
// The row maximum: one row of 128 at a time, reduced as a vector.
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<1x128xf32>, vector<1x128xf32>
// CHECK: vector.multi_reduction <maximumf>, {{.*}} [1] : vector<1x128xf32> to vector<1xf32>
// x - max, exp: the row's maximum is broadcast along the row.
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} {permutation_map = #map} : tensor<1xf32>, vector<1x128xf32>
// CHECK: math.exp {{.*}} : vector<1x128xf32>
// CHECK-NOT: linalg.generic
func.func @softmax_steps(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %init = tensor.empty() : tensor<4xf32>
  %filled = linalg.fill ins(%lowest : f32) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%filled : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %empty = tensor.empty() : tensor<4x128xf32>
  %e = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x128xf32>, tensor<4xf32>) outs(%empty : tensor<4x128xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x128xf32>
  return %e : tensor<4x128xf32>
}

// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: vector.
func.func @left_alone(%x: tensor<4x128xf32>, %odd: tensor<4x12xf32>, %ids: tensor<4xindex>) -> (tensor<4x128xf32>, tensor<4xf32>, tensor<4xf32>) {
  %empty = tensor.empty() : tensor<4x128xf32>
  // Every input read along the innermost loop: LLVM vectorizes it.
  %relu = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x128xf32>) outs(%empty : tensor<4x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x128xf32>
  // A row of 12: not a multiple of 8.
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%odd : tensor<4x12xf32>) outs(%filled : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  // A gather.
  %gathered = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<4xindex>) outs(%init : tensor<4xf32>) {
  ^bb0(%i: index, %out: f32):
    %c0 = arith.constant 0 : index
    %v = tensor.extract %x[%c0, %i] : tensor<4x128xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %relu, %sum, %gathered : tensor<4x128xf32>, tensor<4xf32>, tensor<4xf32>
}

// An erf GELU with its bias: rows of 128 of a 3 x 1536 block.
// CHECK-LABEL: func.func @gelu_rows
// CHECK: scf.for
// CHECK: scf.for {{.*}} step %c128
// CHECK: math.erf {{.*}} : vector<1x128xf32>
// CHECK-NOT: linalg.generic
func.func @gelu_rows(%x: tensor<3x1536xf32>, %bias: tensor<1536xf32>) -> tensor<3x1536xf32> {
  %empty = tensor.empty() : tensor<3x1536xf32>
  %g = linalg.generic {indexing_maps = [#rows, affine_map<(d0, d1) -> (d1)>, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<3x1536xf32>, tensor<1536xf32>) outs(%empty : tensor<3x1536xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %root2 = arith.constant 1.41421354 : f32
    %y = arith.addf %in, %b : f32
    %s = arith.divf %y, %root2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %e, %one : f32
    %m = arith.mulf %y, %p : f32
    %r = arith.mulf %m, %half : f32
    linalg.yield %r : f32
  } -> tensor<3x1536xf32>
  return %g : tensor<3x1536xf32>
}

// A masked fill (attention scores where the mask is set become -inf): a select on
// booleans, which LLVM's loop vectorizer leaves scalar, becomes rows of vector code
// reading each row of the mask once.
// CHECK-LABEL: func.func @masked_fill
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<1x64xi1>, vector<1x1x1x64xi1>
// CHECK: scf.for
// CHECK: arith.select {{.*}} : vector<1x1x1x64xi1>, vector<1x1x1x64xf32>
// CHECK-NOT: linalg.generic
func.func @masked_fill(%scores: tensor<4x4x64x64xf32>, %mask: tensor<4x64xi1>) -> tensor<4x4x64x64xf32> {
  %empty = tensor.empty() : tensor<4x4x64x64xf32>
  %filled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%mask, %scores : tensor<4x64xi1>, tensor<4x4x64x64xf32>) outs(%empty : tensor<4x4x64x64xf32>) {
  ^bb0(%m: i1, %s: f32, %out: f32):
    %minus_inf = arith.constant 0xFF800000 : f32
    %r = arith.select %m, %minus_inf, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x4x64x64xf32>
  return %filled : tensor<4x4x64x64xf32>
}
