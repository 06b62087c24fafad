// x^2 and x^3 (a pow by a splat 2 or 3, computed as products) agree with libm's powf
// on the special values: signed zeros, infinities, NaN, overflow to infinity,
// underflow to zero, negatives; other exponents keep powf.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-2.5, -0.0, 0.0, np.inf, -np.inf, np.nan, 3.0, 1e13, -1e-30, 7.1e-15, -1.7e12, 0.1], np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --output-dir %t/out
// RUN: %python %S/Inputs/small_powers.py %t/x.npy %t/out | FileCheck %s
// CHECK: 0 True True
// CHECK: 1 True True
// CHECK: 2 True True

func.func @main(%x: tensor<12xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) {
  %three = glow.graph.splat 3.0 : tensor<12xf32>
  %0 = glow.graph.pow %x, %three : tensor<12xf32>
  %two = glow.graph.splat 2.0 : tensor<12xf32>
  %1 = glow.graph.pow %x, %two : tensor<12xf32>
  %half = glow.graph.splat 0.5 : tensor<12xf32>
  %2 = glow.graph.pow %x, %half : tensor<12xf32>
  return %0, %1, %2 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
}
