// LinearAttention (opset 27) unrolled over the tokens in f32: gated rules scale the
// state by exp(decay), delta rules correct v by beta (v - S^T k) (a batch_matmul), the
// state grows by k (x) v, each token reads q^T S (a batch_matmul, key / value heads
// repeated for their query heads). Gated DeltaNet with grouped heads, per-head decay,
// beta and a past state against onnx's reference implementation; the node suite's 14
// cases (every rule, fp16, multi-query) run in python/conformance.py. A rule without
// the decay it needs, and a decay of another sequence length, are refused with the
// node named.
// RUN: %python %S/Inputs/models.py linear-attention %t.onnx
// RUN: glow-import %t.onnx | FileCheck %s
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %python -c "import numpy as np; r = np.random.default_rng(4); shapes = dict(q=(2, 3, 64), k=(2, 3, 32), v=(2, 3, 32), past=(2, 4, 8, 8), decay=(2, 3, 4), beta=(2, 3, 4)); data = {n: r.standard_normal(s).astype(np.float32) for n, s in shapes.items()}; data['decay'] = -np.abs(data['decay']); data['beta'] = 1 / (1 + np.exp(-data['beta'])); k = data['k'].reshape(2, 3, 4, 8); data['k'] = (k / np.linalg.norm(k, axis=-1, keepdims=True)).reshape(2, 3, 32); [np.save(f'%t.d/{n}.npy', a) for n, a in data.items()]"
// RUN: glow-run %t.onnx --input q=%t.d/q.npy --input k=%t.d/k.npy --input v=%t.d/v.npy --input past=%t.d/past.npy --input decay=%t.d/decay.npy --input beta=%t.d/beta.npy --output-dir %t.d/out
// RUN: %python -c "import numpy as np, onnx; from onnx.reference import ReferenceEvaluator; feeds = {n: np.load(f'%t.d/{n}.npy') for n in ('q', 'k', 'v', 'past', 'decay', 'beta')}; y, state = ReferenceEvaluator(onnx.load('%t.onnx')).run(None, feeds); print(np.abs(np.load('%t.d/out/y.npy') - y).max() < 1e-5, np.abs(np.load('%t.d/out/state.npy') - state).max() < 1e-5)" | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/Inputs/models.py linear-attention-no-decay %t-no-decay.onnx
// RUN: not glow-import %t-no-decay.onnx 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: %python %S/Inputs/models.py linear-attention-short-decay %t-short.onnx
// RUN: not glow-import %t-short.onnx 2>&1 | FileCheck %s --check-prefix=SHORT

// CHECK-COUNT-3: glow.graph.exp
// CHECK-NOT: glow.graph.exp
// EXEC: True True
// RULE: glow-import: error: node 'gdn' (LinearAttention): update_rule 'gated_delta' takes a decay and a beta
// SHORT: glow-import: error: node 'gdn' (LinearAttention): decay is [2, 2, 4], not [2, 3, ...]
