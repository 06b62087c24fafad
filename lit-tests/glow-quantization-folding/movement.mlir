// Data movement and max pooling of dequantized values run on the quantized values,
// so the quantize / dequantize pairs around them meet and cancel; quantize(
// dequantize) becomes a rescale (or nothing), and a rescale merges into the integer
// op that produces it.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-quantization-folding))' | FileCheck %s

!x = !quant.uniform<u8:f32, 0.05:128>

// CHECK-LABEL: func.func @max_pool_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4x!quant.uniform<u8:f32, 5.000000e-02:128>>)
// CHECK: %[[P:.*]] = glow.graph.max_pool %[[X]] kernel [2, 2] strides [2, 2] : tensor<1x2x4x4x!quant.uniform<u8:f32, 5.000000e-02:128>> -> tensor<1x2x2x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[R:.*]] = glow.graph.reshape %[[P]] : tensor<1x2x2x2x!quant.uniform<u8:f32, 5.000000e-02:128>> -> tensor<1x8x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: return %[[R]]
func.func @max_pool_reshape(%x: tensor<1x2x4x4x!x>) -> tensor<1x8x!x> {
  %xf = glow.quant.dequantize %x : tensor<1x2x4x4x!x> -> tensor<1x2x4x4xf32>
  %p = glow.graph.max_pool %xf kernel [2, 2] strides [2, 2] : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %pq = glow.quant.quantize %p : tensor<1x2x2x2xf32> -> tensor<1x2x2x2x!x>
  %pf = glow.quant.dequantize %pq : tensor<1x2x2x2x!x> -> tensor<1x2x2x2xf32>
  %r = glow.graph.reshape %pf : tensor<1x2x2x2xf32> -> tensor<1x8xf32>
  %rq = glow.quant.quantize %r : tensor<1x8xf32> -> tensor<1x8x!x>
  return %rq : tensor<1x8x!x>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// CHECK-LABEL: func.func @requantize
// CHECK: %[[R:.*]] = glow.quant.rescale %{{.*}} : tensor<4x!quant.uniform<u8:f32, 5.000000e-02:128>> -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
// CHECK: return %[[R]]
func.func @requantize(%x: tensor<4x!x>) -> tensor<4x!quant.uniform<i8:f32, 0.1>> {
  %xf = glow.quant.dequantize %x : tensor<4x!x> -> tensor<4xf32>
  %q = glow.quant.quantize %xf : tensor<4xf32> -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  return %q : tensor<4x!quant.uniform<i8:f32, 0.1>>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// The add requantizes to the rescale's type directly.
// CHECK-LABEL: func.func @merge_rescale
// CHECK: %[[A:.*]] = glow.quant.add %{{.*}}, %{{.*}} : (tensor<4x!quant.uniform<u8:f32, 5.000000e-02:128>>, tensor<4x!quant.uniform<u8:f32, 5.000000e-02:128>>) -> tensor<4x!quant.uniform<u8:f32, 2.000000e-01>>
// CHECK-NOT: rescale
// CHECK: return %[[A]]
func.func @merge_rescale(%x: tensor<4x!x>) -> tensor<4x!quant.uniform<u8:f32, 0.2>> {
  %a = glow.quant.add %x, %x : (tensor<4x!x>, tensor<4x!x>) -> tensor<4x!quant.uniform<u8:f32, 0.1>>
  %r = glow.quant.rescale %a : tensor<4x!quant.uniform<u8:f32, 0.1>> -> tensor<4x!quant.uniform<u8:f32, 0.2>>
  return %r : tensor<4x!quant.uniform<u8:f32, 0.2>>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// Weights of a float island (here a float sigmoid's constant operand) become float
// constants now, not a dequantize at run time: (q - zp) * scale per channel.
// CHECK-LABEL: func.func @float_island_weights
// CHECK: glow.graph.constant dense<[
// CHECK-SAME: [5.000000e-01, 1.000000e+00], [-1.000000e+00, -2.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: glow.quant.dequantize
func.func @float_island_weights(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %wi = glow.graph.constant dense<[[1, 2], [-1, -2]]> : tensor<2x2xi8>
  %wq = quant.scast %wi : tensor<2x2xi8> to tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 1.0}>>
  %w = glow.quant.dequantize %wq : tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 1.0}>> -> tensor<2x2xf32>
  %y = glow.graph.mul %x, %w : tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
