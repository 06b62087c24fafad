// CausalConvWithState (opset 27, the short convolution of Mamba and Gated DeltaNet):
// past_state concatenated before the input, one multiply-add per tap on slices of it,
// the bias, SiLU; present_state the last k - 1 positions. Executed against numpy (the
// node suite's 13 cases, fp16 and k = 1 included, run in python/conformance.py); an
// activation the op does not have is refused with the node named.
// RUN: %python %S/Inputs/models.py causal-conv %t.onnx
// RUN: glow-import %t.onnx | FileCheck %s
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t.d/x.npy', r.standard_normal((2, 3, 5)).astype(np.float32)); np.save('%t.d/past.npy', r.standard_normal((2, 3, 3)).astype(np.float32))"
// RUN: glow-run %t.onnx --input x=%t.d/x.npy --input past=%t.d/past.npy --output-dir %t.d/out
// RUN: %python -c "import numpy as np, onnx; from onnx import numpy_helper as nh; m = onnx.load('%t.onnx'); w, b = (nh.to_array(t) for t in m.graph.initializer); x, past = np.load('%t.d/x.npy'), np.load('%t.d/past.npy'); p = np.concatenate([past, x], 2); o = sum(p[:, :, j:j + 5] * w[None, :, 0, j, None] for j in range(4)) + b[None, :, None]; o = o / (1 + np.exp(-o)); print(np.abs(np.load('%t.d/out/y.npy') - o).max() < 1e-5, np.array_equal(np.load('%t.d/out/state.npy'), p[:, :, 5:]))" | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/Inputs/models.py causal-conv-relu %t-relu.onnx
// RUN: not glow-import %t-relu.onnx 2>&1 | FileCheck %s --check-prefix=RELU

// CHECK: glow.graph.concat
// CHECK-COUNT-4: glow.graph.mul
// CHECK: glow.graph.sigmoid
// EXEC: True True
// RELU: glow-import: error: node 'short_conv' (CausalConvWithState): activation 'relu' is not one of silu, swish, none
