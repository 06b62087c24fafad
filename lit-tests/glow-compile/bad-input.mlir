// Bad input: one line naming the problem, exit code 1, and no bundle file written.
// RUN: rm -rf %t && mkdir -p %t

// RUN: not glow-compile %t/missing.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: glow-compile: error: cannot read '{{.*}}missing.mlir'
// RUN: not test -e %t/out

// RUN: not glow-compile %S/Inputs/tiny-cnn.mlir --function nope -o %t/out 2>&1 | FileCheck %s --check-prefix=FUNCTION
// FUNCTION: glow-compile: error: no function @nope in the module
// RUN: not test -e %t/out

// An op with no lowering yet (quantization profiling has no CPU lowering): the
// located error names it, and no files are written.
// RUN: not glow-compile %s -o %t/out 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: glow-compile: error: pass pipeline failed: {{.*}}bad-input.mlir":[[@LINE+9]]:3): glow-graph-to-linalg: no conversion for 'glow.quant.profile'
// RUN: not test -e %t/out

// The output folder is a file.
// RUN: touch %t/file
// RUN: not glow-compile %S/Inputs/tiny-cnn.mlir -o %t/file 2>&1 | FileCheck %s --check-prefix=FOLDER
// FOLDER: glow-compile: error: cannot create '{{.*}}file'

func.func @main(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  glow.quant.profile %x name "x" : tensor<2x8xf32>
  return %x : tensor<2x8xf32>
}
