// The CPU pipeline runs glow-math-approximation: erf, exp and tanh through glow-run
// agree with double-precision references to 2e-6 relative (exp(-200) underflows to 0).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-200, -3, -0.5, 0, 1, 20], np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import math, numpy as np; x = np.load('%t/x.npy').astype(np.float64); refs = [np.vectorize(math.erf)(x), np.exp(x), np.tanh(x)]; print(all(np.max(np.abs(np.load('%t/out/output%%d.npy' %% k) - r) / np.maximum(np.abs(r), 1e-30)) < 2e-6 for k, r in enumerate(refs)))" | FileCheck %s --check-prefix=WITHIN
// WITHIN: True
// Signed zeros: erf(-0) and tanh(-0) are -0, as libm's are.
// RUN: %python -c "import numpy as np; np.save('%t/z.npy', np.array([-0.0, 0.0, -0.0, 0.0, -1e-30, 1e-30], np.float32))"
// RUN: glow-run %s --input input0=%t/z.npy --output-dir %t/zero
// RUN: %python -c "import numpy as np; print([np.signbit(np.load('%t/zero/output%%d.npy' %% k)).tolist() for k in (0, 2)])" | FileCheck %s --check-prefix=SIGNS
// SIGNS: {{\[\[}}True, False, True, False, True, False], [True, False, True, False, True, False]]

func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %e = glow.graph.erf %x : tensor<6xf32>
  %p = glow.graph.exp %x : tensor<6xf32>
  %t = glow.graph.tanh %x : tensor<6xf32>
  return %e, %p, %t : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}
