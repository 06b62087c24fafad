// Convolutions and matmuls become loops over register tiles of vector ops; the tile
// sizes divide the dimensions (56 = 7 x 8 output columns, 64 = 2 x 32 filters) and the
// accumulators (8 x 2 AVX-512 registers) start from the bias inside the tile loop.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-cpu-tile-and-vectorize),canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 2)
// CHECK: vector.broadcast {{.*}} : vector<32xf32> to vector<1x1x8x32xf32>
// kh, kw and one input channel per reduction step: an outer product.
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK: vector.contract {{.*}} : vector<1x8x1xf32>, vector<1x32xf32> into vector<1x8x32xf32>
// CHECK-NOT: linalg.conv
func.func @conv(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>, %b: tensor<64xf32>) -> tensor<1x56x56x64xf32> {
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %init = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e : tensor<1x56x56x64xf32>) dimensions = [0, 1, 2]
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%init : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %0 : tensor<1x56x56x64xf32>
}

// -----

// Depthwise: 8 output columns x 16 channels per tile.
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 9)
// CHECK: vector.fma {{.*}} : vector<1x8x16xf32>
// CHECK-NOT: linalg.depthwise
func.func @depthwise(%x: tensor<1x58x58x144xf32>, %w: tensor<3x3x144xf32>) -> tensor<1x56x56x144xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x144xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x144xf32>) -> tensor<1x56x56x144xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x144xf32>, tensor<3x3x144xf32>) outs(%init : tensor<1x56x56x144xf32>) -> tensor<1x56x56x144xf32>
  return %0 : tensor<1x56x56x144xf32>
}

// -----

// Max and sum (average) pools: tiled as depthwise convolutions (8 columns x 16
// channels), the window stepped one tap at a time, the accumulators in registers.
// CHECK-LABEL: func.func @pools
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 4)
// CHECK: arith.maximumf {{.*}} : vector<1x1x16xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (56, 7, 4)
// CHECK: arith.addf {{.*}} : vector<1x1x16xf32>
// CHECK-NOT: linalg.pooling
func.func @pools(%x: tensor<1x113x113x64xf32>) -> (tensor<1x56x56x64xf32>, tensor<1x56x56x64xf32>) {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %low = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %max = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x113x113x64xf32>, tensor<3x3xf32>) outs(%low : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x113x113x64xf32>, tensor<3x3xf32>) outs(%zeros : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %max, %sum : tensor<1x56x56x64xf32>, tensor<1x56x56x64xf32>
}

// -----

// Matmul: 6 x 64 register tiles, one k per step; the 1000 columns take 8-lane tiles.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// CHECK: vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// CHECK: scf.forall (%{{.*}}) in (125)
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<12x256xf32>, %b: tensor<256x128xf32>, %x: tensor<1x2048xf32>, %w: tensor<2048x1000xf32>) -> (tensor<12x128xf32>, tensor<1x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128xf32>) -> tensor<12x128xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<12x256xf32>, tensor<256x128xf32>) outs(%init : tensor<12x128xf32>) -> tensor<12x128xf32>
  %e1 = tensor.empty() : tensor<1x1000xf32>
  %init1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %1 = linalg.matmul ins(%x, %w : tensor<1x2048xf32>, tensor<2048x1000xf32>) outs(%init1 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %0, %1 : tensor<12x128xf32>, tensor<1x1000xf32>
}

// -----

// A filter larger than half the L2 cache (3x3x512x512 f32, 9.4 MB): the filter tiles
// run outermost, so one tile's filter slice stays cached across the output positions.
// CHECK-LABEL: func.func @large_filter
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c32
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK: vector.contract {{.*}} : vector<1x7x1xf32>, vector<1x32xf32> into vector<1x7x32xf32>
func.func @large_filter(%x: tensor<1x9x9x512xf32>, %w: tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x512xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%init : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  return %0 : tensor<1x7x7x512xf32>
}

// -----

// Matmul weights larger than half the L2 cache (1536x384 f32, 2.4 MB) with more than
// one row tile: the column tiles run outermost, so one tile's weight columns stay
// cached across the row tiles; the shared zero init is filled once, outside. The
// 1536-deep panel of 64 columns (384 KB) is read by 16 row tiles: k runs in blocks of
// 128 (32 KB panels, which stay in L1) around the register tiles. The accumulators
// are read once per block and carried through the k loop in registers (hoisted on
// tensors, as vector iter_args).
// CHECK-LABEL: func.func @large_weights
// CHECK: scf.for %{{.*}} = %c0 to %c1536 step %c128
// CHECK: scf.for %{{.*}} = %c0 to %c384 step %c64
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK: vector.transfer_read {{.*}} : tensor<4x64xf32>, vector<4x64xf32>
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x64xf32>)
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x64xf32> into vector<4x64xf32>
// CHECK-NEXT: scf.yield %{{.*}} : vector<4x64xf32>
func.func @large_weights(%x: tensor<64x1536xf32>, %w: tensor<1536x384xf32>, %v: tensor<1536x384xf32>) -> (tensor<64x384xf32>, tensor<64x384xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x384xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x384xf32>) -> tensor<64x384xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<64x1536xf32>, tensor<1536x384xf32>) outs(%init : tensor<64x384xf32>) -> tensor<64x384xf32>
  %1 = linalg.matmul ins(%x, %v : tensor<64x1536xf32>, tensor<1536x384xf32>) outs(%init : tensor<64x384xf32>) -> tensor<64x384xf32>
  return %0, %1 : tensor<64x384xf32>, tensor<64x384xf32>
}

// -----

// A shallow panel (256 deep x 64 columns, 64 KB: at most a quarter of the L2) stays in
// L2 while each register tile runs the whole k loop, accumulators in registers: no k
// blocks.
// CHECK-LABEL: func.func @shallow_panel
// CHECK-NOT: step %c128
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK: vector.transfer_read {{.*}} : tensor<4x64xf32>, vector<4x64xf32>
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x64xf32>)
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x64xf32> into vector<4x64xf32>
func.func @shallow_panel(%x: tensor<64x256xf32>, %w: tensor<256x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x1024xf32>) outs(%init : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}

// -----

// Dynamic shapes are left to the generic lowering.
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x8xf32>) outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
