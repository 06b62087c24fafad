// glow-cpu-tile-and-vectorize{threads=N}: an op whose register tiles run in sequential
// loops (here a filter larger than half the L2 cache, filter tiles outermost) first
// gets an outer scf.forall splitting its filters into N equal parts of whole register
// tiles (512 filters, 2 threads: 2 parts of 256 = 8 tiles of 32), which OpenMP runs
// in parallel; inside each part the sequential schedule is unchanged. With one thread
// there is no forall. Parts must divide the dimension into equal static tiles: with 3
// threads neither the 16 filter tiles nor the 7 rows split that way, so the op stays
// sequential.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-tile-and-vectorize{threads=2}),canonicalize,cse)' | FileCheck %s --check-prefix=TWO
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-tile-and-vectorize),canonicalize,cse)' | FileCheck %s --check-prefix=ONE
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-tile-and-vectorize{threads=3}),canonicalize,cse)' | FileCheck %s --check-prefix=ONE
// RUN: not glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-tile-and-vectorize{threads=0}))' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: threads must be in 1..=1024

// TWO-LABEL: func.func @large_filter
// TWO: scf.forall (%[[PART:.*]]) in (2)
// TWO: scf.for %{{.*}} = %c0 to %c256 step %c32
// TWO: vector.contract
// ONE-LABEL: func.func @large_filter
// ONE-NOT: scf.forall
// ONE: scf.for %{{.*}} = %c0 to %c512 step %c32
func.func @large_filter(%x: tensor<1x9x9x512xf32>, %w: tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x512xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%init : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  return %0 : tensor<1x7x7x512xf32>
}
