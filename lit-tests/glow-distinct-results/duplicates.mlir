// glow-distinct-results: a tensor returned more than once is copied for each further
// position, so bufferization gives every result its own buffer (upstream
// buffer-results-to-out-params crashes on a buffer returned twice). Glow-run and
// bundles then fill every output.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-distinct-results))' | FileCheck %s
// RUN: rm -rf %t && glow-run %s --threads 1 --output-dir %t | FileCheck %s --check-prefix=OUTPUTS
// RUN: %python -c "import numpy as np, sys; d = sys.argv[1]; a, b, c = (np.load(f'{d}/output{i}.npy') for i in range(3)); print(np.array_equal(a, b), np.array_equal(np.maximum(a, 0), c))" %t | FileCheck %s --check-prefix=EQUAL
// RUN: rm -rf %t.bundle && glow-compile %s -o %t.bundle | FileCheck %s --check-prefix=BUNDLE

// CHECK-LABEL: func.func @main
// CHECK: %[[E:.*]] = glow.graph.exp
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[COPY:.*]] = linalg.copy ins(%[[E]] : tensor<4xf32>) outs(%[[EMPTY]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[E]], %[[COPY]], %{{.*}} :
// OUTPUTS-COUNT-3: output{{[0-2]}} 4
// EQUAL: True True
// BUNDLE: bundle duplicates: {{.*}}duplicates.o (0 bytes of weights, 256 of inputs/outputs, 0 of activations)
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = glow.graph.exp %x : tensor<4xf32>
  %r = glow.graph.relu %e : tensor<4xf32>
  return %e, %e, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
