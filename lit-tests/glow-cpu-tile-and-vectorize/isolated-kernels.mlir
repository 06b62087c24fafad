// glow-cpu-tile-and-vectorize runs its transform script on each kernel moved into a
// function of its own (a temporary module nested in the function; see
// framework/isolate.rs): upstream fusions print their ops eagerly, and a print costs
// the size of the enclosing function, so n kernels cost O(n^2) in one function (an
// unrolled 48-step GRU: 29 s in this pass, 0.6 s isolated). Checked here: two matmuls
// sharing one zero fill (each kernel gets its own copy), a stacked epilogue reading
// the other kernel's epilogue, nothing of the temporary module left behind, and the
// results against numpy; then a 48-step unrolled recurrence (48 kernels, each reading
// the last one's epilogue) against numpy.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes,glow-graph-to-linalg),canonicalize,cse,func.func(glow-pack-weights,glow-generalize-elementwise,linalg-fuse-elementwise-ops,glow-stack),canonicalize,cse,func.func(glow-cpu-tile-and-vectorize),canonicalize,cse)' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); [np.save(f'%t/{n}.npy', r.standard_normal(s).astype(np.float32)) for n, s in (('x', (16, 32)), ('w1', (32, 32)), ('w2', (32, 32)))]"
// RUN: glow-run %s --threads 1 --input input0=%t/x.npy --input input1=%t/w1.npy --input input2=%t/w2.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; x, w1, w2 = (np.load(f'%t/{n}.npy') for n in ('x', 'w1', 'w2')); ref = x @ w2 + np.maximum(x @ w1, 0); print(np.abs(np.load('%t/out/output0.npy') - ref).max() < 1e-4)" | FileCheck %s --check-prefix=SAME
// SAME: True
//
// The recurrence h <- tanh(h @ w + x_t), 48 steps, written out as a graph.
// RUN: %python -c "import sys; n = 48; t = 'tensor<4x32xf32>'; lines = ['func.func @main(%%h0: ' + t + ', %%w: tensor<32x32xf32>, %%x: ' + t + ') -> ' + t + ' {']; [lines.extend([f'  %%m{i} = glow.graph.matmul %%h{i}, %%w : ({t}, tensor<32x32xf32>) -> {t}', f'  %%a{i} = glow.graph.add %%m{i}, %%x : {t}', f'  %%h{i + 1} = glow.graph.tanh %%a{i} : {t}']) for i in range(n)]; lines += [f'  return %%h{n} : {t}', '}']; print(chr(10).join(lines))" > %t/recurrence.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(6); np.save('%t/h0.npy', r.standard_normal((4, 32)).astype(np.float32)); np.save('%t/w.npy', (r.standard_normal((32, 32)) / 6).astype(np.float32)); np.save('%t/xs.npy', r.standard_normal((4, 32)).astype(np.float32))"
// RUN: glow-run %t/recurrence.mlir --threads 1 --input input0=%t/h0.npy --input input1=%t/w.npy --input input2=%t/xs.npy --output-dir %t/rec
// RUN: %python -c "import numpy as np; h, w, x = (np.load(f'%t/{n}.npy').astype(np.float64) for n in ('h0', 'w', 'xs')); exec('for _ in range(48): h = np.tanh(h @ w + x)'); print(np.abs(np.load('%t/rec/output0.npy') - h).max() < 1e-4)" | FileCheck %s --check-prefix=SAME

// CHECK-LABEL: func.func @main
// CHECK-NOT: builtin.module
// CHECK-NOT: unrealized_conversion_cast
// CHECK: vector.contract
// CHECK-NOT: builtin.module
// CHECK: vector.contract
// CHECK-NOT: builtin.module
// CHECK-NOT: unrealized_conversion_cast
// CHECK: return
func.func @main(%x: tensor<16x32xf32>, %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %a = glow.graph.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %b = glow.graph.matmul %x, %w2 : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %ra = glow.graph.relu %a : tensor<16x32xf32>
  %s = glow.graph.add %b, %ra : tensor<16x32xf32>
  return %s : tensor<16x32xf32>
}
