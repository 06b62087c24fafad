// LSTM, GRU and RNN unrolled over their sequence: one matmul projects every step's
// input, then each step multiplies the hidden state by the recurrence weights. The
// models match onnxruntime: a bidirectional LSTM with biases, initial states,
// peepholes, clip and runtime sequence lengths; a reverse GRU with
// linear_before_reset feeding an RNN with a listed activation (ScaledTanh).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/recurrent.py lstm %t/lstm.onnx
// RUN: glow-import %t/lstm.onnx | FileCheck %s --check-prefix=LSTM
// The forward direction: the input projection of the 6 steps x batch 3, then step 0.
// LSTM: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<18x5xf32>, tensor<5x16xf32>) -> tensor<18x16xf32>
// LSTM: glow.graph.slice %{{.*}} start [0, 0, 0] : tensor<6x3x16xf32> -> tensor<1x3x16xf32>
// LSTM: glow.graph.matmul %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4x16xf32>) -> tensor<3x16xf32>
// A step past a sequence's end keeps the state: lens > t selects the new one.
// LSTM: glow.graph.cmp_lt %{{.*}}, %{{.*}} : tensor<3x1xi32>
// LSTM: glow.graph.select
// The reverse direction starts at the last step.
// LSTM: glow.graph.slice %{{.*}} start [5, 0, 0] : tensor<6x3x16xf32> -> tensor<1x3x16xf32>
// Y [T, 2, B, H] joins the directions; Y_h, Y_c [2, B, H].
// LSTM: glow.graph.concat {{.*}} dim 1 : {{.*}} -> tensor<6x2x3x4xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/lstm.onnx --input-shape x=6x3x5 --input-shape lens=3 --int-low 1 --int-high 7 --bin %glow_bin | FileCheck %s
// RUN: %python %S/Inputs/recurrent.py gru %t/gru.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/gru.onnx --input-shape x=7x2x5 --bin %glow_bin | FileCheck %s
// CHECK: PASS

// The recurrence weights, transposed at import, are one constant that every step reads
// (emitted per step, a 2-layer LSTM over 512 steps imported 1,025 copies of its 1 MB
// weights: 2.1 GB of text, 1.3 GB of memory and a 28 ms run, now 9 MB, 0.23 GB, 9.5 ms).
// RUN: %python %S/../glow-outline-kernels/Inputs/lstm.py %t/shared.onnx
// RUN: glow-import %t/shared.onnx | FileCheck %s --check-prefix=SHARED
// SHARED: %[[RT:.*]] = glow.graph.constant dense_resource<{{.*}}> : tensor<64x256xf32>
// SHARED-COUNT-16: glow.graph.matmul %{{.*}}, %[[RT]] : (tensor<1x64xf32>, tensor<64x256xf32>)
// SHARED-NOT: tensor<64x256xf32>

// Bad input: one line naming the node and what is wrong, exit 1, no output file.
// RUN: %python %S/Inputs/recurrent.py input-forget %t/bad1.onnx
// RUN: not glow-import %t/bad1.onnx -o %t/bad1.mlir 2>&1 | FileCheck %s --check-prefix=BAD1
// RUN: not test -e %t/bad1.mlir
// BAD1: glow-import: error: node 'lstm' (LSTM): input_forget = 1 (coupled input and forget gates) is not supported
// RUN: %python %S/Inputs/recurrent.py activation %t/bad2.onnx
// RUN: not glow-import %t/bad2.onnx 2>&1 | FileCheck %s --check-prefix=BAD2
// BAD2: glow-import: error: node 'lstm' (LSTM): activation 'Gelu' is not supported
// RUN: %python %S/Inputs/recurrent.py w-shape %t/bad3.onnx
// RUN: not glow-import %t/bad3.onnx 2>&1 | FileCheck %s --check-prefix=BAD3
// BAD3: glow-import: error: node 'lstm' (LSTM): W has shape [1, 12, 5], expected [1, 16, 5]
// RUN: %python %S/Inputs/recurrent.py steps %t/bad4.onnx
// RUN: not glow-import %t/bad4.onnx 2>&1 | FileCheck %s --check-prefix=BAD4
// BAD4: glow-import: error: node 'lstm' (LSTM): 5000 steps in 1 direction(s) exceed the 4096 steps glow-import unrolls
