// glow-run on a glow.graph module: JIT through the CPU pipeline, .npy outputs, summary.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[1, -2, 3], [-4, 5, -6]], np.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --output-dir %t/out --repeat 3 | FileCheck %s
// RUN: %python -c "import numpy as np; print(np.load('%t/out/output0.npy').tolist())" | FileCheck %s --check-prefix=NPY
// CHECK: output0 2x3 {{.*}}1.800000e1 {{.*}}1.800000e1
// CHECK: compile {{.*}} s, run {{.*}} ms (3 runs, median)
// NPY: {{\[}}[2.0, 0.0, 6.0], [0.0, 10.0, 0.0]]

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = glow.graph.relu %x : tensor<2x3xf32>
  %y = glow.graph.add %r, %r : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// --profile-layers: each top-level op timed over the runs, the slowest first, with
// its share; the summary line keeps its form.
// RUN: glow-run %s --repeat 3 --profile-layers | FileCheck %s --check-prefix=LAYERS
// LAYERS: layers: {{[0-9]+}} timed, {{[0-9.]+}} ms per run in them; the {{[0-9]+}} slowest:
// LAYERS-NEXT: {{ +[0-9.]+% +[0-9.]+ ms  [a-z]+\.[a-z_]+ }}
// LAYERS: by node kind: {{.+ [0-9.]+%}}
// LAYERS: compile {{[0-9.]+}} s, run {{[0-9.]+}} ms (3 runs, median)
// --profile-top N lists N of them (0: all); it needs --profile-layers.
// RUN: glow-run %s --repeat 2 --profile-layers --profile-top 1 | FileCheck %s --check-prefix=TOP1
// TOP1: layers: {{[0-9]+}} timed, {{[0-9.]+}} ms per run in them; the 1 slowest:
// TOP1-NEXT: {{ +[0-9.]+% +[0-9.]+ ms  [a-z]+\.[a-z_]+ }}
// TOP1-NEXT: by node kind:
// RUN: not glow-run %s --profile-top 3 2>&1 | FileCheck %s --check-prefix=TOP-ALONE
// TOP-ALONE: --profile-layers
