// Trigonometric and hyperbolic ops become elementwise linalg.generics around the math
// dialect op of the same name; glow-run computes them as libm does.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @trigonometry
// CHECK: linalg.generic
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.cos
// CHECK: math.tan
// CHECK: math.asin
// CHECK: math.acos
// CHECK: math.atan
// CHECK: math.sinh
// CHECK: math.cosh
// CHECK: math.asinh
// CHECK: math.acosh
// CHECK: math.atanh
// CHECK-NOT: glow.graph
func.func @trigonometry(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
    tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
    tensor<5xf32>, tensor<5xf32>) {
  %0 = glow.graph.sin %x : tensor<5xf32>
  %1 = glow.graph.cos %x : tensor<5xf32>
  %2 = glow.graph.tan %x : tensor<5xf32>
  %3 = glow.graph.asin %x : tensor<5xf32>
  %4 = glow.graph.acos %x : tensor<5xf32>
  %5 = glow.graph.atan %x : tensor<5xf32>
  %6 = glow.graph.sinh %x : tensor<5xf32>
  %7 = glow.graph.cosh %x : tensor<5xf32>
  %8 = glow.graph.asinh %x : tensor<5xf32>
  %9 = glow.graph.acosh %x : tensor<5xf32>
  %10 = glow.graph.atanh %x : tensor<5xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<5xf32>, tensor<5xf32>,
      tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
      tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}

// Constant operands fold in double precision before any lowering.
// RUN: glow-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @folded
// FOLD: glow.graph.constant dense<[0.000000e+00, 0.841470957]> : tensor<2xf32>
// FOLD-NOT: glow.graph.sin
func.func @folded() -> tensor<2xf32> {
  %c = glow.graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = glow.graph.sin %c : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Executed against numpy in double precision (acosh is NaN below 1, as in numpy).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-0.9, -0.3, 0.0, 0.5, 0.95], np.float32))"
// RUN: glow-run %s --function trigonometry --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy').astype(np.float64); fs = [np.sin, np.cos, np.tan, np.arcsin, np.arccos, np.arctan, np.sinh, np.cosh, np.arcsinh, np.arccosh, np.arctanh]; errs = [np.nanmax(np.abs(np.load('%t/out/output%%d.npy' %% i) - f(x))) if not np.all(np.isnan(f(x))) else 0.0 for i, f in enumerate(fs)]; nans = [np.array_equal(np.isnan(np.load('%t/out/output%%d.npy' %% i)), np.isnan(f(x))) for i, f in enumerate(fs)]; print('max error', max(errs) < 1e-6, 'nan positions', all(nans))" | FileCheck %s --check-prefix=EXEC
// EXEC: max error True nan positions True
