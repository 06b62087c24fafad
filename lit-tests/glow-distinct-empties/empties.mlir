// glow-distinct-empties: each user of a shared tensor.empty (CSE merges all empties of
// one type) gets a copy made just before it, also inside a loop body, and the shared
// one goes; dynamic sizes are reused by the copies.
// Bufferization then sees small alias sets: ops writing into one shared empty made
// one-shot-bufferize and eliminate-empty-tensors cubic in the number of ops.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-distinct-empties))' | FileCheck %s
// The whole CPU pipeline still runs a 400-step recurrence (400 matmuls and epilogues
// writing into one shared empty before this pass) and matches numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "n = 400; t = 'tensor<4x32xf32>'; lines = ['func.func @main(%%h0: ' + t + ', %%w: tensor<32x32xf32>, %%x: ' + t + ') -> ' + t + ' {']; [lines.extend([f'  %%m{i} = glow.graph.matmul %%h{i}, %%w : ({t}, tensor<32x32xf32>) -> {t}', f'  %%a{i} = glow.graph.add %%m{i}, %%x : {t}', f'  %%h{i + 1} = glow.graph.tanh %%a{i} : {t}']) for i in range(n)]; lines += [f'  return %%h{n} : {t}', '}']; print(chr(10).join(lines))" > %t/recurrence.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(7); np.save('%t/h0.npy', r.standard_normal((4, 32)).astype(np.float32)); np.save('%t/w.npy', (r.standard_normal((32, 32)) / 6).astype(np.float32)); np.save('%t/x.npy', r.standard_normal((4, 32)).astype(np.float32))"
// RUN: glow-run %t/recurrence.mlir --threads 1 --input input0=%t/h0.npy --input input1=%t/w.npy --input input2=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; h, w, x = (np.load(f'%t/{n}.npy').astype(np.float64) for n in ('h0', 'w', 'x')); exec('for _ in range(400): h = np.tanh(h @ w + x)'); print(np.abs(np.load('%t/out/output0.npy') - h).max() < 1e-4)" | FileCheck %s --check-prefix=SAME
// SAME: True

// CHECK-LABEL: func.func @shared
// CHECK-NOT: tensor.empty
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<8xf32>)
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<8xf32>)
// CHECK: scf.for
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<8xf32>)
func.func @shared(%a: f32, %b: f32, %n: index) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %f0 = linalg.fill ins(%a : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %f1 = linalg.fill ins(%b : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f1) -> (tensor<8xf32>) {
    %g = linalg.fill ins(%a : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %g : tensor<8xf32>
  }
  return %f0, %f1, %r : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D0:.*]] = tensor.empty(%[[N:.*]]) : tensor<?xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[D0]] : tensor<?xf32>)
// CHECK-NEXT: %[[D1:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[D1]] : tensor<?xf32>)
func.func @dynamic(%a: f32, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %f0 = linalg.fill ins(%a : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %f1 = linalg.fill ins(%a : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f0, %f1 : tensor<?xf32>, tensor<?xf32>
}
