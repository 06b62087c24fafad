// glow-quant-kernels replaces int8 convolutions (NHWC, dense or depthwise) and
// fully-connected layers with constant int8 weights by calls of generated micro-
// kernels: packed filters as constants, glow.quant.dot4 (vpdpbusd) in the loop for
// isa=avx512-vnni, plain vector arithmetic for isa=generic; other ops stay for the
// reference lowering. glow-lower-dot4 turns dot4 into the VNNI intrinsic.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{isa=avx512-vnni})' | FileCheck %s --check-prefix=VNNI
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{isa=generic})' | FileCheck %s --check-prefix=GENERIC
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{isa=avx512-vnni},glow-lower-dot4)' | FileCheck %s --check-prefix=INTRINSIC
// The VNNI kernels (glow.quant.dot4 in their loops) inline into the model, so their
// scratch buffers (padded inputs) join the planned arena instead of being allocated on
// every call.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{isa=avx512-vnni},inline,symbol-dce)' | FileCheck %s --check-prefix=INLINED
// INLINED-NOT: call @glow_int8_kernel
// INLINED-NOT: func.func private @glow_int8_kernel
// INLINED: glow.quant.dot4

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// VNNI-LABEL: func.func @dense
// VNNI: %[[W:.*]] = arith.constant dense_resource<packed{{.*}}> : tensor<2x36x64xi8>
// VNNI: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<32xi32>
// VNNI: %[[M:.*]] = arith.constant dense<{{.*}}> : tensor<32xf32>
// VNNI: call @glow_int8_kernel_{{[0-9]+}}(%{{.*}}, %[[W]], %[[B]], %[[M]], %{{.*}})
// VNNI: func.func private @glow_int8_kernel_{{[0-9]+}}
// VNNI: tensor.pad
// VNNI: scf.forall
// VNNI-COUNT-14: glow.quant.dot4
// VNNI: math.roundeven
// GENERIC-LABEL: func.func @dense
// GENERIC-NOT: glow.quant.dot4
// GENERIC: vector.multi_reduction <add>
// INTRINSIC-LABEL: func.func @dense
// INTRINSIC: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// INTRINSIC-NOT: glow.quant.dot4
func.func @dense(%x: tensor<1x14x14x16x!x>) -> tensor<1x14x14x32x!y> {
  %wi = glow.graph.constant dense<1> : tensor<32x16x3x3xi8>
  %w = quant.scast %wi : tensor<32x16x3x3xi8> to tensor<32x16x3x3x!quant.uniform<i8:f32, 0.01>>
  %y = glow.quant.conv2d %x, %w pads [1, 1, 1, 1] channels_last min 0.0
      : (tensor<1x14x14x16x!x>, tensor<32x16x3x3x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x14x14x32x!y>
  return %y : tensor<1x14x14x32x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// Depthwise: 3 kernel rows interleaved per 32-bit lane.
// VNNI-LABEL: func.func @depthwise
// VNNI: arith.constant dense{{.*}} : tensor<1x1x3x64xi8>
// VNNI: func.func private @glow_int8_kernel_
// VNNI: vector.shuffle
// VNNI: glow.quant.dot4
func.func @depthwise(%x: tensor<1x8x8x16x!x>) -> tensor<1x8x8x16x!y> {
  %wi = glow.graph.constant dense<2> : tensor<16x1x3x3xi8>
  %w = quant.scast %wi : tensor<16x1x3x3xi8> to tensor<16x1x3x3x!quant.uniform<i8:f32, 0.01>>
  %y = glow.quant.conv2d %x, %w pads [1, 1, 1, 1] group 16 channels_last
      : (tensor<1x8x8x16x!x>, tensor<16x1x3x3x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x8x8x16x!y>
  return %y : tensor<1x8x8x16x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// Depthwise with 24 channels (16 does not divide them, as MobileNetV3's 72 and 120):
// the kernel pads them to 32 with the input zero point (zero weights) and computes 32;
// the caller slices the 24 real ones out.
// VNNI-LABEL: func.func @depthwise_24_channels
// VNNI: arith.constant dense{{.*}} : tensor<2x1x3x64xi8>
// VNNI: %[[Y:.*]] = call @glow_int8_kernel_{{[0-9]+}}({{.*}}) : ({{.*}}) -> tensor<1x8x8x32xi8>
// VNNI: tensor.extract_slice %[[Y]][0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xi8> to tensor<1x8x8x24xi8>
// VNNI: func.func private @glow_int8_kernel_
// VNNI: tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 8]
// VNNI: glow.quant.dot4
func.func @depthwise_24_channels(%x: tensor<1x8x8x24x!x>) -> tensor<1x8x8x24x!y> {
  %wi = glow.graph.constant dense<2> : tensor<24x1x3x3xi8>
  %w = quant.scast %wi : tensor<24x1x3x3xi8> to tensor<24x1x3x3x!quant.uniform<i8:f32, 0.01>>
  %y = glow.quant.conv2d %x, %w pads [1, 1, 1, 1] group 24 channels_last
      : (tensor<1x8x8x24x!x>, tensor<24x1x3x3x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x8x8x24x!y>
  return %y : tensor<1x8x8x24x!y>
}

// -----

!x = !quant.uniform<i8:f32, 0.05:3>

// A fully_connected layer is the 1x1 convolution of a 1 x 1 x M x K image; 1000
// outputs are padded to 1008 and sliced back. A signed input is read with its sign
// bit flipped (xor 0x80808080).
// VNNI-LABEL: func.func @fully_connected
// VNNI: glow.graph.reshape %{{.*}} -> tensor<1x1x4x64x!quant.uniform<i8:f32, 5.000000e-02:3>>
// VNNI: call @glow_int8_kernel_
// VNNI: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 4, 1000] [1, 1, 1, 1] : tensor<1x1x4x1008xi8> to tensor<1x1x4x1000xi8>
// VNNI: glow.graph.reshape %{{.*}} -> tensor<4x1000x!quant.uniform<i8:f32, 1.000000e-01>>
// VNNI: arith.constant -2139062144 : i32
func.func @fully_connected(%x: tensor<4x64x!x>) -> tensor<4x1000x!quant.uniform<i8:f32, 0.1>> {
  %wi = glow.graph.constant dense<1> : tensor<64x1000xi8>
  %w = quant.scast %wi : tensor<64x1000xi8> to tensor<64x1000x!quant.uniform<i8:f32, 0.01>>
  %y = glow.quant.fully_connected %x, %w : (tensor<4x64x!x>, tensor<64x1000x!quant.uniform<i8:f32, 0.01>>) -> tensor<4x1000x!quant.uniform<i8:f32, 0.1>>
  return %y : tensor<4x1000x!quant.uniform<i8:f32, 0.1>>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// Not for the kernels: NCHW, weight zero points, runtime weights, int32 results.
// VNNI-LABEL: func.func @left_alone
// VNNI-COUNT-4: glow.quant.
// VNNI-NOT: call @glow_int8_kernel
func.func @left_alone(%x: tensor<1x4x4x16x!x>, %n: tensor<1x16x4x4x!x>, %rw: tensor<8x16x1x1x!quant.uniform<i8:f32, 0.01>>) -> (tensor<1x8x4x4x!x>, tensor<1x4x4x8x!x>, tensor<1x4x4x8x!x>, tensor<1x4x4x8x!quant.uniform<i32:f32, 5.0e-4>>) {
  %wi = glow.graph.constant dense<1> : tensor<8x16x1x1xi8>
  %w = quant.scast %wi : tensor<8x16x1x1xi8> to tensor<8x16x1x1x!quant.uniform<i8:f32, 0.01>>
  %wz = quant.scast %wi : tensor<8x16x1x1xi8> to tensor<8x16x1x1x!quant.uniform<i8:f32, 0.01:1>>
  %a = glow.quant.conv2d %n, %w : (tensor<1x16x4x4x!x>, tensor<8x16x1x1x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x8x4x4x!x>
  %b = glow.quant.conv2d %x, %wz channels_last : (tensor<1x4x4x16x!x>, tensor<8x16x1x1x!quant.uniform<i8:f32, 0.01:1>>) -> tensor<1x4x4x8x!x>
  %c = glow.quant.conv2d %x, %rw channels_last : (tensor<1x4x4x16x!x>, tensor<8x16x1x1x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x4x4x8x!x>
  %d = glow.quant.conv2d %x, %w channels_last : (tensor<1x4x4x16x!x>, tensor<8x16x1x1x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x4x4x8x!quant.uniform<i32:f32, 5.0e-4>>
  return %a, %b, %c, %d : tensor<1x8x4x4x!x>, tensor<1x4x4x8x!x>, tensor<1x4x4x8x!x>, tensor<1x4x4x8x!quant.uniform<i32:f32, 5.0e-4>>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>
!w = !quant.uniform<u8:f32, 0.01:3>

// uint8 weights with zero point 3: the centred weights (250 - 3 = 247) do not fit
// int8, so the kernel multiplies w - 128 (122, one packed row per quad, one dot
// product per step) and adds (128 - 3) x each output pixel's input window sum. The
// int32 operand holds the 32 corrected biases (-128 x 247 x 144), then the 32 factors
// 125. The window sums: the 16 channels of each padded input pixel (no 64-byte step, a
// 16-byte tail), then the 3x3 window of each output pixel.
// VNNI-LABEL: func.func @dense_uint8_weights
// VNNI: arith.constant dense_resource<packed{{.*}}> : tensor<2x36x64xi8>
// VNNI: arith.constant dense<[-4552704, {{(-4552704, )+}}-4552704, 125, {{(125, )+}}125]> : tensor<64xi32>
// VNNI: func.func private @glow_int8_kernel_{{[0-9]+}}({{.*}}: tensor<1x14x14x16xi8>, {{.*}}: tensor<2x36x64xi8>, {{.*}}: tensor<64xi32>, {{.*}}: tensor<32xf32>, {{.*}}: tensor<1x14x14x32xi8>)
// VNNI: tensor.pad
// VNNI: scf.forall ({{.*}}) in (1, 1, 16) {{.*}} -> (tensor<1x1x16x16xi32>)
// VNNI-NOT: glow.quant.dot4
// VNNI: arith.extui {{.*}} : vector<16xi8> to vector<16xi32>
// VNNI: vector.reduction <add>, {{.*}} : vector<16xi32> into i32
// VNNI: scf.forall ({{.*}}) in (1, 1, 14) {{.*}} -> (tensor<1x1x14x14xi32>)
// VNNI: scf.for
// VNNI: scf.for
// VNNI: tensor.extract {{.*}} : tensor<1x1x16x16xi32>
// VNNI: tensor.collapse_shape {{.*}} into tensor<1x14x14xi32>
// VNNI-COUNT-14: glow.quant.dot4
// VNNI-NOT: glow.quant.dot4
// VNNI: tensor.extract {{.*}} : tensor<1x14x14xi32>
// VNNI: vector.broadcast {{.*}} : i32 to vector<16xi32>
// VNNI: arith.muli {{.*}} : vector<16xi32>
// VNNI: math.roundeven
func.func @dense_uint8_weights(%x: tensor<1x14x14x16x!x>) -> tensor<1x14x14x32x!y> {
  %wi = glow.graph.constant dense<-6> : tensor<32x16x3x3xi8>
  %w = quant.scast %wi : tensor<32x16x3x3xi8> to tensor<32x16x3x3x!w>
  %y = glow.quant.conv2d %x, %w pads [1, 1, 1, 1] channels_last
      : (tensor<1x14x14x16x!x>, tensor<32x16x3x3x!w>) -> tensor<1x14x14x32x!y>
  return %y : tensor<1x14x14x32x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>
!w = !quant.uniform<u8:f32, 0.01>

// uint8 weight 255 with zero point 0 (a centred 255): offset by 128 as any uint8
// weight, 127 packed, factor 128; the input zero point 128 corrects 128 x 255 x 144.
// VNNI-LABEL: func.func @dense_uint8_weights_zero_point_0
// VNNI: arith.constant dense<[-4700160, {{(-4700160, )+}}-4700160, 128, {{(128, )+}}128]> : tensor<64xi32>
// VNNI: call @glow_int8_kernel
// VNNI-NOT: glow.quant.conv2d
func.func @dense_uint8_weights_zero_point_0(%x: tensor<1x14x14x16x!x>) -> tensor<1x14x14x32x!y> {
  %wi = glow.graph.constant dense<-1> : tensor<32x16x3x3xi8>
  %w = quant.scast %wi : tensor<32x16x3x3xi8> to tensor<32x16x3x3x!w>
  %y = glow.quant.conv2d %x, %w pads [1, 1, 1, 1] channels_last
      : (tensor<1x14x14x16x!x>, tensor<32x16x3x3x!w>) -> tensor<1x14x14x32x!y>
  return %y : tensor<1x14x14x32x!y>
}
