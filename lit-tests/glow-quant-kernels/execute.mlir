// The int8 paths compute the same bits: plain-vector micro-kernels (dense 3x3 with 3
// input channels padded to 4, depthwise 3x3, 1x1, a 10-output FC padded to 16) and
// the reference lowering, on a small CNN quantized by onnxruntime.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t/model.onnx
// RUN: glow-run %t/model.onnx --int8-kernels generic --output-dir %t/generic | FileCheck %s
// RUN: glow-run %t/model.onnx --int8-kernels reference --output-dir %t/reference
// RUN: cmp %t/generic/y.npy %t/reference/y.npy
// uint8 weights with a zero point (onnxruntime's QUInt8 weights): the centred weights
// split into two int8 halves, the same bits as the reference.
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8-u8-weights %t/u8.onnx
// RUN: glow-run %t/u8.onnx --int8-kernels generic --output-dir %t/u8-generic
// RUN: glow-run %t/u8.onnx --int8-kernels reference --output-dir %t/u8-reference
// RUN: cmp %t/u8-generic/y.npy %t/u8-reference/y.npy
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/u8.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s --check-prefix=ORT
// ORT: PASS
// CHECK: y 1x10
