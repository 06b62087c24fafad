// The int8 paths compute the same bits: plain-vector micro-kernels (dense 3x3 with 3
// input channels padded to 4, depthwise 3x3, 1x1, a 10-output FC padded to 16) and
// the reference lowering, on a small CNN quantized by onnxruntime.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t/model.onnx
// RUN: glow-run %t/model.onnx --int8-kernels generic --output-dir %t/generic | FileCheck %s
// RUN: glow-run %t/model.onnx --int8-kernels reference --output-dir %t/reference
// RUN: cmp %t/generic/y.npy %t/reference/y.npy
// CHECK: y 1x10
