// The VNNI kernel's inner loop compiles to 512-bit vpdpbusd (LLVM for a Zen 4 target,
// whatever this host is), 14 of them (7 pixels x 2 vectors of 16 channels), fed by
// 32-bit broadcasts of the activations and whole 64-byte loads of packed weights.
// RUN: glow-opt %S/Inputs/dense-conv.mlir --pass-pipeline='builtin.module(glow-quant-kernels{isa=avx512-vnni},glow-cpu-pipeline)' -o %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: llc -O3 -mcpu=znver4 %t.ll -o - | FileCheck %s
// CHECK: vpbroadcastd (%
// CHECK-COUNT-14: vpdpbusd %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
