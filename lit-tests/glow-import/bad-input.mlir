// Bad models get one line naming the node (name and op type), input or tensor and the
// reason; exit code 1; no output file; no panic.
// RUN: rm -rf %t && mkdir -p %t

// Truncated protobuf.
// RUN: %python %S/Inputs/models.py cnn %t/cnn.onnx
// RUN: head -c 300 %t/cnn.onnx > %t/truncated.onnx
// RUN: not glow-import %t/truncated.onnx -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not test -e %t/out.mlir
// TRUNCATED: glow-import: error: '{{.*}}truncated.onnx' is not a valid ONNX model: {{.*}}

// Not protobuf at all.
// RUN: echo "this is not a model" > %t/text.onnx
// RUN: not glow-import %t/text.onnx 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: glow-import: error: '{{.*}}text.onnx' is not a valid ONNX model

// Missing file.
// RUN: not glow-import %t/missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: glow-import: error: cannot read '{{.*}}missing.onnx': No such file or directory

// Unsupported ops: the first is named; --list-unsupported lists them all.
// RUN: %python %S/Inputs/models.py unsupported %t/unsupported.onnx
// RUN: not glow-import %t/unsupported.onnx -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=UNSUP-OP
// RUN: not test -e %t/out.mlir
// UNSUP-OP: glow-import: error: node 'det1' (Det): unsupported op (and 2 more; --list-unsupported lists them)
// RUN: not glow-import %t/unsupported.onnx --list-unsupported 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: Det (2 nodes): det1, det2
// LIST-NEXT: MaxRoiPool (1 node): pool
// LIST-NEXT: glow-import: error: 2 unsupported op type(s)

// Training-mode Dropout (random masks) is refused, not silently made the identity.
// RUN: %python %S/Inputs/models.py training-dropout %t/dropout.onnx
// RUN: not glow-import %t/dropout.onnx -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=DROPOUT
// RUN: not test -e %t/out.mlir
// DROPOUT: glow-import: error: node 'drop' (Dropout): training mode with a non-zero ratio (random masks) is not supported: glow compiles inference

// Unsupported opset.
// RUN: %python %S/Inputs/models.py old-opset %t/old.onnx
// RUN: not glow-import %t/old.onnx 2>&1 | FileCheck %s --check-prefix=OPSET
// OPSET: glow-import: error: unsupported opset 6 (supported: 7-28)

// Dynamic dimensions without --input-shape, and wrong --input-shape uses.
// RUN: not glow-import %t/cnn.onnx 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: glow-import: error: input 'x': dimension 0 ('N') is dynamic; pin it with --input-shape x=...
// RUN: not glow-import %t/cnn.onnx --input-shape x=2x3x16 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: glow-import: error: input 'x': --input-shape gives rank 3 but the model declares rank 4
// RUN: not glow-import %t/cnn.onnx --input-shape x=2x4x16x16 2>&1 | FileCheck %s --check-prefix=FIXED
// FIXED: glow-import: error: input 'x': --input-shape gives 4 for dimension 1, which the model fixes to 3
// RUN: not glow-import %t/cnn.onnx --input-shape y=1 2>&1 | FileCheck %s --check-prefix=NO-INPUT
// NO-INPUT: glow-import: error: input 'y': --input-shape names an input the model does not have
// RUN: not glow-import %t/cnn.onnx --input-shape x=2xAx16x16 2>&1 | FileCheck %s --check-prefix=BAD-DIMS
// BAD-DIMS: glow-import: error: --input-shape 'x=2xAx16x16': 'A' is not a dimension

// Shapes that do not fit: the node is named.
// RUN: %python %S/Inputs/models.py shape-mismatch %t/mismatch.onnx
// RUN: not glow-import %t/mismatch.onnx -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not test -e %t/out.mlir
// MISMATCH: glow-import: error: node 'mm' (MatMul): shapes [2, 3] and [5, 4] have different reduction sizes

// Transposed-convolution geometry is checked before the op is built.
// RUN: %python %S/Inputs/models.py conv-transpose-pads %t/ct-pads.onnx
// RUN: not glow-import %t/ct-pads.onnx -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=CT-PADS
// RUN: not test -e %t/out.mlir
// CT-PADS: glow-import: error: node 'up' (ConvTranspose): pads [9, 0, 9, 0] leave no output (extents before padding [5, 5])
// RUN: %python %S/Inputs/models.py conv-transpose-kernel %t/ct-kernel.onnx
// RUN: not glow-import %t/ct-kernel.onnx 2>&1 | FileCheck %s --check-prefix=CT-KERNEL
// CT-KERNEL: glow-import: error: node 'up' (ConvTranspose): 'kernel_shape' [2, 2] does not match the filter's spatial shape [3, 3]

// Trilu over a matrix larger than the mask limit, and a BitShift direction that is
// neither LEFT nor RIGHT.
// RUN: %python %S/Inputs/models.py trilu-too-large %t/trilu.onnx
// RUN: not glow-import %t/trilu.onnx -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=TRILU
// RUN: not test -e %t/out.mlir
// TRILU: glow-import: error: node 'tri' (Trilu): a 5000x5000 matrix exceeds the mask limit of 16777216 elements
// RUN: %python %S/Inputs/models.py bitshift-direction %t/shift.onnx
// RUN: not glow-import %t/shift.onnx 2>&1 | FileCheck %s --check-prefix=SHIFT
// SHIFT: glow-import: error: node 'shift' (BitShift): 'direction' must be LEFT or RIGHT, got 'UP'

// Attributes outside what ONNX defines: a perm that repeats a dimension, split sizes
// that sum right but hold a negative, a 0/1 flag set to 2.
// RUN: %python %S/Inputs/models.py transpose-perm %t/perm.onnx
// RUN: not glow-import %t/perm.onnx 2>&1 | FileCheck %s --check-prefix=PERM
// PERM: glow-import: error: node 't' (Transpose): perm [0, 0, 1] is not a permutation of the 3 dimensions of [2, 3, 4]
// RUN: %python %S/Inputs/models.py split-sizes %t/split.onnx
// RUN: not glow-import %t/split.onnx 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: glow-import: error: node 'sp' (Split): split sizes [6, -2] do not cover dimension 0 (4) in 2 outputs
// RUN: %python %S/Inputs/models.py flag-attribute %t/flag.onnx
// RUN: not glow-import %t/flag.onnx 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: glow-import: error: node 'mean' (ReduceMean): attribute 'keepdims' is 2; it must be 0 or 1

// Resize geometry from hostile constants: a NaN scale.
// RUN: %python %S/Inputs/models.py resize-nan-scale %t/resize.onnx
// RUN: not glow-import %t/resize.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE
// RESIZE: glow-import: error: node 'up' (Resize): scale NaN is not a positive finite number

// Gemm's reduction sizes are checked before the op is built (found by the mutation
// fuzzer: the builder's type inference used to reject it with a caught panic).
// RUN: %python %S/Inputs/models.py gemm-mismatch %t/gemm.onnx
// RUN: not glow-import %t/gemm.onnx 2>&1 | FileCheck %s --check-prefix=GEMM
// GEMM: glow-import: error: node 'fc' (Gemm): A [1, 72] and B [128, 10] (after transposition) have different reduction sizes (72 vs 128)

// Concat pieces that differ other than along the axis (found by the fuzzer: this once
// reached MLIR's verifier as a panic).
// RUN: %python %S/Inputs/models.py concat-mismatch %t/concat.onnx
// RUN: not glow-import %t/concat.onnx -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=CONCAT
// RUN: not test -e %t/out.mlir
// CONCAT: glow-import: error: node 'cat' (Concat): input #1 has shape [5, 4], input #0 [2, 3]: they differ in dimension 1, not only along axis 0
// RUN: %python %S/Inputs/models.py concat-rank %t/concat-rank.onnx
// RUN: not glow-import %t/concat-rank.onnx 2>&1 | FileCheck %s --check-prefix=CAT-RANK
// CAT-RANK: glow-import: error: node 'cat' (Concat): input #1 has rank 1, input #0 rank 2
// RUN: %python %S/Inputs/models.py concat-overflow %t/concat-overflow.onnx
// RUN: not glow-import %t/concat-overflow.onnx 2>&1 | FileCheck %s --check-prefix=CAT-OVERFLOW
// CAT-OVERFLOW: glow-import: error: node 'cat' (Concat): the pieces' sizes along axis 1 overflow
// Every piece empty along the axis is valid: the result is the (empty) first piece.
// RUN: %python %S/Inputs/models.py concat-all-empty %t/concat-empty.onnx
// RUN: glow-import %t/concat-empty.onnx | FileCheck %s --check-prefix=CAT-EMPTY
// CAT-EMPTY: glow.graph.concat %arg0 dim 1 : (tensor<2x0xf32>) -> tensor<2x0xf32>

// More shapes the fuzzer found reaching MLIR's verifier: each is now the node's error.
// RUN: %python %S/Inputs/models.py tile-repeats %t/tile.onnx
// RUN: not glow-import %t/tile.onnx 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: glow-import: error: node 'tile' (Tile): 'repeats' has 3 values for an input of rank 2
// A zero repeat count is valid ONNX: an empty result, matching onnxruntime.
// RUN: %python %S/Inputs/models.py tile-zero %t/tile-zero.onnx
// RUN: glow-import %t/tile-zero.onnx | FileCheck %s --check-prefix=TILE-ZERO
// TILE-ZERO: -> (tensor<4x0xf32> {glow.name = "y"})
// RUN: %python %S/Inputs/models.py topk-too-large %t/topk.onnx
// RUN: not glow-import %t/topk.onnx 2>&1 | FileCheck %s --check-prefix=TOPK
// TOPK: glow-import: error: node 'top' (TopK): K = 5 must lie in 0..=3 (the size of axis 1)
// RUN: %python %S/Inputs/models.py conv-rank-2 %t/conv2.onnx
// RUN: not glow-import %t/conv2.onnx 2>&1 | FileCheck %s --check-prefix=CONV-RANK
// CONV-RANK: glow-import: error: node 'conv' (Conv): the input has rank 2; a window needs (N, C, spatial...) with 1 to 3 spatial dimensions
// RUN: %python %S/Inputs/models.py global-pool-empty %t/gap.onnx
// RUN: not glow-import %t/gap.onnx 2>&1 | FileCheck %s --check-prefix=GAP
// GAP: glow-import: error: node 'gap' (GlobalAveragePool): the input [1, 2, 0, 3] has an empty spatial dimension: nothing to pool
// RUN: %python %S/Inputs/models.py reshape-overflow %t/reshape.onnx
// RUN: not glow-import %t/reshape.onnx 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RESHAPE: glow-import: error: node 'reshape' (Reshape): dimensions [1099511627776, 1099511627776] overflow

// Names and op types with control characters stay on one line (escaped).
// RUN: %python %S/Inputs/models.py newline-names %t/newline.onnx
// RUN: not glow-import %t/newline.onnx 2>&1 | FileCheck %s --check-prefix=NEWLINE
// NEWLINE: glow-import: error: node 'bad\nname' (Relu\nInjected): unsupported op
// NEWLINE-NOT: Injected

// raw_data shorter than the dims need.
// RUN: %python %S/Inputs/models.py bad-raw-data %t/raw.onnx
// RUN: not glow-import %t/raw.onnx 2>&1 | FileCheck %s --check-prefix=RAW
// RAW: glow-import: error: tensor 'w': raw_data holds 8 bytes but dims [4] of F32 need 16

// A 2^40-element tensor with 16 bytes of data, and dims whose product overflows.
// RUN: %python %S/Inputs/models.py huge-dims %t/huge.onnx
// RUN: not glow-import %t/huge.onnx 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: glow-import: error: tensor 'w': raw_data holds 16 bytes but dims [1048576, 1048576] of F32 need 4398046511104
// RUN: %python %S/Inputs/models.py overflow-dims %t/overflow.onnx
// RUN: not glow-import %t/overflow.onnx 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: glow-import: error: tensor 'w': dimensions [1099511627776, 1099511627776] overflow

// A weight cap.
// RUN: not glow-import %t/cnn.onnx --input-shape x=1x3x16x16 --max-weights-bytes 100 2>&1 | FileCheck %s --check-prefix=CAP
// CAP: glow-import: error: tensor '{{.*}}': weights exceed --max-weights-bytes (100 bytes)


// 10,000 nested graphs: refused by the decoder's recursion limit, not a stack overflow.
// RUN: %python %S/Inputs/models.py deep-graph %t/deep.onnx
// RUN: not glow-import %t/deep.onnx 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: glow-import: error: '{{.*}}deep.onnx' is not a valid ONNX model: failed to decode Protobuf message: recursion limit reached

// A reader that stops early (a closed pipe) ends glow-import quietly with status 0.
// RUN: glow-import --list-supported 2>&1 | head -1 | FileCheck %s --check-prefix=PIPE
// PIPE: opsets 7-28

// Constant indices outside their dimension are import-time errors naming the node
// (ONNX: out of range is an error), for every op that indexes by data.
// RUN: %python %S/Inputs/models.py constant-index-gather %t.cig.onnx
// RUN: not glow-import %t.cig.onnx 2>&1 | FileCheck %s --check-prefix=CONST-GATHER
// CONST-GATHER: glow-import: error: node 'g' (Gather): index 3 is outside [-3, 2] (a dimension of 3)
// RUN: %python %S/Inputs/models.py constant-index-elements %t.cie.onnx
// RUN: not glow-import %t.cie.onnx 2>&1 | FileCheck %s --check-prefix=CONST-ELEMENTS
// CONST-ELEMENTS: glow-import: error: node 'ge' (GatherElements): index 3 is outside [-3, 2] (a dimension of 3)
// RUN: %python %S/Inputs/models.py constant-index-scatter %t.cis.onnx
// RUN: not glow-import %t.cis.onnx 2>&1 | FileCheck %s --check-prefix=CONST-SCATTER
// CONST-SCATTER: glow-import: error: node 'se' (ScatterElements): index 3 is outside [-3, 2] (a dimension of 3)
