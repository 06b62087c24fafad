// If with a condition known at import: the selected branch's nodes are converted in
// place (outer values read by name, the branch's own initializers, a nested If), the
// other branch is dropped. Here the condition compares the input's static width with 3
// (true): the then branch, (x + w) * 2 + bias, against onnxruntime. A condition from a
// runtime input is refused; frozen with --freeze-input (false), the else branch, -x,
// is all that is left.
// RUN: %python %S/Inputs/models.py if-shape %t.onnx
// RUN: glow-import %t.onnx | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=2x4 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/Inputs/models.py if-runtime %t-runtime.onnx
// RUN: not glow-import %t-runtime.onnx 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: %python -c "import numpy as np; from onnx import numpy_helper; open('%t-flag.pb', 'wb').write(numpy_helper.from_array(np.array(False), 'flag').SerializeToString())"
// RUN: glow-import %t-runtime.onnx --freeze-input flag=%t-flag.pb | FileCheck %s --check-prefix=FROZEN
// The same with a numpy file, and a numpy file of the wrong rank.
// RUN: %python -c "import numpy as np; np.save('%t-flag.npy', np.array(False)); np.save('%t-bad.npy', np.array([True]))"
// RUN: glow-import %t-runtime.onnx --freeze-input flag=%t-flag.npy | FileCheck %s --check-prefix=FROZEN
// RUN: not glow-import %t-runtime.onnx --freeze-input flag=%t-bad.npy 2>&1 | FileCheck %s --check-prefix=BADRANK
// RUN: printf 'garbage' > %t-garbage.npy
// RUN: not glow-import %t-runtime.onnx --freeze-input flag=%t-garbage.npy 2>&1 | FileCheck %s --check-prefix=GARBAGE
// An op glow lacks in the branch not taken does not stop the import; --list-unsupported
// still lists it.
// RUN: %python %S/Inputs/models.py if-unsupported-else %t-else.onnx
// RUN: glow-import %t-else.onnx | FileCheck %s
// RUN: not glow-import %t-else.onnx --list-unsupported 2>&1 | FileCheck %s --check-prefix=LIST

// CHECK-NOT: glow.graph.neg
// CHECK-NOT: glow.graph.sub
// CHECK: glow.graph.add %arg0
// CHECK: glow.graph.mul
// CHECK: glow.graph.add
// CHECK-NOT: glow.graph.neg
// ORT: PASS
// RUNTIME: glow-import: error: node 'branch' (If): the condition (input #0, 'flag') must be a constant or computable from static shapes: glow compiles one static graph (a runtime flag can be frozen with --freeze-input)
// FROZEN: glow.graph.neg %arg0
// FROZEN-NOT: glow.graph.add
// LIST: Unique{{.*}}never
// GARBAGE: glow-import: error: '{{.*}}garbage.npy' is not a valid .npy file
// BADRANK: glow-import: error: input 'flag': --freeze-input data of shape [1]: it has rank 1 but the model declares rank 0
