// Bad input: one line naming the problem, exit code 1, and no bundle file written.
// RUN: rm -rf %t && mkdir -p %t

// RUN: not glow-compile %t/missing.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: glow-compile: error: cannot read '{{.*}}missing.mlir'
// RUN: not test -e %t/out

// RUN: not glow-compile %S/Inputs/tiny-cnn.mlir --function nope -o %t/out 2>&1 | FileCheck %s --check-prefix=FUNCTION
// FUNCTION: glow-compile: error: no function @nope in the module
// RUN: not test -e %t/out

// An op with no lowering yet: the located error names it, and no files are written.
// RUN: not glow-compile %s -o %t/out 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: glow-compile: error: pass pipeline failed: {{.*}}bad-input.mlir":[[@LINE+9]]:12): glow-graph-to-linalg: no conversion for 'glow.graph.top_k'
// RUN: not test -e %t/out

// The output folder is a file.
// RUN: touch %t/file
// RUN: not glow-compile %S/Inputs/tiny-cnn.mlir -o %t/file 2>&1 | FileCheck %s --check-prefix=FOLDER
// FOLDER: glow-compile: error: cannot create '{{.*}}file'

func.func @main(%x: tensor<2x8xf32>) -> tensor<2x3xf32> {
  %v, %i = glow.graph.top_k %x k 3 axis 1 : tensor<2x8xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  return %v : tensor<2x3xf32>
}
