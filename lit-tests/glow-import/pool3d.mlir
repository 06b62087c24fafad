// 3-D MaxPool / AveragePool import as two 2-D pools (the window is a box), and an
// average that counts explicit pads under ceil_mode pads explicitly first. Values
// checked against onnx's reference evaluator.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/models.py pool3d %t/pool.onnx
// RUN: glow-import %t/pool.onnx | FileCheck %s
// CHECK-COUNT-2: glow.graph.max_pool
// CHECK: glow.graph.pad
// CHECK-COUNT-2: glow.graph.avg_pool
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.random.default_rng(0).standard_normal((1, 2, 5, 7, 7)).astype(np.float32))"
// RUN: glow-run %t/pool.onnx --input x=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np, onnx; from onnx.reference import ReferenceEvaluator as R; x = np.load('%t/x.npy'); ref = R(onnx.load('%t/pool.onnx')).run(None, {'x': x}); [print(n, r.shape == np.load('%t/out/%%s.npy' %% n).shape, float(np.abs(r - np.load('%t/out/%%s.npy' %% n)).max()) < 1e-5) for n, r in zip(('max', 'avg'), ref)]" | FileCheck %s --check-prefix=VALUES
// VALUES: max True True
// VALUES-NEXT: avg True True
