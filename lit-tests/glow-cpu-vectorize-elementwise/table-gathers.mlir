// glow-cpu-vectorize-elementwise: a generic whose reads are gathers at indices taken
// from constant tables (compile-time tables: resize's taps, as operands or read at
// loop indices) or from loop indices becomes rows of vector code, its reads
// vector.gather, or whole-row reads where the index is invariant along the row. An
// embedding lookup (glow-graph-to-linalg's gather: the index read in the body at the
// outer loop indices, clamped, then a table row read along the innermost loop) becomes
// rows of contiguous vector reads too; a gather at an index computed from an input's
// element (a block argument, different in every lane) stays scalar.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s
// Embedding rows of 100 (masked vectors of 112 lanes) and of 96, ids up to the table's
// last row, through glow-run against onnxruntime: no read past the table.
// RUN: %python %S/Inputs/embedding.py %t.100.onnx 100
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.100.onnx --input-shape ids=3x7 --int-low 0 --int-high 50 --threads 1 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/Inputs/embedding.py %t.96.onnx 96
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.96.onnx --input-shape ids=3x7 --int-low 0 --int-high 50 --threads 1 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// ORT: PASS

#row = affine_map<(d0, d1, d2) -> (d2)>
#all = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A linear resize along the innermost dimension, 8 -> 32: two taps, two weights.
// CHECK-LABEL: func.func @resize_rows
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.gather %{{.*}} : tensor<2x3x8xf32>, vector<1x1x32xindex>, vector<1x1x32xi1>, vector<1x1x32xf32> into vector<1x1x32xf32>
// CHECK: vector.gather %{{.*}} : tensor<2x3x8xf32>, vector<1x1x32xindex>, vector<1x1x32xi1>, vector<1x1x32xf32> into vector<1x1x32xf32>
// CHECK: arith.mulf {{.*}} : vector<1x1x32xf64>
// CHECK-NOT: linalg.generic
func.func @resize_rows(%x: tensor<2x3x8xf32>) -> tensor<2x3x32xf32> {
  %low = arith.constant dense<[0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7]> : tensor<32xi32>
  %high = arith.constant dense<[0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7]> : tensor<32xi32>
  %w_low = arith.constant dense<0.5> : tensor<32xf64>
  %w_high = arith.constant dense<0.5> : tensor<32xf64>
  %empty = tensor.empty() : tensor<2x3x32xf32>
  %y = linalg.generic {indexing_maps = [#row, #row, #row, #row, #all], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%low, %high, %w_low, %w_high : tensor<32xi32>, tensor<32xi32>, tensor<32xf64>, tensor<32xf64>) outs(%empty : tensor<2x3x32xf32>) {
  ^bb0(%l: i32, %h: i32, %wl: f64, %wh: f64, %out: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %li = arith.index_cast %l : i32 to index
    %hi = arith.index_cast %h : i32 to index
    %a = tensor.extract %x[%n, %c, %li] : tensor<2x3x8xf32>
    %b = tensor.extract %x[%n, %c, %hi] : tensor<2x3x8xf32>
    %aw = arith.extf %a : f32 to f64
    %bw = arith.extf %b : f32 to f64
    %ta = arith.mulf %aw, %wl : f64
    %tb = arith.mulf %bw, %wh : f64
    %s = arith.addf %ta, %tb : f64
    %r = arith.truncf %s : f64 to f32
    linalg.yield %r : f32
  } -> tensor<2x3x32xf32>
  return %y : tensor<2x3x32xf32>
}

// A resize along an outer dimension: the row index is an element of a constant table
// read at an outer loop index, invariant along the row, so each row is one
// contiguous read (no gather).
// CHECK-LABEL: func.func @resize_outer
// CHECK: scf.for
// CHECK-NOT: vector.gather
// CHECK: vector.transfer_read %arg0[{{.*}}], %{{.*}} {in_bounds = [true, true, true]} : tensor<2x8x32xf64>, vector<1x1x32xf64>
// CHECK-NOT: vector.gather
// CHECK-NOT: linalg.generic
#height = affine_map<(d0, d1, d2) -> (d1)>
func.func @resize_outer(%x: tensor<2x8x32xf64>) -> tensor<2x32x32xf32> {
  %low = arith.constant dense<[0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7]> : tensor<32xi32>
  %w = arith.constant dense<0.5> : tensor<32xf64>
  %empty = tensor.empty() : tensor<2x32x32xf32>
  %y = linalg.generic {indexing_maps = [#height, #all], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<32xf64>) outs(%empty : tensor<2x32x32xf32>) {
  ^bb0(%weight: f64, %out: f32):
    %n = linalg.index 0 : index
    %h = linalg.index 1 : index
    %c = linalg.index 2 : index
    %row = tensor.extract %low[%h] : tensor<32xi32>
    %r = arith.index_cast %row : i32 to index
    %a = tensor.extract %x[%n, %r, %c] : tensor<2x8x32xf64>
    %t = arith.mulf %a, %weight : f64
    %narrow = arith.truncf %t : f64 to f32
    linalg.yield %narrow : f32
  } -> tensor<2x32x32xf32>
  return %y : tensor<2x32x32xf32>
}

// The index is computed in the body (clamped): left to the scalar loops.
// CHECK-LABEL: func.func @computed_index
// CHECK-NOT: vector.gather
// CHECK: linalg.generic
// CHECK: tensor.extract
func.func @computed_index(%table: tensor<100xf32>, %ids: tensor<2x3x32xi32>) -> tensor<2x3x32xf32> {
  %empty = tensor.empty() : tensor<2x3x32xf32>
  %y = linalg.generic {indexing_maps = [#all, #all], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2x3x32xi32>) outs(%empty : tensor<2x3x32xf32>) {
  ^bb0(%id: i32, %out: f32):
    %zero = arith.constant 0 : i32
    %last = arith.constant 99 : i32
    %low = arith.maxsi %id, %zero : i32
    %clamped = arith.minsi %low, %last : i32
    %i = arith.index_cast %clamped : i32 to index
    %v = tensor.extract %table[%i] : tensor<100xf32>
    linalg.yield %v : f32
  } -> tensor<2x3x32xf32>
  return %y : tensor<2x3x32xf32>
}

// An embedding lookup as glow-graph-to-linalg writes it: the index is read at the
// outer loop indices and clamped, once per row; each row of 96 is one contiguous,
// in-bounds read of the table (no gather), and nothing is left scalar.
// CHECK-LABEL: func.func @embedding_rows
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: vector.gather
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true, true, true]{{.*}}} : tensor<200x96xf32>, vector<1x1x96xf32>
// CHECK-NOT: linalg.generic
func.func @embedding_rows(%table: tensor<200x96xf32>, %ids: tensor<4x64xi64>) -> tensor<4x64x96xf32> {
  %empty = tensor.empty() : tensor<4x64x96xf32>
  %y = linalg.generic {indexing_maps = [#all], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%empty : tensor<4x64x96xf32>) {
  ^bb0(%out: f32):
    %zero = arith.constant 0 : index
    %last = arith.constant 199 : index
    %b = linalg.index 0 : index
    %t = linalg.index 1 : index
    %id = tensor.extract %ids[%b, %t] : tensor<4x64xi64>
    %i = arith.index_cast %id : i64 to index
    %low = arith.maxsi %i, %zero : index
    %clamped = arith.minsi %low, %last : index
    %c = linalg.index 2 : index
    %v = tensor.extract %table[%clamped, %c] : tensor<200x96xf32>
    linalg.yield %v : f32
  } -> tensor<4x64x96xf32>
  return %y : tensor<4x64x96xf32>
}
