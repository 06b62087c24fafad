// The VBMI lookup kernels compute the reference lowering's bits (hosts with AVX-512
// VBMI only; elsewhere this test is reported UNSUPPORTED): a SiLU table over 800
// elements (a tail past the 64-byte pieces), on uint8 and on int8 activations.
// REQUIRES: avx512vbmi
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py silu-cnn-int8 %t/u8.onnx
// RUN: %python %S/../glow-import/Inputs/models.py silu-cnn-s8-activations %t/s8.onnx
// RUN: glow-import %t/u8.onnx | glow-opt --glow-cpu-pipeline | FileCheck %s
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.qi.512"
// RUN: glow-run %t/u8.onnx --output-dir %t/u8-vbmi
// RUN: glow-run %t/u8.onnx --int8-kernels reference --output-dir %t/u8-reference
// RUN: cmp %t/u8-vbmi/y.npy %t/u8-reference/y.npy
// RUN: glow-run %t/s8.onnx --output-dir %t/s8-vbmi
// RUN: glow-run %t/s8.onnx --int8-kernels reference --output-dir %t/s8-reference
// RUN: cmp %t/s8-vbmi/y.npy %t/s8-reference/y.npy
