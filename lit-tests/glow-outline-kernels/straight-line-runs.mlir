// An LSTM over 16 steps (its cells' gates are one register row each, so no tile loop):
// each step's vector code (sigmoid, tanh, the cell update) moves out of @main into a
// kernel that returns the cell state to the next step, and the 14 middle steps share
// one kernel function; @main keeps no vector math. Before, @main held every step's
// math inline (a 2-layer LSTM over 64 steps: 58 s of LLVM code generation, now 0.6 s).
// The model still agrees with onnxruntime (glow-run's planned pipeline).
// RUN: %python %S/Inputs/lstm.py %t.onnx
// RUN: glow-import %t.onnx | glow-opt --glow-cpu-pipeline | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=16x1x32 --bin %glow_bin | FileCheck %s --check-prefix=AGREES

// CHECK-LABEL: llvm.func @main(
// CHECK-NOT: llvm.intr.fma
// CHECK-NOT: llvm.fdiv
// CHECK: %[[C1:.*]] = llvm.call @main_kernel_{{[0-9]+}}({{.*}}) : ({{.*}}) -> !llvm.array<1 x vector<64xf32>>
// CHECK-NOT: llvm.intr.fma
// CHECK: %[[C2:.*]] = llvm.call @[[CELL:main_kernel_[0-9]+]]({{.*}}%[[C1]]{{.*}}) : ({{.*}}) -> !llvm.array<1 x vector<64xf32>>
// CHECK-NOT: llvm.intr.fma
// CHECK: = llvm.call @[[CELL]]({{.*}}%[[C2]]{{.*}}) : ({{.*}}) -> !llvm.array<1 x vector<64xf32>>
// CHECK-COUNT-12: = llvm.call @[[CELL]](
// CHECK-NOT: llvm.intr.fma
// CHECK-NOT: llvm.fdiv
// CHECK: llvm.return

// AGREES: PASS: worst ratio
