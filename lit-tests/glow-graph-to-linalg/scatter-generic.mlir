// glow-graph-to-linalg{scatter=generic}: scatter_elements as one linalg.generic over
// the output with a reduction over the updates along the axis (the export form; the
// default is an scf.for). Each output element starts as the data, takes the updates
// whose clamped index hits it, combined by the reduction; the index check stays.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg{scatter=generic}))' | FileCheck %s
// RUN: not glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg{scatter=tree}))' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: scatter=tree: expected loop or generic

// CHECK-LABEL: func.func @scatter_add
// CHECK-NOT: scf.for
// CHECK: glow.instr.check
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs(%[[DATA:.*]] : tensor<2x3xf32>)
// CHECK: arith.cmpi ult
// CHECK: tensor.extract
// CHECK: arith.minsi
// CHECK: arith.cmpi eq
// CHECK: arith.addf
// CHECK: arith.select
func.func @scatter_add(%ids: tensor<2x2xi64>) -> tensor<2x3xf32> {
  %x = glow.graph.constant dense<[[0.5, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %u = glow.graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %y = glow.graph.scatter_elements %x, %ids, %u axis 1 reduction "add" : tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32> loc("put")
  return %y : tensor<2x3xf32>
}
