// Primitive glow.graph ops to linalg named ops on tensors.
// RUN: glow-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @elementwise
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[A:.*]] = linalg.add ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: linalg.max ins(%[[A]], %{{.*}} : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: linalg.exp
// CHECK-NOT: glow.graph
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = glow.graph.add %a, %b : tensor<2x3xf32>
  %z = glow.graph.splat 0.0 : tensor<2x3xf32>
  %1 = glow.graph.max %0, %z : tensor<2x3xf32>
  %2 = glow.graph.exp %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @contractions
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<4x16xf32>)
// CHECK: linalg.batch_matmul ins(%arg2, %arg3 : tensor<2x4x8xf32>, tensor<2x8x3xf32>)
func.func @contractions(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<2x4x8xf32>, %d: tensor<2x8x3xf32>) -> (tensor<4x16xf32>, tensor<2x4x3xf32>) {
  %0 = glow.graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = glow.graph.batch_matmul %c, %d : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<2x4x3xf32>
}

// -----

// broadcast drops its size-1 broadcast dimensions with tensor.reshape, then
// linalg.broadcast adds the missing ones; batched_add broadcasts its slice.
// CHECK-LABEL: func.func @shapes
// CHECK: linalg.transpose ins(%arg0 : tensor<2x3xf32>) outs(%{{.*}} : tensor<3x2xf32>) permutation = [1, 0]
// CHECK: tensor.reshape %arg1(%{{.*}}) : (tensor<8x1xf32>, tensor<1xi64>) -> tensor<8xf32>
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<2x8x4xf32>) dimensions = [0, 2]
// CHECK: tensor.reshape %arg0(%{{.*}}) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
// CHECK: %[[S:.*]] = linalg.broadcast ins(%arg2 : tensor<3xf32>) outs(%{{.*}} : tensor<2x3xf32>) dimensions = [0]
// CHECK: linalg.add ins(%arg0, %[[S]] : tensor<2x3xf32>, tensor<2x3xf32>)
func.func @shapes(%x: tensor<2x3xf32>, %v: tensor<8x1xf32>, %b: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<2x8x4xf32>, tensor<6xf32>, tensor<2x3xf32>) {
  %0 = glow.graph.transpose %x perm [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = glow.graph.broadcast %v axis 1 : tensor<8x1xf32> -> tensor<2x8x4xf32>
  %2 = glow.graph.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %3 = glow.graph.batched_add %x, %b : tensor<2x3xf32>, tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3x2xf32>, tensor<2x8x4xf32>, tensor<6xf32>, tensor<2x3xf32>
}

// -----

// High-level nodes are reported, not left behind silently.
func.func @unlowered(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{glow-graph-to-linalg: no conversion for 'glow.graph.softmax' with these operand types yet (run glow-lower-nodes first for high-level nodes)}}
  %0 = glow.graph.softmax %x : tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// conv2d, NCHW: zero padding, the named convolution into a zero-filled init, bias added.
// CHECK-LABEL: func.func @conv
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %arg1 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>)
// CHECK: %[[B:.*]] = linalg.broadcast ins(%arg2 : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
// CHECK: linalg.add ins(%[[C]], %[[B]]
// Grouped: input and filter reshaped per group.
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x8x8xf32>, tensor<2x3x2x3x3xf32>)
// CHECK: linalg.pooling_nchw_max
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %g: tensor<1x4x8x8xf32>, %gw: tensor<6x2x3x3xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x6x6x6xf32>, tensor<1x4x4x4xf32>) {
  %0 = glow.graph.conv2d %x, %w, %b strides [2, 2] pads [1, 1, 1, 1] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %1 = glow.graph.conv2d %g, %gw group 2 : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  %2 = glow.graph.max_pool %g kernel [2, 2] strides [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return %0, %1, %2 : tensor<1x4x4x4xf32>, tensor<1x6x6x6xf32>, tensor<1x4x4x4xf32>
}

// -----

// conv2d, channels_last: NHWC padding, the filter relaid out to HWCF, the convolution
// accumulating into the broadcast bias; pools in NHWC.
// CHECK-LABEL: func.func @conv_channels_last
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[B:.*]] = linalg.broadcast ins(%arg2 : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>) dimensions = [0, 1, 2]
// CHECK: %[[W:.*]] = linalg.transpose ins(%arg1 : tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x4xf32>) permutation = [2, 3, 1, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %[[W]] : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%[[B]] : tensor<1x4x4x4xf32>)
// CHECK: linalg.pooling_nhwc_max
// CHECK: linalg.pooling_nhwc_sum
func.func @conv_channels_last(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) {
  %0 = glow.graph.conv2d %x, %w, %b strides [2, 2] pads [1, 1, 1, 1] channels_last : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %1 = glow.graph.max_pool %x kernel [2, 2] strides [2, 2] channels_last : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  %2 = glow.graph.avg_pool %x kernel [2, 2] strides [2, 2] channels_last : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  return %0, %1, %2 : tensor<1x4x4x4xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>
}

// -----

// 20 output channels (no multiple of 16: the register tiles would be 4 lanes wide)
// with constant weights: 12 zero filters and biases are added at compile time, the
// convolution computes 32 channels and the 20 real ones are sliced out. Weights that
// are not constants, and widths of 16 or less, are left alone.
// CHECK-LABEL: func.func @widened_filters
// CHECK-DAG: %[[W:.*]] = arith.constant dense_resource<relayout{{.*}}> : tensor<1x1x8x32xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<32xf32>
// CHECK: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<32xf32>) outs(%{{.*}} : tensor<1x5x5x32xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %[[W]] : tensor<1x5x5x8xf32>, tensor<1x1x8x32xf32>) outs(%[[I]] : tensor<1x5x5x32xf32>)
// CHECK: tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 5, 5, 20] [1, 1, 1, 1] : tensor<1x5x5x32xf32> to tensor<1x5x5x20xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x5x5x20xf32>)
// CHECK-NOT: tensor.extract_slice
func.func @widened_filters(%x: tensor<1x5x5x8xf32>, %v: tensor<20x8x1x1xf32>) -> (tensor<1x5x5x20xf32>, tensor<1x5x5x20xf32>) {
  %w = glow.graph.constant dense<0.5> : tensor<20x8x1x1xf32>
  %b = glow.graph.constant dense<1.0> : tensor<20xf32>
  %0 = glow.graph.conv2d %x, %w, %b strides [1, 1] pads [0, 0, 0, 0] channels_last : (tensor<1x5x5x8xf32>, tensor<20x8x1x1xf32>, tensor<20xf32>) -> tensor<1x5x5x20xf32>
  %1 = glow.graph.conv2d %x, %v, %b strides [1, 1] pads [0, 0, 0, 0] channels_last : (tensor<1x5x5x8xf32>, tensor<20x8x1x1xf32>, tensor<20xf32>) -> tensor<1x5x5x20xf32>
  return %0, %1 : tensor<1x5x5x20xf32>, tensor<1x5x5x20xf32>
}

// -----

// A Conv1d's filters reach the convolution through a reshape (given a unit height):
// read through it, they are widened alike (30 -> 32 filters; computed with 4-lane
// tiles, a TCN's 128 -> 30 output convolution ran at 8 GFLOP/s, 0.79 ms: now 0.025).
// CHECK-LABEL: func.func @widened_reshaped_filters
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<2x1x40x32xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 1, 40, 30] [1, 1, 1, 1] : tensor<2x1x40x32xf32> to tensor<2x1x40x30xf32>
func.func @widened_reshaped_filters(%x: tensor<2x1x40x8xf32>) -> tensor<2x1x40x30xf32> {
  %w = glow.graph.constant dense<0.25> : tensor<30x8x1xf32>
  %b = glow.graph.constant dense<1.0> : tensor<30xf32>
  %r = glow.graph.reshape %w : tensor<30x8x1xf32> -> tensor<30x8x1x1xf32>
  %0 = glow.graph.conv2d %x, %r, %b strides [1, 1] pads [0, 0, 0, 0] channels_last : (tensor<2x1x40x8xf32>, tensor<30x8x1x1xf32>, tensor<30xf32>) -> tensor<2x1x40x30xf32>
  return %0 : tensor<2x1x40x30xf32>
}

// -----

// A channels-last pool whose window is the whole input (global average / max pool)
// is a linalg.reduce over height and width into [N, C], reshaped to [N, 1, 1, C].
// CHECK-LABEL: func.func @global_pools
// CHECK: linalg.reduce ins(%arg0 : tensor<2x7x7x64xf32>) outs(%{{.*}} : tensor<2x64xf32>) dimensions = [1, 2]
// CHECK: arith.addf
// CHECK: tensor.reshape {{.*}} -> tensor<2x1x1x64xf32>
// CHECK: linalg.reduce ins(%arg0 : tensor<2x7x7x64xf32>) outs(%{{.*}} : tensor<2x64xf32>) dimensions = [1, 2]
// CHECK: arith.maximumf
// CHECK-NOT: linalg.pooling
func.func @global_pools(%x: tensor<2x7x7x64xf32>) -> (tensor<2x1x1x64xf32>, tensor<2x1x1x64xf32>) {
  %0 = glow.graph.avg_pool %x kernel [7, 7] channels_last : tensor<2x7x7x64xf32> -> tensor<2x1x1x64xf32>
  %1 = glow.graph.max_pool %x kernel [7, 7] channels_last : tensor<2x7x7x64xf32> -> tensor<2x1x1x64xf32>
  return %0, %1 : tensor<2x1x1x64xf32>, tensor<2x1x1x64xf32>
}

// -----

// A channels-last output row 17 wide (prime: no register tile from 7 to 14 columns
// divides it) is computed 18 wide (9-column tiles) from 2 more zero input columns
// (stride 2) and the 17 real columns are sliced out.
// CHECK-LABEL: func.func @odd_row
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 2, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %{{.*}} : tensor<1x3x37x3xf32>, tensor<3x3x3x16xf32>) outs(%{{.*}} : tensor<1x1x18x16xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 17, 16] [1, 1, 1, 1] : tensor<1x1x18x16xf32> to tensor<1x1x17x16xf32>
func.func @odd_row(%x: tensor<1x3x35x3xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<1x1x17x16xf32> {
  %0 = glow.graph.conv2d %x, %w strides [2, 2] channels_last : (tensor<1x3x35x3xf32>, tensor<16x3x3x3xf32>) -> tensor<1x1x17x16xf32>
  return %0 : tensor<1x1x17x16xf32>
}

// -----

// A depthwise row 19 wide (its register tiles are up to 8 columns) is computed 20 wide
// (5-column tiles) from one more zero input column, and sliced.
// CHECK-LABEL: func.func @odd_depthwise_row
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 2, 0]
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]], %{{.*}} : tensor<1x21x22x16xf32>, tensor<3x3x16xf32>) outs(%{{.*}} : tensor<1x19x20x16xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 19, 19, 16] [1, 1, 1, 1] : tensor<1x19x20x16xf32> to tensor<1x19x19x16xf32>
func.func @odd_depthwise_row(%x: tensor<1x19x19x16xf32>, %w: tensor<16x1x3x3xf32>) -> tensor<1x19x19x16xf32> {
  %0 = glow.graph.conv2d %x, %w pads [1, 1, 1, 1] group 16 channels_last : (tensor<1x19x19x16xf32>, tensor<16x1x3x3xf32>) -> tensor<1x19x19x16xf32>
  return %0 : tensor<1x19x19x16xf32>
}

// -----

// Depthwise channels_last (group == channels, one filter per channel). A constant
// filter is relaid out at compile time: [C, 1, KH, KW] = [2, 1, 1, 2] with values
// c0: (1, 2), c1: (3, 4) becomes [KH, KW, C] = [1, 2, 2]: (1, 3), (2, 4).
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[W:.*]] = arith.constant dense_resource<relayout{{.*}}> : tensor<1x2x2x1xf32>
// CHECK: %[[HWC:.*]] = tensor.reshape %[[W]]
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%arg0, %[[HWC]] : tensor<1x4x4x2xf32>, tensor<1x2x2xf32>) outs(%{{.*}} : tensor<1x4x3x2xf32>)
// CHECK: relayout: "0x100000000000803F000040400000004000008040"
func.func @depthwise(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x3x2xf32> {
  %w = glow.graph.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %0 = glow.graph.conv2d %x, %w group 2 channels_last : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x3x2xf32>
  return %0 : tensor<1x4x3x2xf32>
}

// -----

// Comparisons and conversions are linalg.generic with arith ops; select and pow are
// named ops; slice and pad are tensor ops; gather extracts with the index.
// CHECK-LABEL: func.func @data
// CHECK: linalg.generic
// CHECK: arith.cmpf olt
// CHECK: linalg.select ins(%{{.*}}, %arg0, %arg1 : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
// CHECK: linalg.generic
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: tensor.extract_slice %arg0[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
// CHECK: tensor.pad %arg0 low[1] high[2]
// CHECK: linalg.generic
// CHECK: arith.index_cast
// CHECK: tensor.extract %arg2[
func.func @data(%a: tensor<4xf32>, %b: tensor<4xf32>, %t: tensor<5x3xf32>, %i: tensor<2xi64>) -> (tensor<4xf32>, tensor<4xi32>, tensor<2xf32>, tensor<7xf32>, tensor<2x3xf32>) {
  %c = glow.graph.cmp_lt %a, %b : tensor<4xf32>
  %s = glow.graph.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>
  %k = glow.graph.convert %a : tensor<4xf32> -> tensor<4xi32>
  %l = glow.graph.slice %a start [1] : tensor<4xf32> -> tensor<2xf32>
  %p = glow.graph.pad %a pads [1, 2] value 0.0 : f32 : tensor<4xf32> -> tensor<7xf32>
  %g = glow.graph.gather %t, %i : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %s, %k, %l, %p, %g : tensor<4xf32>, tensor<4xi32>, tensor<2xf32>, tensor<7xf32>, tensor<2x3xf32>
}

// -----

// Unsigned integers: the unsigned arith ops in linalg.generic bodies, then every
// type made signless (the function type too).
// CHECK-LABEL: func.func @unsigned(%arg0: tensor<3xi8>, %arg1: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xf32>)
// CHECK: arith.divui
// CHECK: arith.uitofp {{.*}} : i8 to f32
// CHECK-NOT: ui8
func.func @unsigned(%x: tensor<3xui8>, %y: tensor<3xui8>) -> (tensor<3xui8>, tensor<3xf32>) {
  %q = glow.graph.div %x, %y : tensor<3xui8>
  %f = glow.graph.convert %x : tensor<3xui8> -> tensor<3xf32>
  return %q, %f : tensor<3xui8>, tensor<3xf32>
}

// -----

// Half precision accumulates in f32: operands extended, the product on f32, the
// result truncated.
// CHECK-LABEL: func.func @half_matmul
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x2xf32>)
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @half_matmul(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>) -> tensor<4x2xf16> {
  %0 = glow.graph.matmul %a, %b : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  return %0 : tensor<4x2xf16>
}

// -----

// f16 sums too (softmax denominators, means), as numpy's float16 sums; max stays in
// f16, and bf16 sums stay in bf16 (ml_dtypes rounds each addition).
// CHECK-LABEL: func.func @half_sum
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x64xf32>)
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x64xf16>)
// CHECK-NEXT: (%[[IN:.*]]: f16, %[[ACC:.*]]: f16) {
// CHECK-NEXT: arith.maximumf
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x64xbf16>)
// CHECK-NEXT: (%{{.*}}: bf16, %{{.*}}: bf16) {
// CHECK-NEXT: arith.addf
func.func @half_sum(%x: tensor<4x64xf16>, %b: tensor<4x64xbf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>) {
  %0 = glow.graph.reduce_sum %x axes [1] : tensor<4x64xf16> -> tensor<4xf16>
  %1 = glow.graph.reduce_max %x axes [1] : tensor<4x64xf16> -> tensor<4xf16>
  %2 = glow.graph.reduce_sum %b axes [1] : tensor<4x64xbf16> -> tensor<4xbf16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>
}

// -----

// A ceil-mode pool whose padded input is larger than its windows read (1 window of 3
// over 4 rows): the input is sliced to the 3 rows and columns read, as linalg's
// verifier in newer MLIR (IREE's) requires.
// CHECK-LABEL: func.func @pool_reads_less
// CHECK: tensor.pad
// CHECK: : tensor<1x3x2x2xf32> to tensor<1x3x4x4xf32>
// CHECK: tensor.extract_slice {{.*}}[0, 0, 0, 0] [1, 3, 3, 3] [1, 1, 1, 1] : tensor<1x3x4x4xf32> to tensor<1x3x3x3xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3x3x3xf32>, tensor<3x3xf32>)
func.func @pool_reads_less(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32> {
  %0 = glow.graph.avg_pool %x kernel [3, 3] strides [3, 3] pads [1, 1, 1, 1] count_include_pad : tensor<1x3x2x2xf32> -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}
