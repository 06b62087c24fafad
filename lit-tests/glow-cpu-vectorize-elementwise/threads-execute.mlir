// Generics shared between two threads compute what one thread computes: a masked
// softmax over 4x128x128 (mask add, row max, exp, row sum, divide) through glow-run
// with --threads 2 against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t/x.npy', r.standard_normal((4, 128, 128)).astype(np.float32)); m = np.zeros((128,), np.float32); m[100:] = -np.inf; np.save('%t/m.npy', m)"
// RUN: glow-run %s --threads 2 --input input0=%t/x.npy --input input1=%t/m.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy') + np.load('%t/m.npy'); e = np.exp(x - x.max(-1, keepdims=True)); ref = e / e.sum(-1, keepdims=True); y = np.load('%t/out/output0.npy'); print(np.abs(y - ref).max() < 1e-6, (y[..., 100:] == 0).all())" | FileCheck %s
// CHECK: True True

func.func @main(%x: tensor<4x128x128xf32>, %m: tensor<128xf32>) -> tensor<4x128x128xf32> {
  %b = glow.graph.broadcast %m axis 2 : tensor<128xf32> -> tensor<4x128x128xf32>
  %s = glow.graph.add %x, %b : tensor<4x128x128xf32>
  %p = glow.graph.softmax %s axis 2 : tensor<4x128x128xf32>
  return %p : tensor<4x128x128xf32>
}
