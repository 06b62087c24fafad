// On a CPU without AMX (or without the kernel's permission), asking glow-run for AMX
// kernels is a one-line error before anything is compiled; glow-compile builds AMX
// bundles for other CPUs (glow-compile/amx-bundle.mlir).
// UNSUPPORTED: amx
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-quant-kernels/Inputs/qlinear_conv.py %t/layer.onnx 64 64 14 14 3 1 1 u
// RUN: not glow-run %t/layer.onnx --int8-kernels amx --output-dir %t/out 2>&1 | FileCheck %s
// CHECK: glow-run: error: --int8-kernels amx: this CPU has no AMX-INT8 (or Linux does not grant this process the AMX tile state), so it cannot run that code
// CHECK-NOT: panicked
// RUN: not ls %t/out
