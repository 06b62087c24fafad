// CumProd as a reduce_prod over a new axis of the input broadcast against a constant
// triangular mask; the exclusive / reverse forms on floats and int32 equal numpy's
// cumprod (onnxruntime 1.23 does not run opset 26).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/cumprod.py model %t/cumprod.onnx %t
// RUN: glow-import %t/cumprod.onnx | FileCheck %s --check-prefix=IR
// IR: glow.graph.broadcast %{{.*}} axis 0 : tensor<3x1x6xf32> -> tensor<3x6x6xf32>
// IR: glow.graph.select
// IR: glow.graph.reduce_prod %{{.*}} axes [2] : tensor<3x6x6xf32> -> tensor<3x6xf32>
// RUN: glow-run %t/cumprod.onnx --input x=%t/x.npy --input i=%t/i.npy --output-dir %t/out
// RUN: %python %S/Inputs/cumprod.py check %t %t/out | FileCheck %s
// CHECK: cumprod: 5 outputs equal numpy's
