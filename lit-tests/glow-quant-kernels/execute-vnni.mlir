// The VNNI micro-kernels compute the reference lowering's bits (hosts with AVX-512
// VNNI only; elsewhere this test is reported UNSUPPORTED).
// REQUIRES: avx512vnni
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t/model.onnx
// RUN: glow-run %t/model.onnx --int8-kernels avx512-vnni --output-dir %t/vnni
// RUN: glow-run %t/model.onnx --int8-kernels reference --output-dir %t/reference
// RUN: cmp %t/vnni/y.npy %t/reference/y.npy
// uint8 weights with a zero point: split centred weights, the same bits.
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8-u8-weights %t/u8.onnx
// RUN: glow-run %t/u8.onnx --int8-kernels avx512-vnni --output-dir %t/u8-vnni
// RUN: glow-run %t/u8.onnx --int8-kernels reference --output-dir %t/u8-reference
// RUN: cmp %t/u8-vnni/y.npy %t/u8-reference/y.npy
