// Cases the folding must leave alone (float compute stays correct).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-quantization-folding))' | FileCheck %s

!x = !quant.uniform<u8:f32, 0.05:128>

// The float result has another user: folding would compute the op twice.
// CHECK-LABEL: func.func @shared_float_result
// CHECK: glow.graph.add
// CHECK-NOT: glow.quant.add
func.func @shared_float_result(%a: tensor<4x!x>) -> (tensor<4x!x>, tensor<4xf32>) {
  %af = glow.quant.dequantize %a : tensor<4x!x> -> tensor<4xf32>
  %s = glow.graph.add %af, %af : tensor<4xf32>
  %q = glow.quant.quantize %s : tensor<4xf32> -> tensor<4x!x>
  return %q, %s : tensor<4x!x>, tensor<4xf32>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// An operand that is not dequantized (a float input) keeps the op in float.
// CHECK-LABEL: func.func @float_operand
// CHECK: glow.graph.add
// CHECK: glow.quant.quantize
func.func @float_operand(%a: tensor<4x!x>, %b: tensor<4xf32>) -> tensor<4x!x> {
  %af = glow.quant.dequantize %a : tensor<4x!x> -> tensor<4xf32>
  %s = glow.graph.add %af, %b : tensor<4xf32>
  %q = glow.quant.quantize %s : tensor<4xf32> -> tensor<4x!x>
  return %q : tensor<4x!x>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// A per-axis quantized result is not an integer op's output type.
// CHECK-LABEL: func.func @per_axis_result
// CHECK: glow.graph.add
func.func @per_axis_result(%a: tensor<2x2x!x>) -> tensor<2x2x!quant.uniform<u8:f32:1, {0.1, 0.2}>> {
  %af = glow.quant.dequantize %a : tensor<2x2x!x> -> tensor<2x2xf32>
  %s = glow.graph.add %af, %af : tensor<2x2xf32>
  %q = glow.quant.quantize %s : tensor<2x2xf32> -> tensor<2x2x!quant.uniform<u8:f32:1, {0.1, 0.2}>>
  return %q : tensor<2x2x!quant.uniform<u8:f32:1, {0.1, 0.2}>>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// Movement of per-axis quantized data would need the axis remapped: left in float.
// CHECK-LABEL: func.func @per_axis_movement
// CHECK: glow.quant.dequantize
// CHECK: glow.graph.transpose
func.func @per_axis_movement(%a: tensor<2x3x!quant.uniform<u8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<3x2xf32> {
  %af = glow.quant.dequantize %a : tensor<2x3x!quant.uniform<u8:f32:1, {0.1, 0.2, 0.3}>> -> tensor<2x3xf32>
  %t = glow.graph.transpose %af perm [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// A rescale of a value with another user cannot change that value's type.
// CHECK-LABEL: func.func @rescale_shared
// CHECK: glow.quant.rescale
func.func @rescale_shared(%x: tensor<4x!x>) -> (tensor<4x!quant.uniform<u8:f32, 0.1>>, tensor<4x!quant.uniform<u8:f32, 0.2>>) {
  %a = glow.quant.add %x, %x : (tensor<4x!x>, tensor<4x!x>) -> tensor<4x!quant.uniform<u8:f32, 0.1>>
  %r = glow.quant.rescale %a : tensor<4x!quant.uniform<u8:f32, 0.1>> -> tensor<4x!quant.uniform<u8:f32, 0.2>>
  return %a, %r : tensor<4x!quant.uniform<u8:f32, 0.1>>, tensor<4x!quant.uniform<u8:f32, 0.2>>
}
