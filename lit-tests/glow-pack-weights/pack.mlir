// glow-pack-weights: a convolution or matmul whose constant f32 weights exceed half
// the L2 cache loops over tiles of its output channels, each tile reading its own
// contiguous block of a weight copy packed at compile time ([F/t, KH, KW, C, t] and
// [N/t, K, t]); the init (bias broadcast or fill) is computed per tile inside the
// loop. Small weights, non-constant weights and a single channel tile are left alone.
// RUN: %python %S/Inputs/weights.py mlir %t.mlir
// RUN: glow-opt %t.mlir --pass-pipeline='builtin.module(func.func(glow-pack-weights),canonicalize,cse)' | FileCheck %s --check-prefix=PACKED
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-pack-weights),canonicalize,cse)' | FileCheck %s
// The packed model computes what onnxruntime computes (Conv 3x3 128 -> 160 on 7x7
// and Gemm 7840 -> 640 are both packed; the Gemm's bias and Tanh run in its loop):
// RUN: %python %S/Inputs/weights.py onnx %t.onnx
// RUN: rm -rf %t.out && glow-run %t.onnx --threads 1 --input x=%t.onnx.x.npy --output-dir %t.out
// RUN: %python %S/Inputs/weights.py check %t.onnx %t.onnx.x.npy %t.out/y.npy | FileCheck %s --check-prefix=RESULT
// RESULT: normalized max error {{.*}}: ok
// The Gemm's loop, its bias and Tanh inside, is reported under the Gemm's name:
// RUN: glow-run %t.onnx --threads 1 --profile-layers --input x=%t.onnx.x.npy | FileCheck %s --check-prefix=PROFILE
// PROFILE: layers:
// PROFILE-DAG: ms  scf.forall fc
// PROFILE-DAG: ms  scf.forall conv

// 3x3x512x512 f32 (9.4 MB): 16 tiles of 32 filters (the register tile's width for
// 7-column rows); the bias broadcast is made per tile.
// PACKED-LABEL: func.func @conv
// PACKED: %[[PACKED:.*]] = arith.constant dense_resource<packed{{.*}}> : tensor<16x3x3x512x32xf32>
// PACKED: scf.forall (%[[T:.*]]) in (16) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x7x7x512xf32>)
// PACKED:   %[[W:.*]] = tensor.extract_slice %[[PACKED]][%[[T]], 0, 0, 0, 0] [1, 3, 3, 512, 32] [1, 1, 1, 1, 1] : tensor<16x3x3x512x32xf32> to tensor<3x3x512x32xf32>
// PACKED:   %[[BIAS:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}] [32] [1]
// PACKED:   %[[INIT:.*]] = linalg.broadcast ins(%[[BIAS]] : tensor<32xf32>) outs(%{{.*}} : tensor<1x7x7x32xf32>)
// PACKED:   linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x9x9x512xf32>, tensor<3x3x512x32xf32>) outs(%[[INIT]] : tensor<1x7x7x32xf32>)
// PACKED:   tensor.parallel_insert_slice

// A 384 x 1536 matmul weight (2.4 MB): 24 tiles of 64 columns; the zero fill is made
// per tile. The original weights are gone, and so are the tags.
// PACKED-LABEL: func.func @matmul
// PACKED: %[[PACKED:.*]] = arith.constant dense_resource<packed{{.*}}> : tensor<24x384x64xf32>
// PACKED: scf.forall (%[[T:.*]]) in (24)
// PACKED:   %[[W:.*]] = tensor.extract_slice %[[PACKED]][%[[T]], 0, 0] [1, 384, 64] [1, 1, 1] : tensor<24x384x64xf32> to tensor<384x64xf32>
// PACKED:   %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x64xf32>)
// PACKED:   linalg.matmul ins(%{{.*}}, %[[W]] : tensor<64x384xf32>, tensor<384x64xf32>) outs(%[[INIT]] : tensor<64x64xf32>)
// PACKED-NOT: glow.pack
// PACKED-NOT: conv_w:
// PACKED-NOT: mm_w:

// A matmul glow-stack marked: its epilogue (bias add, tanh) is looped over the column
// tiles with the matmul fused into the loop, so each 64 x 64 tile gets its epilogue
// while in the cache. The bias is read as a 64-vector (no broadcast written out), and
// the epilogue updates the matmul's tile in place (its output is the matmul's result),
// which the loop inserts into the result.
// PACKED-LABEL: func.func @matmul_epilogue
// PACKED: scf.forall (%[[T:.*]]) in (24) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<64x1536xf32>)
// PACKED:   %[[BIAS:.*]] = tensor.extract_slice %arg1[%{{.*}}] [64] [1] : tensor<1536xf32> to tensor<64xf32>
// PACKED:   %[[TILE:.*]] = tensor.extract_slice %[[OUT]][0, %{{.*}}] [64, 64] [1, 1]
// PACKED:   %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[TILE]] : tensor<64x64xf32>)
// PACKED:   %[[MM:.*]] = linalg.matmul {glow.stack} ins(%arg0, %{{.*}} : tensor<64x384xf32>, tensor<384x64xf32>) outs(%[[INIT]] : tensor<64x64xf32>)
// PACKED:   %[[EPI:.*]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<64xf32>) outs(%[[MM]] : tensor<64x64xf32>)
// PACKED:     arith.addf
// PACKED:     math.tanh
// PACKED:   tensor.parallel_insert_slice %[[EPI]] into %[[OUT]]
// PACKED-NOT: linalg.broadcast

// Two matmuls reading one constant read one packed copy (an unrolled recurrence's
// weights, read once per step, were packed once per step), and the copy's marker is
// gone after the pass.
// PACKED-LABEL: func.func @shared
// PACKED: %[[SHARED:.*]] = arith.constant dense_resource<packed{{.*}}> : tensor<24x384x64xf32>
// PACKED-NOT: glow.packed_copy
// PACKED: scf.forall
// PACKED:   tensor.extract_slice %[[SHARED]]
// PACKED: scf.forall
// PACKED:   tensor.extract_slice %[[SHARED]]
// PACKED-NOT: dense_resource<packed
// PACKED: return

// Two constants of one shape, next to each other, each read once: each matmul reads
// a packed copy of its own weights. (A copy is matched to its constant by number: by
// place alone, the second weights' copy, left right after the first weights once the
// second were erased, was taken for the first's, and both matmuls read it.)
// PACKED-LABEL: func.func @twins
// PACKED-DAG: %[[P1:.*]] = arith.constant dense_resource<packed{{.*}}> : tensor<24x384x64xf32>
// PACKED-DAG: %[[P2:.*]] = arith.constant dense_resource<packed{{.*}}> : tensor<24x384x64xf32>
// PACKED-DAG: tensor.extract_slice %[[P1]][
// PACKED-DAG: tensor.extract_slice %[[P2]][
// PACKED-NOT: glow.packed_source
// PACKED: return

// A convolution's epilogue stays after the loop (measured slower in it).
// PACKED-LABEL: func.func @conv_epilogue
// PACKED: %[[LOOP:.*]] = scf.forall
// PACKED:   linalg.conv_2d_nhwc_hwcf
// PACKED:   tensor.parallel_insert_slice
// PACKED: linalg.generic {{.*}} ins(%[[LOOP]] : tensor<1x7x7x512xf32>)

// Left alone: weights under half the L2 (3x3x64x64, 147 KB), weights that are not a
// constant, one channel tile (4096 x 32: the whole width is one register tile). (The
// constants are splats here, which need no packing: a splat's tile is a splat.)
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: scf.forall
// CHECK-NOT: dense_resource
// CHECK-COUNT-3: linalg.{{conv_2d_nhwc_hwcf|matmul}}
// CHECK-NOT: scf.forall
func.func @unchanged(%x: tensor<1x58x58x64xf32>, %wa: tensor<2048x2048xf32>, %a: tensor<4x2048xf32>, %c: tensor<4x4096xf32>)
    -> (tensor<1x56x56x64xf32>, tensor<4x2048xf32>, tensor<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %small = arith.constant dense<0.5> : tensor<3x3x64x64xf32>
  %e0 = tensor.empty() : tensor<1x56x56x64xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %small : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%i0 : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %e1 = tensor.empty() : tensor<4x2048xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x2048xf32>) -> tensor<4x2048xf32>
  %1 = linalg.matmul ins(%a, %wa : tensor<4x2048xf32>, tensor<2048x2048xf32>) outs(%i1 : tensor<4x2048xf32>) -> tensor<4x2048xf32>
  %narrow = arith.constant dense<0.5> : tensor<4096x32xf32>
  %e2 = tensor.empty() : tensor<4x32xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %2 = linalg.matmul ins(%c, %narrow : tensor<4x4096xf32>, tensor<4096x32xf32>) outs(%i2 : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0, %1, %2 : tensor<1x56x56x64xf32>, tensor<4x2048xf32>, tensor<4x32xf32>
}

// Weights whose data is not in the file (printed with
// --mlir-elide-resource-strings-if-larger: `dense_resource<__elided__>`) cannot be
// packed: the tiles slice the weights as they are, which are not read (this crashed
// glow-opt with a segmentation fault).
// CHECK-LABEL: func.func @elided
// CHECK: %[[W:.*]] = arith.constant dense_resource<__elided__> : tensor<384x1536xf32>
// CHECK: scf.forall
// CHECK: tensor.extract_slice %[[W]]
// CHECK: linalg.matmul
func.func @elided(%a: tensor<64x384xf32>) -> tensor<64x1536xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense_resource<__elided__> : tensor<384x1536xf32>
  %e = tensor.empty() : tensor<64x1536xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<64x384xf32>, tensor<384x1536xf32>) outs(%i : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  return %0 : tensor<64x1536xf32>
}
