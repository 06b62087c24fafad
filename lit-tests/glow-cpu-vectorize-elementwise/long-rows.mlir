// A reduction along the innermost axis alone, longer than one vectorized row (256), is
// cut into 128-element pieces folded into the row's accumulator one after the other (a
// layer norm's mean over 384 features); a reduction over an outer axis as well is left
// as it is. A long row that 128 does not divide runs in pieces of 64 folding into 64
// partial results (448 = 7 x 64), and one that 8 does not divide ends in a masked
// vector (1500 = 23 x 64 + 28 in 32 lanes), its reductions and the ops reading their
// results alike (softmax op by op, below the row chains' 1 MB, 16 MB on two threads).
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

// CHECK-LABEL: func.func @max_of_448
// CHECK: scf.for {{.*}} to %c448 step %c64{{.*}} -> ({{.*}}vector<1x64xf32>)
// CHECK: arith.maxnumf {{.*}} : vector<1x64xf32>
// CHECK: vector.multi_reduction <maxnumf>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK-NOT: linalg.generic
func.func @max_of_448(%x: tensor<16x448xf32>) -> tensor<16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x448xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  return %max : tensor<16xf32>
}

// CHECK-LABEL: func.func @softmax_steps_of_1500
// The maximum: 23 pieces of 64, then the last 28 in 32 masked lanes.
// CHECK: scf.for {{.*}} to %c1472 step %c64{{.*}} -> ({{.*}}vector<1x64xf32>)
// CHECK: vector.multi_reduction <maxnumf>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x28xf32>, vector<1x32xf32>
// CHECK: vector.multi_reduction <maxnumf>, {{.*}} : vector<1x32xf32> to vector<1xf32>
// The exponentials read the maximum: the same pieces and tail.
// CHECK: scf.for {{.*}} to %c1472 step %c64
// CHECK: math.exp {{.*}} : vector<1x64xf32>
// CHECK: math.exp {{.*}} : vector<1x32xf32>
// CHECK-NOT: linalg.generic
func.func @softmax_steps_of_1500(%x: tensor<8x1500xf32>) -> tensor<8x1500xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x1500xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8x1500xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x1500xf32>, tensor<8xf32>) outs(%e1 : tensor<8x1500xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<8x1500xf32>
  return %exp : tensor<8x1500xf32>
}

// Left alone (before, these failed the pass): a long row that reads tables (a nearest
// resize to 302 columns: the pieces are vectorized without gathers), and a reduction
// reading its accumulator through two ops (`out + in + in`, which neither the
// vectorizer nor tile_reduction_using_for can analyse).
// CHECK-LABEL: func.func @resize_rows
// CHECK: linalg.generic
// CHECK-LABEL: func.func @two_step_reduction
// CHECK: linalg.generic
func.func @resize_rows(%src: tensor<2x5x302xf32>) -> tensor<2x9x302xf32> {
  %taps = arith.constant dense<[0, 0, 1, 1, 2, 3, 3, 4, 4]> : tensor<9xi32>
  %e = tensor.empty() : tensor<2x9x302xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x9x302xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 1 : index
    %t = tensor.extract %taps[%h] : tensor<9xi32>
    %r = arith.index_cast %t : i32 to index
    %c = linalg.index 0 : index
    %w = linalg.index 2 : index
    %v = tensor.extract %src[%c, %r, %w] : tensor<2x5x302xf32>
    linalg.yield %v : f32
  } -> tensor<2x9x302xf32>
  return %y : tensor<2x9x302xf32>
}

func.func @two_step_reduction(%x: tensor<4x264xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x264xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    %b = arith.addf %a, %in : f32
    linalg.yield %b : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
