// quantize(op(dequantize ...)) -> the integer op, with a ReLU / Clip fused as the
// clamp and int32 biases used as they are (the QDQ form onnxruntime writes).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-quantization-folding))' | FileCheck %s

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// CHECK-LABEL: func.func @conv_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8x!quant.uniform<u8:f32, 5.000000e-02:128>>)
// CHECK: %[[W:.*]] = quant.scast %{{.*}} : tensor<2x3x3x3xi8> to tensor<2x3x3x3x!quant.uniform<i8:f32:0, {1.000000e-02,2.000000e-02}>>
// CHECK: %[[B:.*]] = quant.scast %{{.*}} : tensor<2xi32> to tensor<2x!quant.uniform<i32:f32:0, {5.000000e-04,1.000000e-03}>>
// CHECK: %[[Y:.*]] = glow.quant.conv2d %[[X]], %[[W]], %[[B]] pads [1, 1, 1, 1] min 0.000000e+00
// CHECK-NOT: glow.graph.conv2d
// CHECK: return %[[Y]]
func.func @conv_relu(%x: tensor<1x3x8x8x!x>) -> tensor<1x2x8x8x!y> {
  %xf = glow.quant.dequantize %x : tensor<1x3x8x8x!x> -> tensor<1x3x8x8xf32>
  %wi = glow.graph.constant dense<1> : tensor<2x3x3x3xi8>
  %wq = quant.scast %wi : tensor<2x3x3x3xi8> to tensor<2x3x3x3x!quant.uniform<i8:f32:0, {0.01, 0.02}>>
  %wf = glow.quant.dequantize %wq : tensor<2x3x3x3x!quant.uniform<i8:f32:0, {0.01, 0.02}>> -> tensor<2x3x3x3xf32>
  %bi = glow.graph.constant dense<[10, -20]> : tensor<2xi32>
  %bq = quant.scast %bi : tensor<2xi32> to tensor<2x!quant.uniform<i32:f32:0, {5.0e-4, 1.0e-3}>>
  %bf = glow.quant.dequantize %bq : tensor<2x!quant.uniform<i32:f32:0, {5.0e-4, 1.0e-3}>> -> tensor<2xf32>
  %c = glow.graph.conv2d %xf, %wf, %bf pads [1, 1, 1, 1] : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x8x8xf32>
  %r = glow.graph.relu %c : tensor<1x2x8x8xf32>
  %q = glow.quant.quantize %r : tensor<1x2x8x8xf32> -> tensor<1x2x8x8x!y>
  return %q : tensor<1x2x8x8x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// A float constant bias is quantized now, in units of scale_x * scale_w.
// CHECK-LABEL: func.func @fc_float_bias
// CHECK: glow.graph.constant dense<[20, -10]> : tensor<2xi32>
// CHECK: quant.scast %{{.*}} : tensor<2xi32> to tensor<2x!quant.uniform<i32:f32, 0.0050000003539025784>>
// CHECK: glow.quant.fully_connected %{{.*}}, %{{.*}}, %{{.*}} min 0.000000e+00 max 6.000000e+00
func.func @fc_float_bias(%x: tensor<4x8x!quant.uniform<u8:f32, 0.05>>) -> tensor<4x2x!quant.uniform<u8:f32, 0.1>> {
  %xf = glow.quant.dequantize %x : tensor<4x8x!quant.uniform<u8:f32, 0.05>> -> tensor<4x8xf32>
  %wi = glow.graph.constant dense<3> : tensor<8x2xi8>
  %wq = quant.scast %wi : tensor<8x2xi8> to tensor<8x2x!quant.uniform<i8:f32, 0.1>>
  %wf = glow.quant.dequantize %wq : tensor<8x2x!quant.uniform<i8:f32, 0.1>> -> tensor<8x2xf32>
  %b = glow.graph.constant dense<[0.1, -0.05]> : tensor<2xf32>
  %y = glow.graph.fully_connected %xf, %wf, %b : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %c = glow.graph.clip %y min 0.0 : f32 max 6.0 : f32 : tensor<4x2xf32>
  %q = glow.quant.quantize %c : tensor<4x2xf32> -> tensor<4x2x!quant.uniform<u8:f32, 0.1>>
  return %q : tensor<4x2x!quant.uniform<u8:f32, 0.1>>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// CHECK-LABEL: func.func @add_mul_matmul
// CHECK: glow.quant.add
// CHECK: glow.quant.mul
// CHECK: glow.quant.fully_connected
// CHECK: glow.quant.batch_matmul
// CHECK-NOT: glow.graph.
func.func @add_mul_matmul(%a: tensor<4x4x!x>, %b: tensor<4x4x!y>, %c: tensor<2x4x4x!x>) -> (tensor<4x4x!y>, tensor<4x4x!y>, tensor<4x4x!y>, tensor<2x4x4x!y>) {
  %af = glow.quant.dequantize %a : tensor<4x4x!x> -> tensor<4x4xf32>
  %bf = glow.quant.dequantize %b : tensor<4x4x!y> -> tensor<4x4xf32>
  %cf = glow.quant.dequantize %c : tensor<2x4x4x!x> -> tensor<2x4x4xf32>
  %s = glow.graph.add %af, %bf : tensor<4x4xf32>
  %sq = glow.quant.quantize %s : tensor<4x4xf32> -> tensor<4x4x!y>
  %p = glow.graph.mul %af, %bf : tensor<4x4xf32>
  %pq = glow.quant.quantize %p : tensor<4x4xf32> -> tensor<4x4x!y>
  %m = glow.graph.matmul %af, %bf : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %mq = glow.quant.quantize %m : tensor<4x4xf32> -> tensor<4x4x!y>
  %bm = glow.graph.batch_matmul %cf, %cf : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %bmq = glow.quant.quantize %bm : tensor<2x4x4xf32> -> tensor<2x4x4x!y>
  return %sq, %pq, %mq, %bmq : tensor<4x4x!y>, tensor<4x4x!y>, tensor<4x4x!y>, tensor<2x4x4x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// Sigmoid and tanh of 8-bit values become 256-entry tables (Glow's IntLookupTable):
// with input scale 1/16 and zero point 0, entry 128 holds sigmoid(-8) ~ 0.
// CHECK-LABEL: func.func @sigmoid_table
// CHECK: glow.quant.lookup_table %{{.*}} table dense<"0x000000000000
// CHECK-SAME: : tensor<256xi8>
func.func @sigmoid_table(%x: tensor<8x!quant.uniform<i8:f32, 0.0625>>) -> tensor<8x!quant.uniform<u8:f32, 0.00390625>> {
  %xf = glow.quant.dequantize %x : tensor<8x!quant.uniform<i8:f32, 0.0625>> -> tensor<8xf32>
  %s = glow.graph.sigmoid %xf : tensor<8xf32>
  %q = glow.quant.quantize %s : tensor<8xf32> -> tensor<8x!quant.uniform<u8:f32, 0.00390625>>
  return %q : tensor<8x!quant.uniform<u8:f32, 0.00390625>>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>

// CHECK-LABEL: func.func @avg_pool_and_concat
// CHECK: glow.quant.avg_pool %{{.*}} kernel [2, 2]
// CHECK: %[[R:.*]] = glow.quant.rescale %{{.*}} -> tensor<1x2x2x2x!quant.uniform<u8:f32, 1.000000e-01>>
// CHECK: glow.graph.concat %{{.*}}, %[[R]] dim 1
func.func @avg_pool_and_concat(%x: tensor<1x2x4x4x!x>, %y: tensor<1x2x2x2x!quant.uniform<u8:f32, 0.2>>) -> tensor<1x4x2x2x!y> {
  %xf = glow.quant.dequantize %x : tensor<1x2x4x4x!x> -> tensor<1x2x4x4xf32>
  %p = glow.graph.avg_pool %xf kernel [2, 2] strides [2, 2] : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %pq = glow.quant.quantize %p : tensor<1x2x2x2xf32> -> tensor<1x2x2x2x!y>
  %pf = glow.quant.dequantize %pq : tensor<1x2x2x2x!y> -> tensor<1x2x2x2xf32>
  %yf = glow.quant.dequantize %y : tensor<1x2x2x2x!quant.uniform<u8:f32, 0.2>> -> tensor<1x2x2x2xf32>
  %c = glow.graph.concat %pf, %yf dim 1 : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32>
  %cq = glow.quant.quantize %c : tensor<1x4x2x2xf32> -> tensor<1x4x2x2x!y>
  return %cq : tensor<1x4x2x2x!y>
}
