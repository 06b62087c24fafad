// glow-math-approximation's exp through the CPU pipeline, vector lanes and the
// scalar tail: over a sweep of 200,003 values from -87.68 to 88.72 (16-lane vectors
// plus a 3-element tail), within 2 ulp of double-precision exp for results above
// 2^-125.5 (x > -86.9887) and exactly 0 below; exact on the special values:
// exp(-inf) = 0, exp(0) = 1, exp(+inf) = +inf, exp(NaN) = NaN, overflow past
// ln(FLT_MAX) ~ 88.7228 to +inf.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.linspace(-87.68, 88.72, 200003).astype(np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); y = np.load('%t/out/output0.npy').astype(np.float64); r = np.exp(x.astype(np.float64)); kept = r > 2.0 ** -125.5; print(float(np.max(np.abs(y - r)[kept] / np.spacing(r[kept].astype(np.float32)))) <= 2.0, bool((y[~kept] == 0).all()), int((~kept).sum()) > 0)" | FileCheck %s --check-prefix=ULPS
// ULPS: True True True
// RUN: %python -c "import numpy as np; np.save('%t/s.npy', np.array([-np.inf, 0.0, -0.0, np.inf, np.nan, 88.72, 88.73, 89.0, 1e30, -87.5, -100.0, -1e30, 1.0, -1.0, 1e-30, 20.0, 0, 0, 0], np.float32))"
// RUN: glow-run %s --function special --input input0=%t/s.npy --output-dir %t/special
// RUN: %python -c "import numpy as np; print(np.load('%t/special/output0.npy')[:15].tolist())" | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: [0.0, 1.0, 1.0, inf, nan, 3.393{{[0-9]*}}e+38, inf, inf, inf, 0.0, 0.0, 0.0, 2.7182817459106445, 0.3678794503211975, 1.0]

func.func @main(%x: tensor<200003xf32>) -> tensor<200003xf32> {
  %e = glow.graph.exp %x : tensor<200003xf32>
  return %e : tensor<200003xf32>
}

func.func @special(%x: tensor<19xf32>) -> tensor<19xf32> {
  %e = glow.graph.exp %x : tensor<19xf32>
  return %e : tensor<19xf32>
}
