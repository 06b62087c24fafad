// glow-stack marks each convolution or matmul whose only user is an elementwise
// linalg.generic over its whole result (glow.stack); glow-cpu-tile-and-vectorize then
// tiles that epilogue by the register tile and fuses the kernel and its init into it,
// so the accumulators flow from the reduction loop through the epilogue in registers
// and each activation is written once. Refused: a result with another user (it would
// be recomputed or kept twice), an epilogue that reads the result other than element
// for element (a transpose: the tiles would not match), one that reads its own output,
// and one that reads booleans (bytes in memory, bits in vectors).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-stack))' | FileCheck %s --check-prefix=MARK
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-stack,glow-cpu-tile-and-vectorize),canonicalize,cse)' | FileCheck %s

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>

// Convolution + bias + ReLU: one loop over 8 x 32 register tiles; the bias vector
// starts the accumulators, the ReLU is applied to them, one write per tile.
// MARK-LABEL: func.func @conv_relu
// MARK: linalg.conv_2d_nhwc_hwcf {{.*}}glow.stack
// CHECK-LABEL: func.func @conv_relu
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (16, 2, 2)
// CHECK: %[[BIAS:.*]] = vector.broadcast %{{.*}} : vector<32xf32> to vector<1x8x32xf32>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[BIAS]]) -> (vector<1x8x32xf32>)
// CHECK: vector.contract
// CHECK: %[[CAST:.*]] = vector.broadcast %[[ACC]] : vector<1x8x32xf32> to vector<1x1x8x32xf32>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[CAST]], %{{.*}} : vector<1x1x8x32xf32>
// CHECK: vector.transfer_write %[[RELU]]
// CHECK-NOT: vector.transfer_write
// CHECK: tensor.parallel_insert_slice
// CHECK-NOT: linalg.generic
func.func @conv_relu(%x: tensor<1x16x16x32xf32>, %w: tensor<1x1x32x64xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %init = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e : tensor<1x16x16x64xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x16x32xf32>, tensor<1x1x32x64xf32>) outs(%init : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x16x16x64xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x16x16x64xf32>) outs(%e2 : tensor<1x16x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x16x64xf32>
  return %r : tensor<1x16x16x64xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>

// Matmul + residual add + SiLU (one generic after elementwise fusion): the residual is
// read per tile, the sigmoid computed on the accumulators.
// MARK-LABEL: func.func @matmul_residual_silu
// MARK: linalg.matmul {{.*}}glow.stack
// CHECK-LABEL: func.func @matmul_residual_silu
// CHECK: scf.forall
// CHECK: scf.for {{.*}} -> (vector<6x64xf32>)
// CHECK: vector.transfer_read %arg2{{.*}} : tensor<12x128xf32>, vector<6x64xf32>
// CHECK: math.exp {{.*}} : vector<6x64xf32>
// CHECK: vector.transfer_write
// CHECK: tensor.parallel_insert_slice
// CHECK-NOT: linalg.generic
func.func @matmul_residual_silu(%a: tensor<12x256xf32>, %w: tensor<256x128xf32>, %skip: tensor<12x128xf32>) -> tensor<12x128xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<12x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128xf32>) -> tensor<12x128xf32>
  %m = linalg.matmul ins(%a, %w : tensor<12x256xf32>, tensor<256x128xf32>) outs(%init : tensor<12x128xf32>) -> tensor<12x128xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m, %skip : tensor<12x128xf32>, tensor<12x128xf32>) outs(%e : tensor<12x128xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %sum = arith.addf %in, %s : f32
    %neg = arith.negf %sum : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %sig = arith.divf %sum, %den : f32
    linalg.yield %sig : f32
  } -> tensor<12x128xf32>
  return %r : tensor<12x128xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>

// Refused: the convolution's result is also returned (another user).
// MARK-LABEL: func.func @other_user
// MARK-NOT: glow.stack
// CHECK-LABEL: func.func @other_user
// CHECK: scf.forall
// CHECK: linalg.generic
func.func @other_user(%x: tensor<1x16x16x32xf32>, %w: tensor<1x1x32x64xf32>) -> (tensor<1x16x16x64xf32>, tensor<1x16x16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x16x32xf32>, tensor<1x1x32x64xf32>) outs(%init : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x16x16x64xf32>) outs(%e : tensor<1x16x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x16x64xf32>
  return %c, %r : tensor<1x16x16x64xf32>, tensor<1x16x16x64xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id2 = affine_map<(a, b) -> (a, b)>

// Refused: the epilogue reads the result transposed (a broadcast or permutation of
// it: its tiles are not the kernel's), reads its own output (an accumulation into
// another value), or reads booleans.
// MARK-LABEL: func.func @refused
// MARK-NOT: glow.stack
// MARK: return
func.func @refused(%a: tensor<64x64xf32>, %w: tensor<64x64xf32>, %acc: tensor<64x64xf32>, %mask: tensor<64x64xi1>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m0 = linalg.matmul ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m0 : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x64xf32>
  %init1 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sum = arith.addf %in, %out : f32
    linalg.yield %sum : f32
  } -> tensor<64x64xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %sel = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mask, %m2 : tensor<64x64xi1>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%k: i1, %in: f32, %out: f32):
    %v = arith.select %k, %in, %zero : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %t, %s, %sel : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// Refused: an epilogue writing booleans (a threshold mask of a convolution).
// MARK-LABEL: func.func @boolean_result
// MARK-NOT: glow.stack
// MARK: return
func.func @boolean_result(%x: tensor<1x16x16x32xf32>, %w: tensor<1x1x32x64xf32>) -> tensor<1x16x16x64xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x16x32xf32>, tensor<1x1x32x64xf32>) outs(%init : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %eb = tensor.empty() : tensor<1x16x16x64xi1>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x16x16x64xf32>) outs(%eb : tensor<1x16x16x64xi1>) {
  ^bb0(%in: f32, %out: i1):
    %gt = arith.cmpf ogt, %in, %zero : f32
    linalg.yield %gt : i1
  } -> tensor<1x16x16x64xi1>
  return %r : tensor<1x16x16x64xi1>
}
