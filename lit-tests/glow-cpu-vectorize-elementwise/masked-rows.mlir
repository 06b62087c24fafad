// Rows whose length 8 does not divide (softmax over 197 tokens) are vectorized as one
// masked vector of the length rounded up to 16 lanes: transfers take the mask as an
// operand, and a reduction selects the reduction's neutral element into the masked-off
// lanes (no vector.mask region is left for bufferization). Rows under 16 and payloads
// with integer division (which could trap on padding lanes) are left scalar.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s

#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @row_max
// CHECK-DAG: %[[NEUTRAL:.*]] = arith.constant dense<0xFF800000> : vector<1x208xf32>
// CHECK-DAG: %[[MASK:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<1x208xi1>
// CHECK: %[[ROW:.*]] = vector.transfer_read %{{.*}}, %{{.*}}, %[[MASK]] {{.*}} : tensor<1x197xf32>, vector<1x208xf32>
// CHECK: %[[KEPT:.*]] = arith.select %[[MASK]], %[[ROW]], %[[NEUTRAL]] : vector<1x208xi1>, vector<1x208xf32>
// CHECK: vector.multi_reduction <maximumf>, %[[KEPT]], %{{.*}} [1] : vector<1x208xf32> to vector<1xf32>
// CHECK-NOT: vector.mask
func.func @row_max(%x: tensor<4x197xf32>) -> tensor<4xf32> {
  %low = arith.constant 0xFF800000 : f32
  %init = tensor.empty() : tensor<4xf32>
  %filled = linalg.fill ins(%low : f32) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x197xf32>) outs(%filled : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %max : tensor<4xf32>
}

// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: vector.
func.func @left_alone(%short: tensor<4x12xf32>, %ints: tensor<4x197xi32>, %d: tensor<4xi32>) -> (tensor<4xf32>, tensor<4x197xi32>) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%short : tensor<4x12xf32>) outs(%filled : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %empty = tensor.empty() : tensor<4x197xi32>
  %quotient = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%ints, %d : tensor<4x197xi32>, tensor<4xi32>) outs(%empty : tensor<4x197xi32>) {
  ^bb0(%a: i32, %b: i32, %out: i32):
    %q = arith.divsi %a, %b : i32
    linalg.yield %q : i32
  } -> tensor<4x197xi32>
  return %sum, %quotient : tensor<4xf32>, tensor<4x197xi32>
}

// Softmax over 197 through glow-run: equal to numpy, -inf / NaN / +inf rows included.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; x = np.random.default_rng(1).standard_normal((12, 197, 197)).astype(np.float32) * 5; x[0, 0, :] = -np.inf; x[0, 1, 3] = np.nan; x[0, 2, 196] = np.inf; x[0, 3, :] = -1e30; np.save('%t/x.npy', x)"
// RUN: glow-run %S/Inputs/softmax197.mlir --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np, warnings; warnings.simplefilter('ignore'); x = np.load('%t/x.npy').astype(np.float64); e = np.exp(x - x.max(-1, keepdims=True)); r = e / e.sum(-1, keepdims=True); g = np.load('%t/out/output0.npy'); ok = np.isfinite(r); print('close', np.abs(g[ok] - r[ok]).max() < 1e-6, 'nan rows equal', np.array_equal(np.isnan(g), np.isnan(r)))" | FileCheck %s --check-prefix=EXEC
// EXEC: close True nan rows equal True
