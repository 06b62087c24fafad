// Reshapes sink below elementwise ops and fold when they meet.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=sink-reshapes}))' | FileCheck %s --check-prefix=OFF

// Flatten, activation, un-flatten: the reshapes meet and vanish.
// CHECK-LABEL: func.func @cancel
// CHECK-NEXT: %[[G:.*]] = glow.graph.gelu %arg0 : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[G]]
// OFF-LABEL: func.func @cancel
// OFF: glow.graph.reshape
func.func @cancel(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %f = glow.graph.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %g = glow.graph.gelu %f : tensor<6x4xf32>
  %u = glow.graph.reshape %g : tensor<6x4xf32> -> tensor<2x3x4xf32>
  return %u : tensor<2x3x4xf32>
}

// -----

// Both operands reshaped alike from one type, and a splat re-made in the source shape:
// one reshape after the ops.
// CHECK-LABEL: func.func @binary
// CHECK-NEXT: %[[S:.*]] = glow.graph.splat 2.000000e+00 : tensor<2x6xf32>
// CHECK-NEXT: %[[A:.*]] = glow.graph.add %arg0, %arg1 : tensor<2x6xf32>
// CHECK-NEXT: %[[M:.*]] = glow.graph.mul %[[A]], %[[S]] : tensor<2x6xf32>
// CHECK-NEXT: %[[R:.*]] = glow.graph.reshape %[[M]] : tensor<2x6xf32> -> tensor<3x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @binary(%a: tensor<2x6xf32>, %b: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %ra = glow.graph.reshape %a : tensor<2x6xf32> -> tensor<3x4xf32>
  %rb = glow.graph.reshape %b : tensor<2x6xf32> -> tensor<3x4xf32>
  %s = glow.graph.add %ra, %rb : tensor<3x4xf32>
  %two = glow.graph.splat 2.0 : tensor<3x4xf32>
  %m = glow.graph.mul %s, %two : tensor<3x4xf32>
  return %m : tensor<3x4xf32>
}

// -----

// A reshape with another user stays for it; operands from different shapes do not move.
// CHECK-LABEL: func.func @kept
// CHECK: %[[R:.*]] = glow.graph.reshape %arg0 : tensor<2x6xf32> -> tensor<3x4xf32>
// CHECK: glow.graph.relu %[[R]] : tensor<3x4xf32>
// CHECK: glow.graph.add %[[R]], %{{.*}} : tensor<3x4xf32>
func.func @kept(%a: tensor<2x6xf32>, %b: tensor<12xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %ra = glow.graph.reshape %a : tensor<2x6xf32> -> tensor<3x4xf32>
  %rb = glow.graph.reshape %b : tensor<12xf32> -> tensor<3x4xf32>
  %r = glow.graph.relu %ra : tensor<3x4xf32>
  %s = glow.graph.add %ra, %rb : tensor<3x4xf32>
  return %r, %s : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// A transformer's FFN as exported: a 2-D matmul's [tokens, features] result split into
// [batch, tokens, features], a bias broadcast over batch and tokens, GELU, merged back
// for the next matmul. The bias varies only along the features the reshape keeps, so
// it is re-made as a broadcast over the matmul's rows; the reshapes sink and cancel,
// and the epilogue is on the matmul's own result.
// CHECK-LABEL: func.func @bias_over_kept_dims
// CHECK: %[[BIAS:.*]] = glow.graph.constant dense<{{.*}}> : tensor<1x8xf32>
// CHECK-NEXT: %[[MM:.*]] = glow.graph.matmul %arg0, %arg1 : (tensor<6x4xf32>, tensor<4x8xf32>) -> tensor<6x8xf32>
// CHECK-NEXT: %[[B:.*]] = glow.graph.broadcast %[[BIAS]] axis 0 : tensor<1x8xf32> -> tensor<6x8xf32>
// CHECK-NEXT: %[[A:.*]] = glow.graph.add %[[B]], %[[MM]] : tensor<6x8xf32>
// CHECK-NEXT: %[[G:.*]] = glow.graph.gelu %[[A]] : tensor<6x8xf32>
// CHECK-NEXT: glow.graph.matmul %[[G]], %arg2 : (tensor<6x8xf32>, tensor<8x4xf32>) -> tensor<6x4xf32>
// OFF-LABEL: func.func @bias_over_kept_dims
// OFF-COUNT-2: glow.graph.reshape %{{.*}} : tensor<{{6x8|2x3x8}}xf32>
func.func @bias_over_kept_dims(%x: tensor<6x4xf32>, %w1: tensor<4x8xf32>, %w2: tensor<8x4xf32>) -> tensor<6x4xf32> {
  %bias = glow.graph.constant dense<[0.5, -1.0, 2.0, 0.25, 3.0, -0.5, 1.5, 0.75]> : tensor<8xf32>
  %mm = glow.graph.matmul %x, %w1 : (tensor<6x4xf32>, tensor<4x8xf32>) -> tensor<6x8xf32>
  %split = glow.graph.reshape %mm : tensor<6x8xf32> -> tensor<2x3x8xf32>
  %b1 = glow.graph.reshape %bias : tensor<8xf32> -> tensor<1x1x8xf32>
  %b = glow.graph.broadcast %b1 axis 0 : tensor<1x1x8xf32> -> tensor<2x3x8xf32>
  %a = glow.graph.add %b, %split : tensor<2x3x8xf32>
  %g = glow.graph.gelu %a : tensor<2x3x8xf32>
  %merged = glow.graph.reshape %g : tensor<2x3x8xf32> -> tensor<6x8xf32>
  %y = glow.graph.matmul %merged, %w2 : (tensor<6x8xf32>, tensor<8x4xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

// Refused: a broadcast that varies along a dimension the reshape splits (a per-batch
// value over [2, 3, 8] from [6, 8]) cannot be re-made over the source's rows.
// CHECK-LABEL: func.func @bias_over_split_dims
// CHECK: %[[R:.*]] = glow.graph.reshape %{{.*}} : tensor<6x8xf32> -> tensor<2x3x8xf32>
// CHECK: glow.graph.add %{{.*}}, %[[R]] : tensor<2x3x8xf32>
func.func @bias_over_split_dims(%x: tensor<6x8xf32>, %per_batch: tensor<2x1x1xf32>) -> tensor<2x3x8xf32> {
  %split = glow.graph.reshape %x : tensor<6x8xf32> -> tensor<2x3x8xf32>
  %b = glow.graph.broadcast %per_batch axis 0 : tensor<2x1x1xf32> -> tensor<2x3x8xf32>
  %a = glow.graph.add %b, %split : tensor<2x3x8xf32>
  return %a : tensor<2x3x8xf32>
}

// -----

// A bias that is a view of a function argument (ONNX LSTM's peephole weights, an input
// sliced per gate) is re-made over the source too: the reshape sinks to the result.
// CHECK-LABEL: func.func @bias_from_argument
// CHECK: %[[S:.*]] = glow.graph.slice %{{.*}} start [3] : tensor<9xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[V:.*]] = glow.graph.reshape %[[S]] : tensor<3xf32> -> tensor<1x1x3xf32>
// CHECK-NEXT: %[[B:.*]] = glow.graph.broadcast %[[V]] axis 0 : tensor<1x1x3xf32> -> tensor<1x2x3xf32>
// CHECK-NEXT: %[[M:.*]] = glow.graph.mul %arg0, %[[B]] : tensor<1x2x3xf32>
// CHECK-NEXT: glow.graph.reshape %[[M]] : tensor<1x2x3xf32> -> tensor<2x3xf32>
func.func @bias_from_argument(%a: tensor<1x2x3xf32>, %p: tensor<1x9xf32>) -> tensor<2x3xf32> {
  %r = glow.graph.reshape %a : tensor<1x2x3xf32> -> tensor<2x3xf32>
  %pf = glow.graph.reshape %p : tensor<1x9xf32> -> tensor<9xf32>
  %s = glow.graph.slice %pf start [3] : tensor<9xf32> -> tensor<3xf32>
  %v = glow.graph.reshape %s : tensor<3xf32> -> tensor<1x3xf32>
  %b = glow.graph.broadcast %v axis 0 : tensor<1x3xf32> -> tensor<2x3xf32>
  %m = glow.graph.mul %r, %b : tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}

// -----

// A reduction reads through a reshape that only adds a unit dimension (torch BERT's
// softmax on 1 x 12 x T x T beside elementwise steps on 12 x T x T): it reduces the
// reshape's source, and the reshapes around it meet and vanish.
// CHECK-LABEL: func.func @unit_dim_reduce
// CHECK-NEXT: %[[M:.*]] = glow.graph.reduce_max %arg0 axes [2] keep_dims : tensor<12x8x8xf32> -> tensor<12x8x1xf32>
// CHECK-NEXT: return %[[M]]
// OFF-LABEL: func.func @unit_dim_reduce
// OFF: glow.graph.reduce_max %{{.*}} axes [3] keep_dims : tensor<1x12x8x8xf32>
func.func @unit_dim_reduce(%x: tensor<12x8x8xf32>) -> tensor<12x8x1xf32> {
  %r = glow.graph.reshape %x : tensor<12x8x8xf32> -> tensor<1x12x8x8xf32>
  %m = glow.graph.reduce_max %r axes [3] keep_dims : tensor<1x12x8x8xf32> -> tensor<1x12x8x1xf32>
  %b = glow.graph.reshape %m : tensor<1x12x8x1xf32> -> tensor<12x8x1xf32>
  return %b : tensor<12x8x1xf32>
}

// -----

// A reshape that merges dimensions is not a unit-dimension change: the reduction
// keeps reading it.
// CHECK-LABEL: func.func @merged_dims_reduce
// CHECK: glow.graph.reshape %arg0 : tensor<12x8x8xf32> -> tensor<96x8xf32>
// CHECK: glow.graph.reduce_sum %{{.*}} axes [1] : tensor<96x8xf32> -> tensor<96xf32>
func.func @merged_dims_reduce(%x: tensor<12x8x8xf32>) -> tensor<96xf32> {
  %r = glow.graph.reshape %x : tensor<12x8x8xf32> -> tensor<96x8xf32>
  %s = glow.graph.reduce_sum %r axes [1] : tensor<96x8xf32> -> tensor<96xf32>
  return %s : tensor<96xf32>
}
