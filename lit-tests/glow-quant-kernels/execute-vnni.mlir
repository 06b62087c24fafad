// The VNNI micro-kernels compute the reference lowering's bits (hosts with AVX-512
// VNNI only; elsewhere this test is reported UNSUPPORTED).
// REQUIRES: avx512vnni
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t/model.onnx
// RUN: glow-run %t/model.onnx --int8-kernels avx512-vnni --output-dir %t/vnni
// RUN: glow-run %t/model.onnx --int8-kernels reference --output-dir %t/reference
// RUN: cmp %t/vnni/y.npy %t/reference/y.npy
// uint8 weights with a zero point: offset weights and window sums, the same bits
// (also with 64 and more channels and a 72-channel depthwise, per channel, and on
// int8 activations).
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8-u8-weights %t/u8.onnx
// RUN: glow-run %t/u8.onnx --int8-kernels avx512-vnni --output-dir %t/u8-vnni
// RUN: glow-run %t/u8.onnx --int8-kernels reference --output-dir %t/u8-reference
// RUN: cmp %t/u8-vnni/y.npy %t/u8-reference/y.npy
// RUN: %python %S/../glow-import/Inputs/models.py wide-cnn-int8 %t/wide-s8.onnx
// RUN: glow-run %t/wide-s8.onnx --int8-kernels avx512-vnni --output-dir %t/wide-s8-vnni
// RUN: glow-run %t/wide-s8.onnx --int8-kernels reference --output-dir %t/wide-s8-reference
// RUN: cmp %t/wide-s8-vnni/y.npy %t/wide-s8-reference/y.npy
// RUN: %python %S/../glow-import/Inputs/models.py wide-cnn-int8-u8-weights %t/wide.onnx
// RUN: glow-run %t/wide.onnx --int8-kernels avx512-vnni --output-dir %t/wide-vnni
// RUN: glow-run %t/wide.onnx --int8-kernels reference --output-dir %t/wide-reference
// RUN: cmp %t/wide-vnni/y.npy %t/wide-reference/y.npy
// RUN: %python %S/../glow-import/Inputs/models.py wide-cnn-int8-u8-weights-per-channel %t/wide-pc.onnx
// RUN: glow-run %t/wide-pc.onnx --int8-kernels avx512-vnni --output-dir %t/wide-pc-vnni
// RUN: glow-run %t/wide-pc.onnx --int8-kernels reference --output-dir %t/wide-pc-reference
// RUN: cmp %t/wide-pc-vnni/y.npy %t/wide-pc-reference/y.npy
// RUN: %python %S/../glow-import/Inputs/models.py s8-activations-u8-weights %t/s8.onnx
// RUN: glow-run %t/s8.onnx --int8-kernels avx512-vnni --output-dir %t/s8-vnni
// RUN: glow-run %t/s8.onnx --int8-kernels reference --output-dir %t/s8-reference
// RUN: cmp %t/s8-vnni/y.npy %t/s8-reference/y.npy
