// bf16 through glow-run: numpy has no bf16, so .npy files carry it as 2-byte raw data
// ('<V2' or '|V2', what numpy writes for ml_dtypes.bfloat16 arrays); outputs are
// written as '|V2' and read back with ml_dtypes. Arithmetic rounds to bf16 per op,
// sums included (1.5 - 2.25 + 3 + 1000 = 1002.25 becomes 1004), as ml_dtypes does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np, ml_dtypes; np.save('%t/b.npy', np.array([1.5, -2.25, 3.0, 1000.0], ml_dtypes.bfloat16))"
// RUN: head -c 40 %t/b.npy | FileCheck %s --check-prefix=INPUT
// INPUT: 'descr': '<V2'
// RUN: glow-run %s --input input0=%t/b.npy --output-dir %t/out | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: output0 4 2.004500e3 2.013500e3
// SUMMARY-NEXT: output1 1 1.004000e3 1.004000e3
// RUN: %python -c "import numpy as np, ml_dtypes; [print(k, np.load('%t/out/output%%d.npy' %% k).view(ml_dtypes.bfloat16).astype(np.float32).tolist()) for k in range(2)]" | FileCheck %s
// CHECK: 0 [3.0, -4.5, 6.0, 2000.0]
// CHECK: 1 [1004.0]
// Random inputs of bf16 work too.
// RUN: glow-run %s --seed 3 --output-dir %t/random

func.func @main(%b: tensor<4xbf16>) -> (tensor<4xbf16>, tensor<1xbf16>) {
  %0 = glow.graph.add %b, %b : tensor<4xbf16>
  %1 = glow.graph.reduce_sum %b axes [0] keep_dims : tensor<4xbf16> -> tensor<1xbf16>
  return %0, %1 : tensor<4xbf16>, tensor<1xbf16>
}
