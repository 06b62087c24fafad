// LpPool: the sum of |x|^p over each zero-padded window (an average pool counting
// the pads, times the window size) to the power 1/p; p = 2 (a square root), p = 1,
// p = 3 (pow) with pads, strides and dilations match onnxruntime.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/lp_pool.py %t/lp.onnx
// RUN: glow-import %t/lp.onnx | FileCheck %s --check-prefix=IR
// IR: %[[ABS:.*]] = glow.graph.abs %arg0
// IR: %[[SQUARES:.*]] = glow.graph.mul %[[ABS]], %[[ABS]]
// IR: glow.graph.avg_pool %[[SQUARES]] {{.*}}count_include_pad
// IR: glow.graph.sqrt
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/lp.onnx --input-shape x=2x3x8x7 --bin %glow_bin | FileCheck %s
// CHECK: PASS
