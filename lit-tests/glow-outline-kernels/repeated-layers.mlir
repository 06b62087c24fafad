// Three dense layers of one shape (MatMul, Add, Relu; each its own weights) through the
// whole CPU pipeline: each layer's kernels are one function per distinct kernel, called
// once per layer, and the model still agrees with onnxruntime (glow-run's planned
// pipeline, where the weights are views of one buffer passed as bare pointers).
// RUN: %python %S/Inputs/repeated_layers.py %t.onnx
// RUN: glow-import %t.onnx | glow-opt --glow-cpu-pipeline | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=8x64 --bin %glow_bin | FileCheck %s --check-prefix=AGREES

// CHECK-LABEL: llvm.func @main(
// CHECK: llvm.call @[[FIRST:main_kernel_[0-9]+]](
// CHECK: llvm.call @[[SECOND:main_kernel_[0-9]+]](
// CHECK: llvm.call @[[FIRST]](
// CHECK: llvm.call @[[SECOND]](
// CHECK: llvm.call @[[FIRST]](
// CHECK: llvm.call @[[SECOND]](
// CHECK-NOT: llvm.call @main_kernel
// CHECK-COUNT-2: llvm.func @main_kernel_{{[0-9]+}}({{.*}}) attributes {passthrough = ["noinline"], sym_visibility = "private"}
// CHECK-NOT: llvm.func @main_kernel

// AGREES: PASS: worst ratio
