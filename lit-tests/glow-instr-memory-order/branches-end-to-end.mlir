// End to end through glow-run: two branches, each a 1x4096 matmul result reduced to
// one number, written one after the other. glow-instr-memory-order runs each branch
// to its end before starting the next, so the two 16 KB results are never live
// together (the planned arena below holds one of them, not both), and the result is
// unchanged: x = 1 everywhere gives 16 * 0.5 * 4096 + 16 * 0.25 * 4096 = 49152.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy; numpy.save('%t/x.npy', numpy.ones((1, 16), numpy.float32))"
// RUN: glow-run %s --input input0=%t/x.npy --memory-report | FileCheck %s
// CHECK: output0 1x1 {{ *}}4.915200e4
// CHECK: {{^}}activations: planned 16512 bytes, lower bound 16512 bytes{{$}}
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x1xf32> {
  %w1 = glow.graph.splat 0.5 : tensor<16x4096xf32>
  %w2 = glow.graph.splat 0.25 : tensor<16x4096xf32>
  %a = glow.graph.matmul %x, %w1 : (tensor<1x16xf32>, tensor<16x4096xf32>) -> tensor<1x4096xf32>
  %b = glow.graph.matmul %x, %w2 : (tensor<1x16xf32>, tensor<16x4096xf32>) -> tensor<1x4096xf32>
  %sa = glow.graph.reduce_sum %a axes [-1] : tensor<1x4096xf32> -> tensor<1xf32>
  %sb = glow.graph.reduce_sum %b axes [-1] : tensor<1x4096xf32> -> tensor<1xf32>
  %s = glow.graph.add %sa, %sb : tensor<1xf32>
  %y = glow.graph.reshape %s : tensor<1xf32> -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}
