// Row reductions over several chunks through the CPU pipeline, with 16-lane
// accumulators carried through the chunk loop, against numpy: a NaN in a late chunk
// still makes the max NaN, rows of -inf stay -inf, +inf wins, a min finds the one small
// value, sums agree to 1e-5 relative, softmax over rows with -inf entries sums to 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; x = np.random.default_rng(2).standard_normal((6, 1024)).astype(np.float32); x[1, 1000] = np.nan; x[2, :] = -np.inf; x[3, 900] = np.inf; x[4, 300:] = -np.inf; x[5, 777] = -50.0; np.save('%t/x.npy', x)"
// RUN: glow-run %s --threads 1 --input input0=%t/x.npy --output-dir %t/out
// RUN: glow-opt %s --pass-pipeline='builtin.module(glow-cpu-pipeline)' --mlir-print-ir-before=glow-lower-row-reductions -o /dev/null 2>&1 | FileCheck %s --check-prefix=CARRIED
// CARRIED-COUNT-4: iter_args({{.*}}) -> (vector<1xf32>, vector<16xf32>)
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); m = np.load('%t/out/output0.npy'); s = np.load('%t/out/output1.npy'); n = np.load('%t/out/output2.npy'); print(m.tolist()[1:4], np.array_equal(m, x.max(1), equal_nan=True), n[5], np.allclose(s[[0, 5]], x.sum(1)[[0, 5]], rtol=1e-5))" | FileCheck %s --check-prefix=ROWS
// ROWS: [nan, -inf, inf] True -50.0 True
// Softmax's max is a maxnumf (NaN identity in the carried lanes): a row with one NaN
// late in it is all NaN through its sum.
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy')[[0, 4, 5]]; e = np.exp(x - x.max(1, keepdims=True)); ref = e / e.sum(1, keepdims=True); p = np.load('%t/out/output3.npy'); y = p[[0, 4, 5]]; print(np.abs(y - ref).max() < 1e-6, (y[1, 300:] == 0).all(), np.isnan(p[1]).all())" | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: True True True

func.func @main(%x: tensor<6x1024xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6x1024xf32>) {
  %m = glow.graph.reduce_max %x axes [1] : tensor<6x1024xf32> -> tensor<6xf32>
  %s = glow.graph.reduce_sum %x axes [1] : tensor<6x1024xf32> -> tensor<6xf32>
  %n = glow.graph.reduce_min %x axes [1] : tensor<6x1024xf32> -> tensor<6xf32>
  %p = glow.graph.softmax %x axis 1 : tensor<6x1024xf32>
  return %m, %s, %n, %p : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6x1024xf32>
}
