// The int8 paths compute the same bits: plain-vector micro-kernels (dense 3x3 with 3
// input channels padded to 4, depthwise 3x3, 1x1, a 10-output FC padded to 16) and
// the reference lowering, on a small CNN quantized by onnxruntime.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t/model.onnx
// RUN: glow-run %t/model.onnx --int8-kernels generic --output-dir %t/generic | FileCheck %s
// RUN: glow-run %t/model.onnx --int8-kernels reference --output-dir %t/reference
// RUN: cmp %t/generic/y.npy %t/reference/y.npy
// uint8 weights with a zero point (onnxruntime's QUInt8 weights): offset by 128 and
// corrected with input window sums, the same bits as the reference.
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8-u8-weights %t/u8.onnx
// RUN: glow-run %t/u8.onnx --int8-kernels generic --output-dir %t/u8-generic
// RUN: glow-run %t/u8.onnx --int8-kernels reference --output-dir %t/u8-reference
// RUN: cmp %t/u8-generic/y.npy %t/u8-reference/y.npy
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/u8.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s --check-prefix=ORT
// ORT: PASS
// The same with 64 and more channels (a 64-byte step and a tail in the window sums,
// 3 -> 72 with pads, a 72-channel depthwise padded to 80, 72 -> 40 with stride 2, a
// 1x1 and the FC), with int8 weights, uint8 weights per tensor and per channel, and
// on int8 activations (two QLinearConvs: sign bits flipped, signed zero points in the
// padding and in the channels the kernel adds).
// RUN: %python %S/../glow-import/Inputs/models.py wide-cnn-int8 %t/wide-s8.onnx
// RUN: glow-run %t/wide-s8.onnx --int8-kernels generic --output-dir %t/wide-s8-generic
// RUN: glow-run %t/wide-s8.onnx --int8-kernels reference --output-dir %t/wide-s8-reference
// RUN: cmp %t/wide-s8-generic/y.npy %t/wide-s8-reference/y.npy
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/wide-s8.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s --check-prefix=ORT
// RUN: %python %S/../glow-import/Inputs/models.py wide-cnn-int8-u8-weights %t/wide.onnx
// RUN: %python %S/../glow-import/Inputs/models.py wide-cnn-int8-u8-weights-per-channel %t/wide-pc.onnx
// RUN: %python %S/../glow-import/Inputs/models.py s8-activations-u8-weights %t/s8.onnx
// RUN: glow-run %t/wide.onnx --int8-kernels generic --output-dir %t/wide-generic
// RUN: glow-run %t/wide.onnx --int8-kernels reference --output-dir %t/wide-reference
// RUN: cmp %t/wide-generic/y.npy %t/wide-reference/y.npy
// RUN: glow-run %t/wide-pc.onnx --int8-kernels generic --output-dir %t/wide-pc-generic
// RUN: glow-run %t/wide-pc.onnx --int8-kernels reference --output-dir %t/wide-pc-reference
// RUN: cmp %t/wide-pc-generic/y.npy %t/wide-pc-reference/y.npy
// RUN: glow-run %t/s8.onnx --int8-kernels generic --output-dir %t/s8-generic
// RUN: glow-run %t/s8.onnx --int8-kernels reference --output-dir %t/s8-reference
// RUN: cmp %t/s8-generic/y.npy %t/s8-reference/y.npy
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/wide.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s --check-prefix=ORT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/wide-pc.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s --check-prefix=ORT
// Every convolution of these runs on a kernel, the depthwise one included.
// RUN: glow-import %t/wide-s8.onnx | glow-opt --glow-cpu-pipeline -o /dev/null --mlir-print-ir-after=glow-quant-kernels 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE-COUNT-5: call @glow_int8_kernel
// WIDE-NOT: glow.quant.conv2d
// WIDE-NOT: glow.quant.fully_connected
// RUN: glow-import %t/s8.onnx | glow-opt --glow-cpu-pipeline -o /dev/null --mlir-print-ir-after=glow-quant-kernels 2>&1 | FileCheck %s --check-prefix=S8
// S8-COUNT-2: call @glow_int8_kernel
// S8-NOT: glow.quant.conv2d
// A grouped convolution (4 groups of 8 channels, stride 2; int8 and uint8 weights):
// the dense kernel of one group in a loop over the groups (an affine.for in the
// wrapper glow-quant-kernels adds), the same bits as the reference lowering and
// onnxruntime's result.
// RUN: %python %S/../glow-import/Inputs/models.py grouped-cnn-int8 %t/grouped.onnx
// RUN: %python %S/../glow-import/Inputs/models.py grouped-cnn-int8-u8-weights %t/grouped-u8.onnx
// RUN: glow-run %t/grouped.onnx --int8-kernels generic --output-dir %t/grouped-generic
// RUN: glow-run %t/grouped.onnx --int8-kernels reference --output-dir %t/grouped-reference
// RUN: cmp %t/grouped-generic/y.npy %t/grouped-reference/y.npy
// RUN: glow-run %t/grouped-u8.onnx --int8-kernels generic --output-dir %t/grouped-u8-generic
// RUN: glow-run %t/grouped-u8.onnx --int8-kernels reference --output-dir %t/grouped-u8-reference
// RUN: cmp %t/grouped-u8-generic/y.npy %t/grouped-u8-reference/y.npy
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/grouped.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s --check-prefix=ORT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/grouped-u8.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s --check-prefix=ORT
// RUN: glow-import %t/grouped.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-quantization-folding,glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-channels-last{grouped=true grouped-int8=true}),glow-quant-kernels{isa=generic})' | FileCheck %s --check-prefix=GROUPED
// GROUPED: call @[[WRAPPER:glow_int8_kernel_[0-9]+]]({{.*}}tensor<4x18x64xi8>
// GROUPED: func.func private @[[WRAPPER]]_group(%{{.*}}: tensor<1x18x18x8xi8>
// GROUPED: func.func private @[[WRAPPER]](%{{.*}}: tensor<1x16x16x32xi8>, %{{.*}}: tensor<4x18x64xi8>
// GROUPED: tensor.pad
// GROUPED: affine.for %{{.*}} = 0 to 4
// GROUPED: func.call @[[WRAPPER]]_group
// CHECK: y 1x10
