// Bad input: one line naming the problem, exit code 1, and no bundle file written.
// RUN: rm -rf %t && mkdir -p %t

// RUN: not glow-compile %t/missing.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: glow-compile: error: cannot read '{{.*}}missing.mlir'
// RUN: not test -e %t/out

// RUN: not glow-compile %S/Inputs/tiny-cnn.mlir --function nope -o %t/out 2>&1 | FileCheck %s --check-prefix=FUNCTION
// FUNCTION: glow-compile: error: no function @nope in the module
// RUN: not test -e %t/out

// An op a bundle cannot hold (profiling records into glow-run's recorder): the
// located error names it, and no files are written.
// RUN: not glow-compile %s -o %t/out 2>&1 | FileCheck %s --check-prefix=PROFILE
// PROFILE: glow-compile: error: loc("{{.*}}bad-input.mlir":[[@LINE+14]]:3): quantization profiling (glow.quant.profile) runs in glow-run --calibration ... --dump-profile, not in a bundle
// RUN: not test -e %t/out

// Another CPU's bundle must say which int8 kernels it runs.
// RUN: not glow-compile %S/Inputs/tiny-cnn.mlir --target-cpu znver4 -o %t/out 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: glow-compile: error: a bundle for --target-cpu znver4: say which int8 kernels it runs with --int8-kernels (amx, avx512-vnni, generic or reference)
// RUN: not test -e %t/out

// The output folder is a file.
// RUN: touch %t/file
// RUN: not glow-compile %S/Inputs/tiny-cnn.mlir -o %t/file 2>&1 | FileCheck %s --check-prefix=FOLDER
// FOLDER: glow-compile: error: cannot create '{{.*}}file'

func.func @main(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  glow.quant.profile %x name "x" : tensor<2x8xf32>
  return %x : tensor<2x8xf32>
}
