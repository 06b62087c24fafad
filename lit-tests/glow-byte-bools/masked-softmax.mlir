// A boolean attention mask read by vectorized code (DeBERTa's masked softmax:
// select(mask, min, scores) -> softmax -> select(mask, 0, p)) gives numpy's result;
// before glow-byte-bools the second select read the mask's bytes as bits (true only at
// lanes 0 and 8 of each 16).
// RUN: glow-opt %s --glow-cpu-pipeline | FileCheck %s --check-prefix=IR
// IR: llvm.load %{{.*}} : !llvm.ptr -> vector<16xi8>
// IR-NOT: -> vector<16xi1>
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; rng = np.random.default_rng(0); np.save('%t/s.npy', rng.standard_normal((2, 4, 16, 16)).astype(np.float32)); keep = np.ones((2, 16), bool); keep[1, -5:] = False; np.save('%t/m.npy', ~(keep[:, None, :, None] & keep[:, None, None, :]))"
// RUN: glow-run %s --input input0=%t/s.npy --input input1=%t/m.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; s = np.load('%t/s.npy').astype(np.float64); m = np.broadcast_to(np.load('%t/m.npy'), s.shape); w = np.where(m, -1e9, s); e = np.exp(w - w.max(-1, keepdims=True)); q = np.where(m, 0, e / e.sum(-1, keepdims=True)); print('max error below 1e-6:', np.abs(np.load('%t/out/output0.npy') - q).max() < 1e-6)" | FileCheck %s
// CHECK: max error below 1e-6: True
func.func @main(%scores: tensor<2x4x16x16xf32>, %mask: tensor<2x1x16x16xi1>) -> tensor<2x4x16x16xf32> {
  %zero = glow.graph.splat 0.000000e+00 : tensor<2x4x16x16xf32>
  %low = glow.graph.splat -1.000000e+09 : tensor<2x4x16x16xf32>
  %m = glow.graph.broadcast %mask axis 0 : tensor<2x1x16x16xi1> -> tensor<2x4x16x16xi1>
  %masked = glow.graph.select %m, %low, %scores : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
  %p = glow.graph.softmax %masked axis 3 : tensor<2x4x16x16xf32>
  %q = glow.graph.select %m, %zero, %p : tensor<2x4x16x16xi1>, tensor<2x4x16x16xf32>
  return %q : tensor<2x4x16x16xf32>
}
