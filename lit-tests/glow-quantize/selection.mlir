// glow-quantize selects the ops worth an integer form: compute ops always, adds /
// muls / pools only between quantized ops. Here the attention scores' scaling and
// mask add stay float (a float Softmax reads them; a quantized add would round the
// scores to a range stretched by the mask's -10000), while the residual add between
// convolutions is quantized with its ReLU fused.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(0); m = np.zeros((3, 2, 4, 4), np.float32); m[..., 3] = -10000; np.savez('%t.npz', q=r.standard_normal((3, 2, 4, 8), np.float32), k=r.standard_normal((3, 2, 8, 4), np.float32), mask=m, x=r.standard_normal((3, 1, 4, 4, 8), np.float32))"
// RUN: glow-run %s --calibration %t.npz --dump-profile %t.yaml
// RUN: glow-opt %s --pass-pipeline="builtin.module(func.func(glow-quantization-folding,glow-graph-optimize),glow-quantize{profile=%t.yaml})" | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK: %[[S:.*]] = glow.quant.batch_matmul
// CHECK: %[[D:.*]] = glow.quant.dequantize %[[S]]
// CHECK: %[[M:.*]] = glow.graph.mul %[[D]]
// CHECK: %[[A:.*]] = glow.graph.add %[[M]], %arg2
// CHECK: glow.graph.softmax %[[A]]
// CHECK: %[[C1:.*]] = glow.quant.conv2d %{{.*}}
// CHECK: %[[C2:.*]] = glow.quant.conv2d %[[C1]]
// CHECK: %[[R:.*]] = glow.quant.add %[[C1]], %[[C2]] min 0.000000e+00
// CHECK: glow.quant.conv2d %[[R]]
// CHECK-NOT: glow.graph.relu

// keep=add also keeps the residual add in float, between a dequantize and a quantize.
// RUN: glow-opt %s --pass-pipeline="builtin.module(func.func(glow-quantization-folding,glow-graph-optimize),glow-quantize{profile=%t.yaml keep=add})" | FileCheck %s --check-prefix=KEEP
// KEEP: glow.graph.add %{{.*}}, %arg2
// KEEP: %[[C1:.*]] = glow.quant.conv2d
// KEEP: %[[D1:.*]] = glow.quant.dequantize %[[C1]]
// KEEP: %[[C2:.*]] = glow.quant.conv2d %[[C1]]
// KEEP: %[[D2:.*]] = glow.quant.dequantize %[[C2]]
// KEEP: %[[A:.*]] = glow.graph.add %[[D1]], %[[D2]]
// KEEP: %[[R:.*]] = glow.graph.relu %[[A]]
// KEEP: glow.quant.quantize %[[R]]

func.func @main(%q: tensor<2x4x8xf32> {glow.name = "q"}, %k: tensor<2x8x4xf32> {glow.name = "k"}, %mask: tensor<2x4x4xf32> {glow.name = "mask"}, %x: tensor<1x4x4x8xf32> {glow.name = "x"}) -> (tensor<2x4x4xf32>, tensor<1x4x4x8xf32>) {
  %s = glow.graph.batch_matmul %q, %k : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32> loc("scores")
  %c = glow.graph.constant dense<0.35> : tensor<2x4x4xf32>
  %m = glow.graph.mul %s, %c : tensor<2x4x4xf32> loc("scaled")
  %a = glow.graph.add %m, %mask : tensor<2x4x4xf32> loc("masked")
  %p = glow.graph.softmax %a axis 2 : tensor<2x4x4xf32> loc("probs")
  %w = glow.graph.constant dense<0.125> : tensor<8x8x1x1xf32>
  %b = glow.graph.constant dense<0.0> : tensor<8xf32>
  %c1 = glow.graph.conv2d %x, %w, %b channels_last : (tensor<1x4x4x8xf32>, tensor<8x8x1x1xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32> loc("conv1")
  %c2 = glow.graph.conv2d %c1, %w, %b channels_last : (tensor<1x4x4x8xf32>, tensor<8x8x1x1xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32> loc("conv2")
  %r = glow.graph.add %c1, %c2 : tensor<1x4x4x8xf32> loc("residual")
  %rr = glow.graph.relu %r : tensor<1x4x4x8xf32> loc("relu")
  %c3 = glow.graph.conv2d %rr, %w, %b channels_last : (tensor<1x4x4x8xf32>, tensor<8x8x1x1xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32> loc("conv3")
  return %p, %c3 : tensor<2x4x4xf32>, tensor<1x4x4x8xf32>
}
