// Round trip of glow.quant's integer compute ops (custom and generic form).
// RUN: glow-opt %s --verify-roundtrip | glow-opt | FileCheck %s
// RUN: glow-opt %s --mlir-print-op-generic | glow-opt | FileCheck %s

!x = !quant.uniform<u8:f32, 0.05:128>
!w = !quant.uniform<i8:f32:0, {0.01, 0.02}>
!b = !quant.uniform<i32:f32:0, {5.0e-4, 1.0e-3}>
!y = !quant.uniform<u8:f32, 0.1:3>

// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x3x8x8x!x>, %w: tensor<2x3x3x3x!w>, %b: tensor<2x!b>) -> tensor<1x2x4x4x!y> {
  // CHECK: glow.quant.conv2d %{{.*}}, %{{.*}}, %{{.*}} strides [2, 2] pads [1, 1, 1, 1] min 0.000000e+00 max 6.000000e+00 : (tensor<1x3x8x8x!quant.uniform<u8:f32, 5.000000e-02:128>>
  %y = glow.quant.conv2d %x, %w, %b strides [2, 2] pads [1, 1, 1, 1] min 0.0 max 6.0
      : (tensor<1x3x8x8x!x>, tensor<2x3x3x3x!w>, tensor<2x!b>) -> tensor<1x2x4x4x!y>
  return %y : tensor<1x2x4x4x!y>
}

// CHECK-LABEL: func.func @conv_integer
func.func @conv_integer(%x: tensor<1x3x4x4x!quant.uniform<u8:f32, 1.0:3>>, %w: tensor<1x3x2x2x!quant.uniform<u8:f32, 1.0:1>>) -> tensor<1x1x3x3x!quant.uniform<i32:f32, 1.0>> {
  // CHECK: glow.quant.conv2d {{.*}} -> tensor<1x1x3x3x!quant.uniform<i32:f32, 1.000000e+00>>
  %y = glow.quant.conv2d %x, %w : (tensor<1x3x4x4x!quant.uniform<u8:f32, 1.0:3>>, tensor<1x3x2x2x!quant.uniform<u8:f32, 1.0:1>>) -> tensor<1x1x3x3x!quant.uniform<i32:f32, 1.0>>
  return %y : tensor<1x1x3x3x!quant.uniform<i32:f32, 1.0>>
}

// CHECK-LABEL: func.func @dense
func.func @dense(%x: tensor<4x8x!x>, %w: tensor<8x2x!quant.uniform<i8:f32:1, {0.01, 0.02}>>, %b: tensor<2x!b>,
                 %a: tensor<3x4x8x!x>, %c: tensor<3x8x5x!x>) -> (tensor<4x2x!y>, tensor<3x4x5x!y>) {
  // CHECK: glow.quant.fully_connected %{{.*}}, %{{.*}}, %{{.*}} min 0.000000e+00
  %y = glow.quant.fully_connected %x, %w, %b min 0.0 : (tensor<4x8x!x>, tensor<8x2x!quant.uniform<i8:f32:1, {0.01, 0.02}>>, tensor<2x!b>) -> tensor<4x2x!y>
  // CHECK: glow.quant.batch_matmul
  %z = glow.quant.batch_matmul %a, %c : (tensor<3x4x8x!x>, tensor<3x8x5x!x>) -> tensor<3x4x5x!y>
  return %y, %z : tensor<4x2x!y>, tensor<3x4x5x!y>
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<8x!x>, %b: tensor<8x!y>) -> (tensor<8x!y>, tensor<8x!y>, tensor<8x!quant.uniform<u8:f32, 0.00390625>>) {
  // CHECK: glow.quant.add %{{.*}}, %{{.*}} min 0.000000e+00
  %s = glow.quant.add %a, %b min 0.0 : (tensor<8x!x>, tensor<8x!y>) -> tensor<8x!y>
  // CHECK: glow.quant.mul
  %p = glow.quant.mul %a, %b : (tensor<8x!x>, tensor<8x!y>) -> tensor<8x!y>
  // CHECK: glow.quant.lookup_table %{{.*}} table dense<7> : tensor<256xi8>
  %t = glow.quant.lookup_table %a table dense<7> : tensor<256xi8> : tensor<8x!x> -> tensor<8x!quant.uniform<u8:f32, 0.00390625>>
  return %s, %p, %t : tensor<8x!y>, tensor<8x!y>, tensor<8x!quant.uniform<u8:f32, 0.00390625>>
}

// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x7x7x16x!x>) -> (tensor<1x1x1x16x!y>, tensor<1x3x3x16x!x>) {
  // CHECK: glow.quant.avg_pool %{{.*}} kernel [7, 7] channels_last
  %a = glow.quant.avg_pool %x kernel [7, 7] channels_last : tensor<1x7x7x16x!x> -> tensor<1x1x1x16x!y>
  // The max of quantized values is the quantized max: glow.graph.max_pool takes them.
  // CHECK: glow.graph.max_pool %{{.*}} kernel [3, 3] strides [2, 2] channels_last : tensor<1x7x7x16x!quant.uniform<u8:f32, 5.000000e-02:128>>
  %m = glow.graph.max_pool %x kernel [3, 3] strides [2, 2] channels_last : tensor<1x7x7x16x!x> -> tensor<1x3x3x16x!x>
  return %a, %m : tensor<1x1x1x16x!y>, tensor<1x3x3x16x!x>
}

// CHECK-LABEL: func.func @profile
func.func @profile(%x: tensor<4xf32>) {
  // CHECK: glow.quant.profile %{{.*}} name "x" bins 2048 id 3 : tensor<4xf32>
  glow.quant.profile %x name "x" bins 2048 id 3 : tensor<4xf32>
  return
}

// The int8 kernels' vector ops: 4-byte dot products (vpdpbusd) and a 128-byte table
// permute (vpermi2b), both pure.
// CHECK-LABEL: func.func @kernel_vector_ops
func.func @kernel_vector_ops(%acc: vector<16xi32>, %a: vector<64xi8>, %b: vector<64xi8>) -> (vector<16xi32>, vector<64xi8>) {
  // CHECK: glow.quant.dot4 %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8> into vector<16xi32>
  %d = glow.quant.dot4 %acc, %a, %b : vector<64xi8> into vector<16xi32>
  // CHECK: glow.quant.permute_bytes %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8>
  %p = glow.quant.permute_bytes %a, %b, %a : vector<64xi8>
  return %d, %p : vector<16xi32>, vector<64xi8>
}
