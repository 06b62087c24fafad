// glow-opt --emit-bytecode writes bytecode that reads back (MLIR's own writer would
// turn glow.graph.relu into glow.graph.graph.relu), with locations, after running the
// pipeline; --split-input-file does not combine with it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes))' --emit-bytecode -o %t/out.mlirbc
// RUN: glow-opt %t/out.mlirbc --mlir-print-debuginfo | FileCheck %s
// CHECK-LABEL: func.func @relu
// CHECK: %[[ZERO:.*]] = glow.graph.splat 0.000000e+00 : tensor<4xf32>
// CHECK: glow.graph.cmp_lt %arg0, %[[ZERO]] : tensor<4xf32> loc(#[[LOC:.*]])
// CHECK: #[[LOC]] = loc("{{.*}}bytecode.mlir":{{[0-9]+}}:8)
// RUN: not glow-opt %s --emit-bytecode --split-input-file -o %t/split.mlirbc 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not test -e %t/split.mlirbc
// SPLIT: glow-opt: error: --emit-bytecode does not combine with --split-input-file

func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = glow.graph.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
