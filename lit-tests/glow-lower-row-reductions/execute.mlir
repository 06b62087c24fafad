// Rows reduced through the CPU pipeline (glow-lower-row-reductions' trees) against
// numpy: a max over 128 lanes propagates a NaN from any lane, -inf rows stay -inf, sums
// agree to 1e-5 relative; softmax over rows with -inf entries (masked attention).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; x = np.random.default_rng(1).standard_normal((6, 128)).astype(np.float32); x[1, 77] = np.nan; x[2, :] = -np.inf; x[3, 5] = np.inf; x[4, 100:] = -np.inf; np.save('%t/x.npy', x)"
// RUN: glow-run %s --threads 1 --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); m = np.load('%t/out/output0.npy'); s = np.load('%t/out/output1.npy'); print(m.tolist()[1:4], np.array_equal(m, x.max(1), equal_nan=True), np.allclose(s[[0, 5]], x.sum(1)[[0, 5]], rtol=1e-5))" | FileCheck %s --check-prefix=ROWS
// ROWS: [nan, -inf, inf] True True
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy')[[0, 4, 5]]; e = np.exp(x - x.max(1, keepdims=True)); ref = e / e.sum(1, keepdims=True); y = np.load('%t/out/output2.npy')[[0, 4, 5]]; print(np.abs(y - ref).max() < 1e-6, (y[1, 100:] == 0).all())" | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: True True

func.func @main(%x: tensor<6x128xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6x128xf32>) {
  %m = glow.graph.reduce_max %x axes [1] : tensor<6x128xf32> -> tensor<6xf32>
  %s = glow.graph.reduce_sum %x axes [1] : tensor<6x128xf32> -> tensor<6xf32>
  %p = glow.graph.softmax %x axis 1 : tensor<6x128xf32>
  return %m, %s, %p : tensor<6xf32>, tensor<6xf32>, tensor<6x128xf32>
}
