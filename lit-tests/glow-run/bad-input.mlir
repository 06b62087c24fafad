// Wrong input names, shapes and dtypes, unreadable or truncated .npy files: one line
// naming the input or file, exit code 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/i.npy', np.zeros((2, 3), np.int64)); np.save('%t/s.npy', np.zeros((3, 2), np.float32)); np.save('%t/big.npy', np.zeros((64, 64), np.float32))"
// RUN: head -c 200 %t/big.npy > %t/truncated.npy
// RUN: echo "not numpy" > %t/text.npy

// RUN: not glow-run %s --input y=%t/s.npy 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: glow-run: error: --input names 'y', which is not an input (inputs: input0)
// RUN: not glow-run %s --input input0=%t/s.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: glow-run: error: input 'input0': '{{.*}}s.npy' holds F32 [3, 2], the model expects F32 [2, 3]
// RUN: not glow-run %s --input input0=%t/i.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: glow-run: error: input 'input0': '{{.*}}i.npy' holds I64 [2, 3], the model expects F32 [2, 3]
// RUN: not glow-run %s --input input0=%t/truncated.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: glow-run: error: '{{.*}}truncated.npy' declares shape [64, 64] (16384 bytes) but the file has only 200 bytes
// RUN: not glow-run %s --input input0=%t/text.npy 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: glow-run: error: '{{.*}}text.npy' is not a valid .npy file
// A shape with a zero dimension whose other dimensions' product overflows (found by
// the npy_reader fuzzer: npyz's strides overflowed in debug builds).
// RUN: not glow-run %s --input input0=%S/../../fuzz/regressions/npy_reader/zero-dimension-overflowing-strides.npy 2>&1 | FileCheck %s --check-prefix=STRIDES
// STRIDES: glow-run: error: '{{.*}}zero-dimension-overflowing-strides.npy' is not a valid .npy file: the shape's element count overflows
// RUN: not glow-run %s --input input0=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: glow-run: error: cannot read '{{.*}}missing.npy'
// RUN: not glow-run %s --function other 2>&1 | FileCheck %s --check-prefix=FUNCTION
// FUNCTION: glow-run: error: no function @other in the module
// RUN: not glow-run %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: glow-run: error: cannot read '{{.*}}missing.mlir'
// RUN: %python %S/../glow-graph-optimize/Inputs/empty_batch.py %t/batch.onnx
// RUN: not glow-run %t/batch.onnx --input-shape x=-1x3x16x16 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: glow-run: error: --input-shape 'x=-1x3x16x16': '-1' is not a dimension
// Weights without data (a module printed with --mlir-elide-resource-strings-if-larger):
// RUN: not glow-run %S/Inputs/elided-weights.mlir 2>&1 | FileCheck %s --check-prefix=ELIDED
// ELIDED: glow-run: error: cannot read the data of a constant of type memref<384x1536xf32> (a dense_resource without its blob

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = glow.graph.relu %x : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
