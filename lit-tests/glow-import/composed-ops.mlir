// ONNX ops glow-import builds from other glow.graph ops (their ONNX function bodies)
// and the trigonometric ops it maps one to one; every model runs and matches
// onnxruntime on random inputs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/composed_ops.py functions %t/functions.onnx
// RUN: glow-import %t/functions.onnx | FileCheck %s --check-prefix=FUNCTIONS
// Elu: x < 0 ? alpha (exp(x) - 1) : x
// FUNCTIONS: %[[NEG:.*]] = glow.graph.cmp_lt %arg0, %{{.*}} : tensor<2x4x4x6xf32>
// FUNCTIONS: %[[EXP:.*]] = glow.graph.exp %arg0
// FUNCTIONS: %[[EM1:.*]] = glow.graph.sub %[[EXP]], %{{.*}}
// FUNCTIONS: %[[SCALED:.*]] = glow.graph.mul %[[EM1]], %{{.*}}
// FUNCTIONS: glow.graph.select %[[NEG]], %[[SCALED]], %arg0
// FUNCTIONS: glow.graph.sin %arg0 : tensor<2x4x4x6xf32>
// FUNCTIONS: glow.graph.cos %arg0
// FUNCTIONS: glow.graph.atan %arg0
// Hardmax: the first maximum's position compared with an iota along the axis.
// FUNCTIONS: %[[ARG:.*]] = glow.graph.arg_max %arg0 axis 1 keep_dims
// FUNCTIONS: glow.graph.cmp_eq %{{.*}}, %{{.*}} : tensor<2x4x4x6xi64>
// DepthToSpace (CRD) and SpaceToDepth: reshape, transpose, reshape.
// FUNCTIONS: glow.graph.transpose %{{.*}} perm [0, 1, 4, 2, 5, 3] : tensor<2x1x2x2x4x6xf32> -> tensor<2x1x4x2x6x2xf32>
// FUNCTIONS: glow.graph.transpose %{{.*}} perm [0, 3, 5, 1, 2, 4] : tensor<2x4x2x2x3x2xf32> -> tensor<2x2x2x4x2x3xf32>
// ReduceLogSumExp shifts by the maximum first.
// FUNCTIONS: glow.graph.reduce_max %arg0 axes [2, 3] keep_dims
// Einsum bchw,bkhw->bck: one batch_matmul over the contracted h, w.
// FUNCTIONS: glow.graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x4x24xf32>, tensor<2x24x4xf32>) -> tensor<2x4x4xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/functions.onnx --input-shape x=2x4x4x6 --input-shape x2=2x4x4x6 --bin %glow_bin | FileCheck %s
// RUN: %python %S/Inputs/composed_ops.py attention-einsum %t/attention.onnx
// RUN: glow-import %t/attention.onnx | FileCheck %s --check-prefix=ATTENTION
// ATTENTION: glow.graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<4x5x8xf32>, tensor<4x8x5xf32>) -> tensor<4x5x5xf32>
// ATTENTION: glow.graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<4x5x5xf32>, tensor<4x5x8xf32>) -> tensor<4x5x8xf32>
// ATTENTION: glow.graph.transpose %{{.*}} perm [0, 2, 1, 3] : tensor<2x2x5x8xf32> -> tensor<2x5x2x8xf32>
// The ellipsis rows against constant weights: one matmul.
// ATTENTION: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<10x16xf32>, tensor<16x16xf32>) -> tensor<10x16xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/attention.onnx --input-shape q=2x2x5x8 --input-shape k=2x2x5x8 --input-shape v=2x2x5x8 --bin %glow_bin | FileCheck %s
// RUN: %python %S/Inputs/composed_ops.py positions %t/positions.onnx
// RUN: glow-import %t/positions.onnx | FileCheck %s --check-prefix=POSITIONS
// POSITIONS: glow.graph.cumsum %{{.*}} axis 1 : tensor<2x6xi64>
// POSITIONS: glow.graph.cumsum %{{.*}} axis 1 exclusive reverse : tensor<2x6xi64>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/positions.onnx --input-shape input_ids=2x6 --int-high 4 --bin %glow_bin | FileCheck %s
// Bitwise ops on integers (BitwiseNot as xor with all ones) and the signal windows,
// which are import-time constants.
// RUN: %python %S/Inputs/composed_ops.py bits %t/bits.onnx
// RUN: glow-import %t/bits.onnx | FileCheck %s --check-prefix=BITS
// BITS: glow.graph.and %arg0, %arg1 : tensor<2x8xui8>
// BITS: glow.graph.xor %arg2, %arg3 : tensor<5xi32>
// BITS: %[[ONES:.*]] = glow.graph.splat 255 : tensor<2x8xui8>
// BITS: glow.graph.xor %arg0, %[[ONES]] : tensor<2x8xui8>
// BITS: glow.graph.constant dense<[0.000000e+00, 0.0954915{{[0-9]*}}, {{.*}}]> : tensor<10xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/bits.onnx --input-shape a=2x8 --input-shape b=2x8 --input-shape i=5 --input-shape j=5 --int-high 200 --bin %glow_bin | FileCheck %s
// CHECK: PASS

// Bad input: one line naming the node and what is wrong, exit 1, no output file.
// RUN: %python %S/Inputs/composed_ops.py bad-einsum-label %t/bad1.onnx
// RUN: not glow-import %t/bad1.onnx -o %t/bad1.mlir 2>&1 | FileCheck %s --check-prefix=BAD1
// RUN: not test -e %t/bad1.mlir
// BAD1: glow-import: error: node 'y' (Einsum): '1' is not a label (letters and ... only)
// RUN: %python %S/Inputs/composed_ops.py bad-einsum-diagonal %t/bad2.onnx
// RUN: not glow-import %t/bad2.onnx 2>&1 | FileCheck %s --check-prefix=BAD2
// BAD2: glow-import: error: node 'y' (Einsum): repeated labels in 'ii' (diagonals) are not supported
// RUN: %python %S/Inputs/composed_ops.py bad-einsum-operands %t/bad3.onnx
// RUN: not glow-import %t/bad3.onnx 2>&1 | FileCheck %s --check-prefix=BAD3
// BAD3: glow-import: error: node 'y' (Einsum): equation 'ij->i' names 1 operands, the node has 2
// RUN: %python %S/Inputs/composed_ops.py bad-gather-nd-batch %t/bad4.onnx
// RUN: not glow-import %t/bad4.onnx 2>&1 | FileCheck %s --check-prefix=BAD4
// BAD4: glow-import: error: node 'y' (GatherND): the batch dimensions of data and indices differ
// RUN: %python %S/Inputs/composed_ops.py bad-depth %t/bad5.onnx
// RUN: not glow-import %t/bad5.onnx 2>&1 | FileCheck %s --check-prefix=BAD5
// BAD5: glow-import: error: node 'y' (DepthToSpace): 8 channels are not a multiple of blocksize^2 = 9
