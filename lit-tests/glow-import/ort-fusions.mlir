// onnxruntime's transformer fusions (the com.microsoft ops its transformer optimizer
// writes into BERT-family models) import as the glow.graph ops of their definitions,
// with onnxruntime's mask semantics: EmbedLayerNormalization's mask index counts the
// mask's entries equal to 1, Attention's raw masks attend positive entries, a 1-D mask
// index gives end positions, `unidirectional` excludes later keys outright.
// RUN: %python %S/Inputs/ort_fusions.py fused %t.onnx
// RUN: glow-import %t.onnx --no-locations | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @main
// EmbedLayerNormalization: word, position and segment embeddings summed, normalized.
// FUSED: glow.graph.gather %{{.*}}, %arg0 : (tensor<30x16xf32>, tensor<2x8xi32>) -> tensor<2x8x16xf32>
// FUSED: glow.graph.gather %{{.*}}, %arg1 : (tensor<4x16xf32>, tensor<2x8xi32>) -> tensor<2x8x16xf32>
// FUSED: %[[EMBEDDED:.*]] = glow.graph.layer_norm {{.*}} axis 2 epsilon 9.99999996E-13
// FUSED: %[[ONES:.*]] = glow.graph.cmp_eq %arg2, %{{.*}} : tensor<2x8xi32>
// FUSED: %[[COUNT:.*]] = glow.graph.convert %[[ONES]] : tensor<2x8xi1> -> tensor<2x8xi32>
// FUSED: %[[MASK_INDEX:.*]] = glow.graph.reduce_sum %[[COUNT]] axes [1] : tensor<2x8xi32> -> tensor<2xi32>
// Attention: the Q/K/V projection, per-head products scaled by 1/sqrt(8), keys at or
// after the mask index get -10000, softmax over keys.
// FUSED: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<16x16xf32>, tensor<16x48xf32>) -> tensor<16x48xf32>
// FUSED: glow.graph.batch_matmul {{.*}} -> tensor<4x8x8xf32>
// FUSED: glow.graph.splat 0.353553385 : tensor<4x8x8xf32>
// FUSED: glow.graph.reshape %[[MASK_INDEX]] : tensor<2xi32> -> tensor<2x1xi32>
// FUSED: glow.graph.cmp_lt
// FUSED: glow.graph.splat -1.000000e+04 : tensor<2x8xf32>
// FUSED: glow.graph.softmax %{{.*}} axis 3 : tensor<2x2x8x8xf32>
// SkipLayerNormalization: input + skip + bias, normalized; BiasGelu, FastGelu, Gelu.
// FUSED: glow.graph.add %{{.*}}, %[[EMBEDDED]] : tensor<2x8x16xf32>
// FUSED: glow.graph.layer_norm
// FUSED: glow.graph.gelu %{{.*}} : tensor<2x8x32xf32>
// FUSED: glow.graph.gelu %{{.*}} approximate : tensor<2x8x16xf32>
// FUSED-NEXT: glow.graph.gelu %{{.*}} : tensor<2x8x16xf32>
// The second Attention: 40 columns split 16 / 16 / 8, scale 0.25, the raw mask's
// positive entries attended, masked keys -1000, later keys the lowest float.
// FUSED: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<16x16xf32>, tensor<16x40xf32>) -> tensor<16x40xf32>
// FUSED: glow.graph.splat 2.500000e-01 : tensor<4x8x8xf32>
// FUSED: glow.graph.cmp_lt %{{.*}}, %arg2 : tensor<2x8xi32>
// FUSED: glow.graph.splat -1.000000e+03 : tensor<2x8xf32>
// FUSED: glow.graph.constant dense<{{.*}}-3.40282347E+38{{.*}}> : tensor<8x8xf32>
// FUSED: glow.graph.batch_matmul {{.*}} -> tensor<4x8x4xf32>

// Against onnxruntime's own kernels, mask values 0..3 (not only 0 / 1, where the
// conventions differ), tokens and segments 0..3; once through a .mlir file.
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape ids=2x8 --input-shape segments=2x8 --input-shape mask=2x8 --int-high 4 --bin %glow_bin | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape ids=2x8 --input-shape segments=2x8 --input-shape mask=2x8 --int-high 4 --bin %glow_bin --seed 1 --via-mlir | FileCheck %s --check-prefix=EXEC
// EXEC: output block: 256 values
// EXEC: output causal: 128 values
// EXEC: output residual: 256 values
// EXEC: output mask_index: 2 values, max |glow - ort| = 0,
// EXEC: PASS

// quantize_dynamic of that model: QAttention's projection is integer compute (the
// run-time zero point corrected by the weights' column sums, then input scale x weight
// scale), the float Attention follows; QEmbedLayerNormalization's tables are dequantized.
// RUN: %python %S/Inputs/ort_fusions.py dynamic %t.dynamic.onnx
// RUN: glow-import %t.dynamic.onnx --no-locations | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: glow.quant.dequantize %{{.*}} : tensor<30x16x!quant.uniform<u8:f32, {{.*}}>> -> tensor<30x16xf32>
// DYNAMIC: glow.quant.fully_connected {{.*}} -> tensor<16x48x!quant.uniform<i32:f32, 1.000000e+00>>
// DYNAMIC: glow.graph.sub %{{.*}}, %{{.*}} : tensor<2x8x48xi32>
// DYNAMIC: glow.graph.convert %{{.*}} : tensor<2x8x48xi32> -> tensor<2x8x48xf32>
// DYNAMIC: glow.graph.softmax
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.dynamic.onnx --input-shape ids=2x8 --input-shape segments=2x8 --input-shape mask=2x8 --int-high 4 --bin %glow_bin | FileCheck %s --check-prefix=EXEC

// What onnxruntime's session optimizer writes into a model it saves, and the T5 /
// Llama fusions: FusedConv is the convolution (+ Z) then its activation, FusedMatMul
// the transposed product times alpha, MatMulIntegerToFloat / DynamicQuantizeMatMul an
// integer product (int8 kernels) scaled to float, SimplifiedLayerNormalization an RMS
// norm, QuickGelu x * sigmoid(alpha x).
// RUN: %python %S/Inputs/ort_fusions.py session %t.session.onnx
// RUN: glow-import %t.session.onnx --no-locations | FileCheck %s --check-prefix=SESSION
// SESSION: %[[CONV:.*]] = glow.graph.conv2d %arg0
// SESSION-NEXT: %[[SUM:.*]] = glow.graph.add %[[CONV]], %arg1 : tensor<1x16x6x6xf32>
// SESSION-NEXT: glow.graph.relu %[[SUM]]
// SESSION: glow.graph.tanh
// SESSION: glow.graph.sigmoid
// SESSION: glow.graph.leaky_relu %{{.*}} alpha 2.000000e-01
// SESSION: glow.graph.hard_sigmoid %{{.*}} alpha 3.000000e-01 beta 4.000000e-01
// SESSION: glow.graph.clip %{{.*}} min -5.000000e-01 : f32 max 0.699999988 : f32
// SESSION: glow.graph.transpose %arg2 perm [0, 2, 1] : tensor<2x12x16xf32> -> tensor<2x16x12xf32>
// SESSION: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<32x12xf32>, tensor<12x16xf32>) -> tensor<32x16xf32>
// SESSION: glow.graph.splat 5.000000e-01 : tensor<2x16x16xf32>
// SESSION: glow.quant.fully_connected {{.*}} -> tensor<5x12x!quant.uniform<i32:f32, 1.000000e+00>>
// SESSION: glow.quant.fully_connected {{.*}} -> tensor<5x12x!quant.uniform<i32:f32, 1.000000e+00>>
// SESSION: glow.graph.sqrt
// SESSION: glow.graph.sigmoid
// onnxruntime's optimized session computes FusedConv with a Z input wrongly (its NCHWc
// rewrite gives neither relu(conv + Z) nor relu(conv) + Z); its own kernels as the
// model spells them agree with the definition, and with glow.
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.session.onnx --input-shape image=1x4x6x6 --input-shape z=1x16x6x6 --input-shape x=2x12x16 --input-shape rows=5x16 --input-shape rows_u8=5x16 --int-high 256 --ort-unoptimized --bin %glow_bin | FileCheck %s --check-prefix=SESSION-EXEC
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.session.onnx --input-shape image=1x4x6x6 --input-shape z=1x16x6x6 --input-shape x=2x12x16 --input-shape rows=5x16 --input-shape rows_u8=5x16 --int-high 256 --ort-unoptimized --seed 1 --bin %glow_bin | FileCheck %s --check-prefix=SESSION-EXEC
// SESSION-EXEC: output conv_Relu: 576 values
// SESSION-EXEC: output quick: 60 values
// SESSION-EXEC: PASS

// MatMulNBits (4-bit / 8-bit weight-only LLM matmuls): the weights are dequantized at
// import time (K = 40 in blocks of 16: the last block partial), a float matmul runs;
// onnxruntime's dequantize-then-matmul gives the same bits.
// RUN: %python %S/Inputs/ort_fusions.py nbits %t.nbits.onnx
// RUN: glow-import %t.nbits.onnx --no-locations | FileCheck %s --check-prefix=NBITS
// NBITS: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<6x40xf32>, tensor<40x24xf32>) -> tensor<6x24xf32>
// NBITS: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<6x40xf32>, tensor<40x8xf32>) -> tensor<6x8xf32>
// NBITS: glow.graph.add
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.nbits.onnx --input-shape x=2x3x40 --bin %glow_bin | FileCheck %s --check-prefix=NBITS-EXEC
// NBITS-EXEC: output q4: 144 values, max |glow - ort| = 0,
// NBITS-EXEC: output q8: 72 values
// NBITS-EXEC: PASS
// RUN: %python %S/Inputs/ort_fusions.py nbits-3 %t.nbits3.onnx
// RUN: not glow-import %t.nbits3.onnx 2>&1 | FileCheck %s --check-prefix=NBITS3
// NBITS3: glow-import: error: node 'q4' (MatMulNBits): bits = 3; 2, 4 and 8 are supported

// What the converters do not compute is refused with the node and the reason.
// RUN: %python %S/Inputs/ort_fusions.py batch-transpose %t.batch.onnx
// RUN: not glow-import %t.batch.onnx 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: glow-import: error: node 'fused' (FusedMatMul): transBatchA is not supported
// RUN: %python %S/Inputs/ort_fusions.py past %t.past.onnx
// RUN: not glow-import %t.past.onnx -o %t.past.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not test -e %t.past.mlir
// PAST: glow-import: error: node 'attended' (Attention): the past input is not supported
// RUN: %python %S/Inputs/ort_fusions.py flat-embed %t.flat.onnx
// RUN: not glow-import %t.flat.onnx 2>&1 | FileCheck %s --check-prefix=FLAT
// FLAT: glow-import: error: node 'embedded' (EmbedLayerNormalization): word embeddings of shape [480] and position embeddings of shape [8, 16]; both must be 2-D with the same hidden size
// RUN: %python %S/Inputs/ort_fusions.py negative-sizes %t.sizes.onnx
// RUN: not glow-import %t.sizes.onnx 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: glow-import: error: node 'causal' (Attention): qkv_hidden_sizes [-8, -8, 56] for 40 columns
