// f32 matmul / batch_matmul are computed on operands widened with zero columns
// (constant weights at compile time, runtime operands by tensor.pad) and sliced back:
// with fewer than 4 rows, column counts above 16 and no multiple of it, to a multiple
// of 64 when that adds at most 1/16 of the columns, else of 16; with 4 rows or more, a
// width that still leaves 16-lane tiles goes to a multiple of 32 or 64 when that does
// more useful work (16-lane tiles count half: 100 -> 128, 80 -> 96, 197 -> 224), and
// widths giving 32- or 64-lane tiles are kept (480). Row counts whose divisors leave
// register tiles under half height (197) get zero rows. 16 columns or fewer and
// well-divided row counts are left as they are.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.random.default_rng(3).standard_normal((3, 2)).astype(np.float32))"
// RUN: glow-run %s --function execute --threads 1 --input x=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); w = np.arange(40, dtype=np.float32).reshape(2, 20) / 8 - 2; y = np.load('%t/out/output0.npy'); print(y.shape, np.allclose(y, x @ w, rtol=1e-6, atol=1e-6))" | FileCheck %s --check-prefix=EXEC
// EXEC: (3, 20) True
// RUN: %python -c "import numpy as np; rng = np.random.default_rng(4); np.save('%t/q.npy', rng.standard_normal((3, 197, 64)).astype(np.float32)); np.save('%t/k.npy', rng.standard_normal((3, 64, 197)).astype(np.float32))"
// RUN: glow-run %s --function attention_scores --input q=%t/q.npy --input k=%t/k.npy --output-dir %t/scores
// RUN: %python -c "import numpy as np; q = np.load('%t/q.npy').astype(np.float64); k = np.load('%t/k.npy').astype(np.float64); y = np.load('%t/scores/output0.npy'); print(y.shape, np.abs(y - q @ k).max() < 1e-4)" | FileCheck %s --check-prefix=SCORES
// SCORES: (3, 197, 197) True

// CHECK-LABEL: func.func @classes
// CHECK: %[[W:.*]] = arith.constant dense_resource<widened{{.*}}> : tensor<64x1024xf32>
// CHECK: %[[P:.*]] = linalg.matmul ins(%arg0, %[[W]] : tensor<1x64xf32>, tensor<64x1024xf32>) outs(%{{.*}} : tensor<1x1024xf32>)
// CHECK: tensor.extract_slice %[[P]][0, 0] [1, 1000] [1, 1] : tensor<1x1024xf32> to tensor<1x1000xf32>
func.func @classes(%x: tensor<1x64xf32>) -> tensor<1x1000xf32> {
  %w = glow.graph.splat 0.5 : tensor<64x1000xf32>
  %y = glow.graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x1000xf32>) -> tensor<1x1000xf32>
  return %y : tensor<1x1000xf32>
}

// 100 columns over 4 rows: to 128 (64-lane tiles; 112 would leave 16-lane tiles with
// a quarter of the accumulators: one thread, 64 x 384 x 100 0.041 -> 0.025 ms). Over
// one row: to 112 (128 would add more than 1/16). 80 columns over 8 rows: to 96
// (32-lane tiles; 128 x 768 x 80 0.116 -> 0.086 ms).
// CHECK-LABEL: func.func @hundred
// CHECK: linalg.matmul ins(%arg0, %{{.*}} : tensor<4x8xf32>, tensor<8x128xf32>) outs(%{{.*}} : tensor<4x128xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [4, 100] [1, 1] : tensor<4x128xf32> to tensor<4x100xf32>
// CHECK: linalg.matmul ins(%arg1, %{{.*}} : tensor<1x8xf32>, tensor<8x112xf32>) outs(%{{.*}} : tensor<1x112xf32>)
// CHECK: linalg.matmul ins(%arg2, %{{.*}} : tensor<8x8xf32>, tensor<8x96xf32>) outs(%{{.*}} : tensor<8x96xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [8, 80] [1, 1] : tensor<8x96xf32> to tensor<8x80xf32>
func.func @hundred(%x: tensor<4x8xf32>, %v: tensor<1x8xf32>, %e: tensor<8x8xf32>) -> (tensor<4x100xf32>, tensor<1x100xf32>, tensor<8x80xf32>) {
  %w = glow.graph.splat 0.25 : tensor<8x100xf32>
  %y = glow.graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x100xf32>) -> tensor<4x100xf32>
  %z = glow.graph.matmul %v, %w : (tensor<1x8xf32>, tensor<8x100xf32>) -> tensor<1x100xf32>
  %u = glow.graph.splat 0.5 : tensor<8x80xf32>
  %t = glow.graph.matmul %e, %u : (tensor<8x8xf32>, tensor<8x80xf32>) -> tensor<8x80xf32>
  return %y, %z, %t : tensor<4x100xf32>, tensor<1x100xf32>, tensor<8x80xf32>
}

// 480 columns over 8 rows: 32-lane tiles already, kept (not 512). 80 columns over one
// row: kept (too few rows for the accumulators to matter).
// CHECK-LABEL: func.func @kept_widths
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.matmul ins(%arg0, %{{.*}} : tensor<8x8xf32>, tensor<8x480xf32>)
// CHECK: linalg.matmul ins(%arg1, %{{.*}} : tensor<1x8xf32>, tensor<8x80xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @kept_widths(%x: tensor<8x8xf32>, %v: tensor<1x8xf32>) -> (tensor<8x480xf32>, tensor<1x80xf32>) {
  %w = glow.graph.splat 0.25 : tensor<8x480xf32>
  %y = glow.graph.matmul %x, %w : (tensor<8x8xf32>, tensor<8x480xf32>) -> tensor<8x480xf32>
  %u = glow.graph.splat 0.5 : tensor<8x80xf32>
  %z = glow.graph.matmul %v, %u : (tensor<1x8xf32>, tensor<8x80xf32>) -> tensor<1x80xf32>
  return %y, %z : tensor<8x480xf32>, tensor<1x80xf32>
}

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.matmul ins(%arg0, %{{.*}} : tensor<1x8xf32>, tensor<8x32xf32>)
// CHECK: linalg.matmul ins(%arg0, %{{.*}} : tensor<1x8xf32>, tensor<8x12xf32>)
// CHECK: linalg.matmul ins(%arg1, %{{.*}} : tensor<64x8xf32>, tensor<8x32xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @left_alone(%x: tensor<1x8xf32>, %rows: tensor<64x8xf32>) -> (tensor<1x32xf32>, tensor<1x12xf32>, tensor<64x32xf32>) {
  %w32 = glow.graph.splat 0.5 : tensor<8x32xf32>
  %w12 = glow.graph.splat 0.5 : tensor<8x12xf32>
  %a = glow.graph.matmul %x, %w32 : (tensor<1x8xf32>, tensor<8x32xf32>) -> tensor<1x32xf32>
  %b = glow.graph.matmul %x, %w12 : (tensor<1x8xf32>, tensor<8x12xf32>) -> tensor<1x12xf32>
  %c = glow.graph.matmul %rows, %w32 : (tensor<64x8xf32>, tensor<8x32xf32>) -> tensor<64x32xf32>
  return %a, %b, %c : tensor<1x32xf32>, tensor<1x12xf32>, tensor<64x32xf32>
}

// Runtime weights of 20 columns: padded to 32 by tensor.pad.
// CHECK-LABEL: func.func @runtime_weights
// CHECK: %[[W:.*]] = tensor.pad %arg1 low[0, 0] high[0, 12]
// CHECK: linalg.matmul ins(%arg0, %[[W]] : tensor<1x8xf32>, tensor<8x32xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [1, 20] [1, 1] : tensor<1x32xf32> to tensor<1x20xf32>
func.func @runtime_weights(%x: tensor<1x8xf32>, %rw: tensor<8x20xf32>) -> tensor<1x20xf32> {
  %c = glow.graph.matmul %x, %rw : (tensor<1x8xf32>, tensor<8x20xf32>) -> tensor<1x20xf32>
  return %c : tensor<1x20xf32>
}

// 197 rows (prime): one-row register tiles; computed as 198 rows (6-row tiles).
// CHECK-LABEL: func.func @prime_rows
// CHECK: %[[X:.*]] = tensor.pad %arg0 low[0, 0] high[1, 0]
// CHECK: linalg.matmul ins(%[[X]], %arg1 : tensor<198x64xf32>, tensor<64x64xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [197, 64] [1, 1] : tensor<198x64xf32> to tensor<197x64xf32>
func.func @prime_rows(%x: tensor<197x64xf32>, %w: tensor<64x64xf32>) -> tensor<197x64xf32> {
  %y = glow.graph.matmul %x, %w : (tensor<197x64xf32>, tensor<64x64xf32>) -> tensor<197x64xf32>
  return %y : tensor<197x64xf32>
}

// Attention scores over 197 tokens (ViT-B/16): rows and columns padded per batch.
// CHECK-LABEL: func.func @attention_scores
// CHECK: %[[K:.*]] = tensor.pad %arg1 low[0, 0, 0] high[0, 0, 27]
// CHECK: %[[Q:.*]] = tensor.pad %arg0 low[0, 0, 0] high[0, 1, 0]
// CHECK: linalg.batch_matmul ins(%[[Q]], %[[K]] : tensor<3x198x64xf32>, tensor<3x64x224xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [3, 197, 197] [1, 1, 1] : tensor<3x198x224xf32> to tensor<3x197x197xf32>
func.func @attention_scores(%q: tensor<3x197x64xf32> {glow.name = "q"}, %k: tensor<3x64x197xf32> {glow.name = "k"}) -> tensor<3x197x197xf32> {
  %s = glow.graph.batch_matmul %q, %k : (tensor<3x197x64xf32>, tensor<3x64x197xf32>) -> tensor<3x197x197xf32>
  return %s : tensor<3x197x197xf32>
}

// Through the whole pipeline: 20 columns widened to 32, against numpy.
func.func @execute(%x: tensor<3x2xf32> {glow.name = "x"}) -> tensor<3x20xf32> {
  %w = glow.graph.constant dense<[[-2.0, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.125, 2.25, 2.375, 2.5, 2.625, 2.75, 2.875]]> : tensor<2x20xf32>
  %y = glow.graph.matmul %x, %w : (tensor<3x2xf32>, tensor<2x20xf32>) -> tensor<3x20xf32>
  return %y : tensor<3x20xf32>
}
