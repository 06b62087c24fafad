// glow-winograd: a channels-last 3x3 stride-1 f32 convolution with a constant filter
// becomes a call of a Winograd F(2x2, 3x3) kernel: the filter transformed at compile
// time to [F / block][16][C][block], a ReLU that is the convolution's only user folded
// into the kernel's output transform. Everything else is left alone.
// RUN: glow-opt %s --pass-pipeline='builtin.module(glow-winograd{min-tiles=4})' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(glow-winograd)' | FileCheck %s --check-prefix=FEW
// RUN: not glow-opt %s --pass-pipeline='builtin.module(glow-winograd{min-tiles=0})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: 'min-tiles' is '0'; expected a positive integer

// CHECK-LABEL: func.func @relu
// CHECK: %[[U:.*]] = arith.constant dense_resource<winograd{{.*}}> : tensor<1x16x16x32xf32>
// CHECK: %[[Y:.*]] = call @glow_winograd_kernel_1(%arg0, %[[U]], %{{.*}}) : (tensor<1x8x8x16xf32>, tensor<1x16x16x32xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32>
// CHECK-NOT: glow.graph.select
// CHECK: return %[[Y]]
// FEW-LABEL: func.func @relu
// FEW: glow.graph.conv2d
func.func @relu(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32> {
  %w = glow.graph.splat 0.5 : tensor<32x16x3x3xf32>
  %b = glow.graph.splat 0.25 : tensor<32xf32>
  %zero = glow.graph.splat 0.0 : tensor<1x8x8x32xf32>
  %y = glow.graph.conv2d %x, %w, %b pads [1, 1, 1, 1] channels_last : (tensor<1x8x8x16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32>
  %n = glow.graph.cmp_lt %y, %zero : tensor<1x8x8x32xf32>
  %r = glow.graph.select %n, %zero, %y : tensor<1x8x8x32xi1>, tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// An odd output (7x5, no padding, no bias) is tiled as 8x6 and sliced; the ReLU has
// another user, so it stays.
// CHECK-LABEL: func.func @odd
// CHECK: %[[Y:.*]] = call @glow_winograd_kernel_2(%arg0, %{{.*}}, %{{.*}}) : (tensor<1x9x7x16xf32>, tensor<1x16x16x16xf32>, tensor<16xf32>) -> tensor<1x7x5x16xf32>
// CHECK: glow.graph.cmp_lt %[[Y]]
// CHECK: glow.graph.select
func.func @odd(%x: tensor<1x9x7x16xf32>) -> (tensor<1x7x5x16xf32>, tensor<1x7x5x16xf32>) {
  %w = glow.graph.splat 0.5 : tensor<16x16x3x3xf32>
  %zero = glow.graph.splat 0.0 : tensor<1x7x5x16xf32>
  %y = glow.graph.conv2d %x, %w channels_last : (tensor<1x9x7x16xf32>, tensor<16x16x3x3xf32>) -> tensor<1x7x5x16xf32>
  %n = glow.graph.cmp_lt %y, %zero : tensor<1x7x5x16xf32>
  %r = glow.graph.select %n, %zero, %y : tensor<1x7x5x16xi1>, tensor<1x7x5x16xf32>
  return %r, %y : tensor<1x7x5x16xf32>, tensor<1x7x5x16xf32>
}

// A batch of three images, 64 filters in two blocks of 32: the products' forall runs
// image-major (all blocks of one image, whose transformed input is then still cached,
// before the next image; block-major order read every image's once per block, 2x
// slower at batch 8).
// CHECK-LABEL: func.func @batched
// CHECK: call @glow_winograd_kernel_3(%arg0, %{{.*}}, %{{.*}}) : (tensor<3x8x8x16xf32>, tensor<2x16x16x32xf32>, tensor<64xf32>) -> tensor<3x8x8x64xf32>
func.func @batched(%x: tensor<3x8x8x16xf32>) -> tensor<3x8x8x64xf32> {
  %w = glow.graph.splat 0.5 : tensor<64x16x3x3xf32>
  %y = glow.graph.conv2d %x, %w pads [1, 1, 1, 1] channels_last : (tensor<3x8x8x16xf32>, tensor<64x16x3x3xf32>) -> tensor<3x8x8x64xf32>
  return %y : tensor<3x8x8x64xf32>
}

// Left alone: NCHW, stride 2, dilation 2, 1x1, grouped, runtime weights, input
// channels that 16 does not divide, output channels that 16 does not divide, and an
// image whose transformed input would exceed 64 MiB (1 x 512 x 512 x 64: 256 MiB).
// CHECK-LABEL: func.func @refused
// CHECK-NOT: call
// CHECK-COUNT-9: glow.graph.conv2d
// CHECK-NOT: call
// CHECK: return
func.func @refused(%x: tensor<1x16x8x8xf32>, %xl: tensor<1x8x8x16xf32>, %rw: tensor<16x16x3x3xf32>, %x8: tensor<1x8x8x8xf32>, %big: tensor<1x512x512x64xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x8xf32>, tensor<1x512x512x16xf32>) {
  %w = glow.graph.splat 0.5 : tensor<16x16x3x3xf32>
  %w1 = glow.graph.splat 0.5 : tensor<16x16x1x1xf32>
  %wg = glow.graph.splat 0.5 : tensor<16x8x3x3xf32>
  %w8 = glow.graph.splat 0.5 : tensor<16x8x3x3xf32>
  %w16to8 = glow.graph.splat 0.5 : tensor<8x16x3x3xf32>
  %a = glow.graph.conv2d %x, %w pads [1, 1, 1, 1] : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %b = glow.graph.conv2d %xl, %w strides [2, 2] pads [1, 1, 1, 1] channels_last : (tensor<1x8x8x16xf32>, tensor<16x16x3x3xf32>) -> tensor<1x4x4x16xf32>
  %c = glow.graph.conv2d %xl, %w dilations [2, 2] channels_last : (tensor<1x8x8x16xf32>, tensor<16x16x3x3xf32>) -> tensor<1x4x4x16xf32>
  %d = glow.graph.conv2d %xl, %w1 channels_last : (tensor<1x8x8x16xf32>, tensor<16x16x1x1xf32>) -> tensor<1x8x8x16xf32>
  %e = glow.graph.conv2d %xl, %wg pads [1, 1, 1, 1] group 2 channels_last : (tensor<1x8x8x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x8x16xf32>
  %f = glow.graph.conv2d %xl, %rw pads [1, 1, 1, 1] channels_last : (tensor<1x8x8x16xf32>, tensor<16x16x3x3xf32>) -> tensor<1x8x8x16xf32>
  %g = glow.graph.conv2d %x8, %w8 pads [1, 1, 1, 1] channels_last : (tensor<1x8x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x8x16xf32>
  %h = glow.graph.conv2d %xl, %w16to8 pads [1, 1, 1, 1] channels_last : (tensor<1x8x8x16xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x8x8xf32>
  %w64 = glow.graph.splat 0.5 : tensor<16x64x3x3xf32>
  %i = glow.graph.conv2d %big, %w64 pads [1, 1, 1, 1] channels_last : (tensor<1x512x512x64xf32>, tensor<16x64x3x3xf32>) -> tensor<1x512x512x16xf32>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<1x16x8x8xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x8xf32>, tensor<1x512x512x16xf32>
}

// The kernel: the input transform's forall over (tile, 16 channels), then one forall
// over (image, channel block) whose rows run the 16 products (a loop over the
// positions around a loop over input channels of vector.fma) into a scratch buffer,
// then the output transform with the bias and the ReLU's compare and select.
// CHECK-LABEL: func.func private @glow_winograd_kernel_1(%{{.*}}: tensor<1x8x8x16xf32>, %{{.*}}: tensor<1x16x16x32xf32>, %{{.*}}: tensor<32xf32>) -> tensor<1x8x8x32xf32>
// CHECK: tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (16, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<16x16x16xf32>)
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x16x8x16xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (1, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x8x8x2x16xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x8x8x2x16xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for
// CHECK-COUNT-8: vector.fma
// CHECK: vector.transfer_write %{{.*}} : vector<8x16xf32>, memref<16x8x16xf32, strided<[128, 16, 1], offset: ?>>
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: vector.transfer_write %{{.*}} : vector<2x2x2x16xf32>, tensor<1x8x8x2x16xf32>
// CHECK-LABEL: func.func private @glow_winograd_kernel_2
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 7, 5, 16] [1, 1, 1, 1] : tensor<1x8x6x16xf32> to tensor<1x7x5x16xf32>
// CHECK-LABEL: func.func private @glow_winograd_kernel_3
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (48, 1) shared_outs
// CHECK: scf.forall (%[[IMAGE:.*]], %[[BLOCK:.*]]) in (3, 2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<3x8x8x4x16xf32>)
