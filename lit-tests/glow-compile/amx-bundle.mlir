// A bundle for another CPU: --target-cpu sapphirerapids --int8-kernels amx compiles
// an int8 layer into AMX code whatever this host is (the C program that runs it needs
// an AMX CPU; the kernels ask Linux for the tile state through syscall themselves).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-quant-kernels/Inputs/qlinear_conv.py %t/layer.onnx 64 64 14 14 3 1 1 u
// RUN: glow-compile %t/layer.onnx --target-cpu sapphirerapids --int8-kernels amx -o %t/out | FileCheck %s --check-prefix=BUNDLE
// BUNDLE: bundle layer: {{.*}}layer.o
// RUN: llvm-objdump -d %t/out/layer.o | FileCheck %s
// CHECK: ldtilecfg
// CHECK: tileloadd
// CHECK: tdpbusd
// CHECK: tilerelease
// RUN: llvm-nm %t/out/layer.o | FileCheck %s --check-prefix=SYMBOLS
// SYMBOLS: U syscall
// The same for an AVX-512 target without AMX: VNNI only.
// RUN: glow-compile %t/layer.onnx --target-cpu znver4 --int8-kernels avx512-vnni -o %t/vnni
// RUN: llvm-objdump -d %t/vnni/layer.o | FileCheck %s --check-prefix=VNNI
// VNNI: vpdpbusd
// VNNI-NOT: tdpbusd
