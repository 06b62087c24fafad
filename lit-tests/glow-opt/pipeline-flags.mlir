// mlir-opt's flags work on pipelines that mix Glow and upstream passes.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes),canonicalize)' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// PRINT: IR Dump After glow-lower-nodes (glow-lower-nodes)
// PRINT: glow.graph.matmul
// PRINT: IR Dump After Canonicalizer (canonicalize)

// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes),canonicalize)' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: glow-lower-nodes
// TIMING: Canonicalizer

// The textual form of the pipeline, options included, round-trips.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=batch_norm}))' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: func.func(
// DUMP-NEXT: glow-lower-nodes{keep={batch_norm}}

// Passes can also be named as flags, as in mlir-opt.
// RUN: glow-opt %s --glow-lower-nodes | FileCheck %s --check-prefix=FLAG
// FLAG: glow.graph.matmul

// RUN: glow-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST: --canonicalize
// LIST: --glow-lower-nodes {{.*}}Lower high-level glow.graph nodes
// LIST-NEXT: --keep=<string>
// LIST: --one-shot-bufferize

// Reading from stdin.
// RUN: cat %s | glow-opt - | FileCheck %s --check-prefix=STDIN
// STDIN: glow.graph.fully_connected

func.func @fc(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %y = glow.graph.fully_connected %x, %w, %b : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
