// Glow's quantization flow through glow-run: profile a float CNN over a calibration
// set, run it quantized from the profile, and report each quantized value's SQNR.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn %t/model.onnx
// RUN: %python -c "import numpy as np; r = np.random.default_rng(0); np.savez('%t/calibration.npz', x=r.standard_normal((8, 1, 3, 16, 16)).astype(np.float32))"
// RUN: glow-run %t/model.onnx --calibration %t/calibration.npz --dump-profile %t/profile.yaml | FileCheck %s --check-prefix=PROFILE
// PROFILE: profiled 9 values over 8 samples into '{{.*}}.yaml'
// PROFILE: compile {{.*}} s, run {{.*}} ms (8 runs, median)
// RUN: FileCheck %s --check-prefix=FILE < %t/profile.yaml
// FILE: graph_hash: {{[0-9a-f]+}}
// FILE: - name: x
// FILE: - name: relu1
// FILE-NEXT: min: 0.0
// FILE: histogram: [{{[0-9]+, [0-9]+}}

// RUN: glow-run %t/model.onnx --load-profile %t/profile.yaml --output-dir %t/int8 | FileCheck %s --check-prefix=INT8
// RUN: glow-run %t/model.onnx --load-profile %t/profile.yaml --quantization-schema symmetric_uint8 --quantization-calibration kl | FileCheck %s --check-prefix=INT8
// RUN: glow-run %t/model.onnx --load-profile %t/profile.yaml --keep-float add,max_pool --no-channelwise | FileCheck %s --check-prefix=INT8
// INT8-LABEL: output
// INT8: y 1x10

// RUN: glow-run %t/model.onnx --load-profile %t/profile.yaml --quantization-report | FileCheck %s --check-prefix=REPORT
// On one thread too (sequential code, compiled with the bare-pointer calling
// convention alone: the recorder's declarations must lower there as well), with the
// same profile.
// RUN: glow-run %t/model.onnx --load-profile %t/profile.yaml --quantization-report --threads 1 | FileCheck %s --check-prefix=REPORT
// RUN: glow-run %t/model.onnx --calibration %t/calibration.npz --dump-profile %t/profile1.yaml --threads 1 | FileCheck %s --check-prefix=PROFILE
// RUN: cmp %t/profile.yaml %t/profile1.yaml
// REPORT: quantized value scale zero storage SQNR dB
// REPORT-DAG: relu1 {{.*}} i8
// REPORT-DAG: fc {{.*}} i8
// REPORT: output y: SQNR {{[0-9.]+}} dB against the float model

// A profile of another graph.
// RUN: %python %S/../glow-import/Inputs/models.py cnn %t/other.onnx
// RUN: not glow-run %t/other.onnx --input-shape x=1x3x16x16 --load-profile %t/profile.yaml 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: glow-run: error: pass pipeline failed: {{.*}}glow-quantize: profile '{{.*}}profile.yaml' was taken on another graph

// RUN: not glow-run %t/model.onnx --load-profile %t/profile.yaml --quantization-schema fancy 2>&1 | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: glow-run: error: --quantization-schema is 'fancy'; expected asymmetric, symmetric, symmetric_uint8 or symmetric_pow2
