// Row chains: a softmax whose rows hold at least 1 MB runs one row at a time: its max,
// exp, sum and divide fused into one row loop (the max and sum read each row while it
// is in L1), each step vectorized in pieces of 64 elements, the reductions folding
// their pieces into a 64-wide vector of partial results reduced once per row, and the
// row's last 1500 mod 64 = 28 elements one masked vector.
// RUN: sed -e 's/HxRxN/6x1500x1500/g; s/HxR/6x1500/g; s/RESULTS/tensor<6x1500x1500xf32>/; s/RETURNED/%%div : tensor<6x1500x1500xf32>/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s
// Two threads: one scf.forall over the rows instead of the loops, each row's buffers
// in its iteration (glow-private-buffers puts them on the thread's stack).
// RUN: sed -e 's/HxRxN/6x1500x1500/g; s/HxR/6x1500/g; s/RESULTS/tensor<6x1500x1500xf32>/; s/RETURNED/%%div : tensor<6x1500x1500xf32>/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise{threads=2}))' | FileCheck %s --check-prefix=THREADS
// Refused: rows of 12 x 128 x 128 (0.8 MB: every pass reads them back from L2 as
// fast), and on two threads rows holding less than 16 MB or longer than 16384 (64 KB,
// the most a row buffer may take of a thread's stack: 2 x 128 rows of 20000, 20 MB) or
// of f64 (2 x 256 rows of 12000: 96 KB rows; one thread chains them).
// An exp whose result is also returned splits the softmax into two chains: (max, exp),
// which writes the exp out whole, and (sum, divide), which reads it: nothing is
// computed twice.
// RUN: sed -e 's/HxRxN/12x128x128/g; s/HxR/12x128/g; s/RESULTS/tensor<12x128x128xf32>/; s/RETURNED/%%div : tensor<12x128x128xf32>/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s --check-prefix=REFUSED
// Rows of 300: 4 pieces of 64, then 44 in a masked vector of 64 lanes (a power of two:
// in 48 lanes LLVM lowered the tail element by element), never 48.
// RUN: sed -e 's/HxRxN/12x300x300/g; s/HxR/12x300/g; s/RESULTS/tensor<12x300x300xf32>/; s/RETURNED/%%div : tensor<12x300x300xf32>/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s --check-prefix=TAIL --implicit-check-not='vector<1x1x48'
// RUN: sed -e 's/HxRxN/2x128x20000/g; s/HxR/2x128/g; s/RESULTS/tensor<2x128x20000xf32>/; s/RETURNED/%%div : tensor<2x128x20000xf32>/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise{threads=2}))' | FileCheck %s --check-prefix=LONG
// RUN: sed -e 's/HxRxN/2x256x12000/g; s/HxR/2x256/g; s/RESULTS/tensor<2x256x12000xf32>/; s/RETURNED/%%div : tensor<2x256x12000xf32>/; s/f32/f64/g; s/0xFF800000/0xFFF0000000000000/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise{threads=2}))' | FileCheck %s --check-prefix=F64
// RUN: sed -e 's/HxRxN/2x256x12000/g; s/HxR/2x256/g; s/RESULTS/tensor<2x256x12000xf32>/; s/RETURNED/%%div : tensor<2x256x12000xf32>/; s/f32/f64/g; s/0xFF800000/0xFFF0000000000000/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s --check-prefix=F64-ONE
// RUN: sed -e 's/HxRxN/6x1500x1500/g; s/HxR/6x1500/g; s/RESULTS/(tensor<6x1500x1500xf32>, tensor<6x1500x1500xf32>)/; s/RETURNED/%%div, %%exp : tensor<6x1500x1500xf32>, tensor<6x1500x1500xf32>/' %S/Inputs/softmax_chain.mlir | glow-opt --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s --check-prefix=PARTIAL
// End to end, special values included (NaN, +-inf, -0, +-1e30 rows), one and two
// threads, through chains (6 x 1024 x 1024, 3 x 1500 x 1500; 4 x 300 x 300 on one
// thread, below the 16 MB of two) and op by op (12 x 128 x 128; rows of 1500 and 448
// in pieces, below 1 MB): the same outputs as onnxruntime.
// RUN: %python %S/Inputs/softmax_special.py %glow_bin %t | FileCheck %s --check-prefix=SAME

// One row loop over 6 x 1500 rows; each row's exp in a row buffer of its own; the
// tail's mask (28 of 32 lanes) made once, outside the loop.
// CHECK: tensor.empty() : tensor<1x1x1500xf32>
// CHECK: vector.create_mask {{.*}} : vector<1x1x32xi1>
// CHECK: scf.for
// CHECK: scf.for
// The max: the first 1472 in 23 pieces of 64 into a vector of 64 partial maxima,
// reduced once, then the last 28 as one masked vector.
// CHECK: scf.for {{.*}} step %c64 {{.*}} -> ({{.*}}vector<1x1x64xf32>)
// CHECK: arith.maxnumf {{.*}} : vector<1x1x64xf32>
// CHECK: vector.multi_reduction <maxnumf>, {{.*}} [2] : vector<1x1x64xf32> to vector<1x1xf32>
// CHECK: vector.multi_reduction <maxnumf>, {{.*}} [2] : vector<1x1x32xf32> to vector<1x1xf32>
// CHECK: math.exp {{.*}} : vector<1x1x64xf32>
// CHECK: math.exp {{.*}} : vector<1x1x32xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [2] : vector<1x1x64xf32> to vector<1x1xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [2] : vector<1x1x32xf32> to vector<1x1xf32>
// CHECK: arith.divf {{.*}} : vector<1x1x64xf32>
// CHECK: arith.divf {{.*}} : vector<1x1x32xf32>
// CHECK: tensor.insert_slice {{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, 0] [1, 1, 1500] [1, 1, 1] : tensor<1x1x1500xf32> into tensor<6x1500x1500xf32>
// CHECK-NOT: linalg.generic

// Op by op: the row maxima are a whole tensor, written by a loop of their own.
// REFUSED-NOT: tensor.empty() : tensor<1x1x128xf32>
// REFUSED: scf.{{for|forall}} {{.*}} -> (tensor<12x128xf32>)
// REFUSED-NOT: tensor.empty() : tensor<1x1x128xf32>

// TAIL: vector.create_mask %c1{{.*}}, %c1{{.*}}, %c44 : vector<1x1x64xi1>
// TAIL: scf.for {{.*}} to %c256 step %c64
// TAIL: math.exp {{.*}} : vector<1x1x64xf32>

// LONG-NOT: tensor.empty() : tensor<1x1x20000xf32>
// LONG: -> (tensor<2x128xf32>)
// LONG-NOT: tensor.empty() : tensor<1x1x20000xf32>

// F64-NOT: tensor.empty() : tensor<1x1x12000xf64>
// F64: return
// F64-ONE: tensor.empty() : tensor<1x1x12000xf64>

// THREADS: scf.forall (%{{.*}}, %{{.*}}) in (6, 1500) shared_outs
// THREADS: tensor.empty() : tensor<1x1x1500xf32>
// THREADS: math.exp {{.*}} : vector<1x1x64xf32>
// THREADS: vector.multi_reduction <add>
// THREADS: arith.divf {{.*}} : vector<1x1x64xf32>
// THREADS: tensor.parallel_insert_slice {{.*}} [1, 1, 1500] [1, 1, 1] : tensor<1x1x1500xf32> into tensor<6x1500x1500xf32>
// THREADS-NOT: linalg.generic

// PARTIAL: scf.for
// PARTIAL: vector.multi_reduction <maxnumf>
// PARTIAL: math.exp {{.*}} : vector<1x1x64xf32>
// PARTIAL: math.exp {{.*}} : vector<1x1x32xf32>
// PARTIAL: scf.for
// PARTIAL: vector.multi_reduction <add>
// PARTIAL: arith.divf {{.*}} : vector<1x1x64xf32>
// PARTIAL-NOT: linalg.generic
// PARTIAL: return

// SAME: chain 1 thread: same as onnxruntime
// SAME: chain 2 threads: same as onnxruntime
// SAME: chain, rows of 1500 1 thread: same as onnxruntime
// SAME: chain, rows of 1500 2 threads: same as onnxruntime
// SAME: rows of 300 1 thread: same as onnxruntime
// SAME: rows of 300 2 threads: same as onnxruntime
// SAME: op by op 1 thread: same as onnxruntime
// SAME: op by op 2 threads: same as onnxruntime
// SAME: op by op, rows of 1500 1 thread: same as onnxruntime
// SAME: op by op, rows of 1500 2 threads: same as onnxruntime
// SAME: op by op, rows of 448 1 thread: same as onnxruntime
// SAME: op by op, rows of 448 2 threads: same as onnxruntime
