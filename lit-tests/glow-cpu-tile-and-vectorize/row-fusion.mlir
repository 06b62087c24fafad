// Row fusion (one thread): a depthwise convolution whose result is larger than half
// the L2 cache is computed by blocks of output rows inside the row loop of the 1x1
// projection that reads it, into one block-sized buffer every block reuses. The model
// (models.py depthwise-projections, 1 x 16 x 112 x 112) has three pairs: a projection
// with no epilogue (the loop is the projection's own), one with a residual add (the
// loop is the add's), and one after a stride-2 depthwise convolution.
// RUN: %python %S/../glow-import/Inputs/models.py depthwise-projections %t.onnx
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-channels-last{grouped=true}),glow-grouped-conv,inline,symbol-dce,func.func(glow-graph-to-linalg),canonicalize,cse,func.func(glow-generalize-elementwise,linalg-fuse-elementwise-ops,glow-stack,glow-pack-weights),canonicalize,cse,func.func(glow-cpu-tile-and-vectorize{threads=1}),canonicalize,cse)' | FileCheck %s
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-channels-last{grouped=true}),glow-grouped-conv,inline,symbol-dce,func.func(glow-graph-to-linalg),canonicalize,cse,func.func(glow-generalize-elementwise,linalg-fuse-elementwise-ops,glow-stack,glow-pack-weights),canonicalize,cse,func.func(glow-cpu-tile-and-vectorize{threads=2}),canonicalize,cse)' | FileCheck %s --check-prefix=THREADS
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x16x112x112 --threads 1 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x16x112x112 --threads 2 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: glow-run %t.onnx --threads 1 --memory-report | FileCheck %s --check-prefix=MEMORY

// The first pair: 14 blocks of 8 rows (8 x 112 x 16 floats); the depthwise tiles (8
// rows x 14 tiles of 8 columns) write the block buffer, the projection's tiles read it.
// CHECK: scf.forall (%{{.*}}) in (14) shared_outs(%{{.*}}) -> (tensor<1x112x112x16xf32>)
// CHECK: %[[BLOCK:.*]] = tensor.empty() : tensor<1x8x112x16xf32>
// CHECK: %[[DW:.*]] = scf.forall (%{{.*}}, %{{.*}}) in (8, 14) shared_outs(%{{.*}} = %[[BLOCK]])
// CHECK: vector.fma
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (8, 8)
// CHECK: vector.transfer_read %[[DW]]
// CHECK: vector.contract
// The expansion 16 -> 32 is not a pair: its own register tiles over the whole output.
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (112, 14) shared_outs
// The second pair: 28 blocks of 4 rows, the residual add in the projection's tiles.
// CHECK: scf.forall (%{{.*}}) in (28) shared_outs
// CHECK: %[[BLOCK2:.*]] = tensor.empty() : tensor<1x4x112x32xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (4, 14, 2) shared_outs(%{{.*}} = %[[BLOCK2]])
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, 8)
// CHECK: arith.addf
// The third pair: a stride-2 depthwise convolution, 14 blocks of 4 output rows.
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (112, 8, 3) shared_outs
// CHECK: scf.forall (%{{.*}}) in (14) shared_outs
// CHECK: tensor.empty() : tensor<1x4x56x48xf32>

// Two threads: no row loop (it would fork and join once per block); every kernel keeps
// its own register tiles over its whole output.
// THREADS-NOT: tensor<1x8x112x16xf32>
// THREADS-NOT: scf.forall (%{{.*}}) in (14)
// THREADS-NOT: scf.forall (%{{.*}}) in (28)

// ORT: PASS

// The block buffers replace two 1.6 MB depthwise results and one of 0.6 MB.
// MEMORY: activations: planned 3326464 bytes
