// cumsum becomes one linalg.generic with a reduction dimension k along the axis:
// output i takes input k when k <= i (k < i exclusive, k >= i / k > i reversed).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @inclusive
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<2x6xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[IN:.*]], #[[OUT:.*]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x6xi64>) outs(%[[ZERO]] : tensor<2x6xi64>)
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[K:.*]] = linalg.index 2 : index
// CHECK: %[[TAKES:.*]] = arith.cmpi ule, %[[K]], %[[I]] : index
// CHECK: %[[SUM:.*]] = arith.addi
// CHECK: arith.select %[[TAKES]], %[[SUM]], %{{.*}} : i64
func.func @inclusive(%x: tensor<2x6xi64>) -> tensor<2x6xi64> {
  %0 = glow.graph.cumsum %x axis 1 : tensor<2x6xi64>
  return %0 : tensor<2x6xi64>
}

// CHECK-LABEL: func.func @variants
// CHECK: arith.cmpi ult
// CHECK: arith.addf
// CHECK: arith.cmpi uge
// CHECK: arith.cmpi ugt
func.func @variants(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %0 = glow.graph.cumsum %x axis 0 exclusive : tensor<5xf32>
  %1 = glow.graph.cumsum %x axis -1 reverse : tensor<5xf32>
  %2 = glow.graph.cumsum %x axis 0 exclusive reverse : tensor<5xf32>
  return %0, %1, %2 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}

// An axis outside the rank is a located verifier error.
// RUN: echo 'func.func @f(%%x: tensor<5xf32>) -> tensor<5xf32> { %%0 = glow.graph.cumsum %%x axis 2 : tensor<5xf32>  func.return %%0 : tensor<5xf32> }' | not glow-opt 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: 'glow.graph.cumsum' op 'axis' 2 is out of range for rank 1

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32))"
// RUN: glow-run %s --function variants --input input0=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; print([np.load('%t/out/output%%d.npy' %% i).tolist() for i in range(3)])" | FileCheck %s --check-prefix=EXEC
// EXEC: {{\[}}[0.0, 1.0, 3.0, 6.0, 10.0], [15.0, 14.0, 12.0, 9.0, 5.0], [14.0, 12.0, 9.0, 5.0, 0.0]]

