// Calibration sets glow-run refuses: one line naming the array or input, exit code
// 1, and no profile file written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn %t/model.onnx
// RUN: %python -c "import numpy as np; np.savez('%t/name.npz', image=np.zeros((2, 1, 3, 16, 16), np.float32)); np.savez('%t/shape.npz', x=np.zeros((2, 3, 16, 16), np.float32)); np.savez('%t/dtype.npz', x=np.zeros((2, 1, 3, 16, 16), np.float64)); np.savez('%t/empty.npz', x=np.zeros((0, 1, 3, 16, 16), np.float32))"
// RUN: echo "not a zip" > %t/text.npz

// RUN: not glow-run %t/model.onnx --calibration %t/name.npz --dump-profile %t/p.yaml 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: glow-run: error: calibration file '{{.*}}name.npz' has no array for input 'x' (arrays: image)
// RUN: not test -e %t/p.yaml
// RUN: not glow-run %t/model.onnx --calibration %t/shape.npz --dump-profile %t/p.yaml 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: glow-run: error: calibration array 'x' has shape [2, 3, 16, 16]; input 'x' needs samples x [1, 3, 16, 16]
// RUN: not glow-run %t/model.onnx --calibration %t/dtype.npz --dump-profile %t/p.yaml 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: glow-run: error: calibration array 'x' holds F64, input 'x' is F32
// RUN: not glow-run %t/model.onnx --calibration %t/empty.npz --dump-profile %t/p.yaml 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: glow-run: error: calibration file '{{.*}}empty.npz' holds no samples
// RUN: not glow-run %t/model.onnx --calibration %t/text.npz --dump-profile %t/p.yaml 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: glow-run: error: '{{.*}}text.npz' is not an .npz file
// RUN: not glow-run %t/model.onnx --calibration %t/missing.npz --dump-profile %t/p.yaml 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: glow-run: error: cannot read '{{.*}}missing.npz'
// RUN: not test -e %t/p.yaml
// RUN: not glow-run %t/model.onnx --calibration %t/name.npz 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: the following required arguments were not provided:
// USAGE: --dump-profile <PROFILE.yaml>
