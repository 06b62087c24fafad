// Grouped convolutions through glow-run match onnxruntime: merged small groups (with
// bias and a ReLU after), large groups with stride 2, dilation 2 and asymmetric
// padding, and a runtime filter (left to the NCHW rule); one and two threads agree.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/grouped.py %t/grouped.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/grouped.onnx --input-shape x=2x32x12x12 --input-shape wr=16x4x3x3 --bin %glow_bin | FileCheck %s
// CHECK: PASS
// RUN: glow-run %t/grouped.onnx --input-shape wr=16x4x3x3 --seed 2 --threads 1 --output-dir %t/one
// RUN: glow-run %t/grouped.onnx --input-shape wr=16x4x3x3 --seed 2 --threads 2 --output-dir %t/two
// RUN: %python -c "import numpy as np; print('threads agree', all(np.array_equal(np.load('%t/one/%%s.npy' %% n), np.load('%t/two/%%s.npy' %% n)) for n in ('y2', 'y3')))" | FileCheck %s --check-prefix=THREADS
// THREADS: threads agree True
