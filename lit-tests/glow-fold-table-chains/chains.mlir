// glow-fold-table-chains: an elementwise computation from one 8-bit value to an 8-bit
// result becomes one 256-entry glow.quant.lookup_table, evaluated at compile time.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-fold-table-chains))' | FileCheck %s

!x = !quant.uniform<u8:f32, 0.1:128>

// The table's values: x * 2 in the same quantization, clamped: entries 0..64 are 0,
// then 2, 4, ..., 254 at 191, and 255 from 192 on.
// CHECK-LABEL: func.func @double
// CHECK-NEXT: %[[T:.*]] = glow.quant.lookup_table %arg0 table dense<"0x{{(00){65} *}}020406{{.*}}FAFCFE{{(FF){64} *}}"> : tensor<256xi8>
// CHECK-NEXT: return %[[T]]
func.func @double(%x: tensor<4x8x!x>) -> tensor<4x8x!x> {
  %d = glow.quant.dequantize %x : tensor<4x8x!x> -> tensor<4x8xf32>
  %two = glow.graph.splat 2.000000e+00 : tensor<4x8xf32>
  %m = glow.graph.mul %d, %two : tensor<4x8xf32>
  %q = glow.quant.quantize %m : tensor<4x8xf32> -> tensor<4x8x!x>
  return %q : tensor<4x8x!x>
}

// -----

!a = !quant.uniform<u8:f32, 0.0081678573:137>
!e = !quant.uniform<u8:f32, 0.0054966472:134>
!s = !quant.uniform<u8:f32, 0.0065270038>
!p = !quant.uniform<u8:f32, 0.0076177474:45>
!y = !quant.uniform<u8:f32, 0.0038088737:45>

// ConvNeXt's GELU as onnxruntime's QDQ graph leaves it: x * (1 + erf(x / sqrt 2)) / 2
// with quantizes after the erf, the add and the product, the input read twice. One
// table from x; nothing else is left.
// CHECK-LABEL: func.func @gelu
// CHECK-NEXT: %[[T:.*]] = glow.quant.lookup_table %arg0 table dense<{{.*}}> : tensor<256xi8>
// CHECK-SAME: -> tensor<1x4x4x8x!quant.uniform<u8:f32, 0.0038088737{{.*}}:45>>
// CHECK-NEXT: return %[[T]]
func.func @gelu(%x: tensor<1x4x4x8x!a>) -> tensor<1x4x4x8x!y> {
  %d = glow.quant.dequantize %x : tensor<1x4x4x8x!a> -> tensor<1x4x4x8xf32>
  %sqrt2 = glow.graph.splat 1.41421354 : tensor<1x4x4x8xf32>
  %r = glow.graph.div %d, %sqrt2 : tensor<1x4x4x8xf32>
  %erf = glow.graph.erf %r : tensor<1x4x4x8xf32>
  %eq = glow.quant.quantize %erf : tensor<1x4x4x8xf32> -> tensor<1x4x4x8x!e>
  %ed = glow.quant.dequantize %eq : tensor<1x4x4x8x!e> -> tensor<1x4x4x8xf32>
  %one = glow.graph.splat 1.000000e+00 : tensor<1x4x4x8xf32>
  %sum = glow.graph.add %ed, %one : tensor<1x4x4x8xf32>
  %sq = glow.quant.quantize %sum : tensor<1x4x4x8xf32> -> tensor<1x4x4x8x!s>
  %prod = glow.quant.mul %x, %sq : (tensor<1x4x4x8x!a>, tensor<1x4x4x8x!s>) -> tensor<1x4x4x8x!p>
  %pd = glow.quant.dequantize %prod : tensor<1x4x4x8x!p> -> tensor<1x4x4x8xf32>
  %half = glow.graph.splat 5.000000e-01 : tensor<1x4x4x8xf32>
  %h = glow.graph.mul %pd, %half : tensor<1x4x4x8xf32>
  %y = glow.quant.quantize %h : tensor<1x4x4x8xf32> -> tensor<1x4x4x8x!y>
  return %y : tensor<1x4x4x8x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:100>
!t = !quant.uniform<u8:f32, 0.00390625>
!y = !quant.uniform<u8:f32, 0.03:100>

// SiLU after glow-quantization-folding: the sigmoid's table and the quantized product
// with x become one table.
// CHECK-LABEL: func.func @silu
// CHECK-NEXT: %[[T:.*]] = glow.quant.lookup_table %arg0 table
// CHECK-NEXT: return %[[T]]
func.func @silu(%x: tensor<2x16x!x>) -> tensor<2x16x!y> {
  %s = glow.quant.lookup_table %x table dense<7> : tensor<256xi8> : tensor<2x16x!x> -> tensor<2x16x!t>
  %y = glow.quant.mul %x, %s : (tensor<2x16x!x>, tensor<2x16x!t>) -> tensor<2x16x!y>
  return %y : tensor<2x16x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:100>

// Refused: a second input (x + z is no function of x alone).
// CHECK-LABEL: func.func @two_inputs
// CHECK: glow.graph.add
// CHECK-NOT: glow.quant.lookup_table
func.func @two_inputs(%x: tensor<8x!x>, %z: tensor<8xf32>) -> tensor<8x!x> {
  %d = glow.quant.dequantize %x : tensor<8x!x> -> tensor<8xf32>
  %s = glow.graph.add %d, %z : tensor<8xf32>
  %e = glow.graph.exp %s : tensor<8xf32>
  %q = glow.quant.quantize %e : tensor<8xf32> -> tensor<8x!x>
  return %q : tensor<8x!x>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:100>

// Refused: a value inside the chain has a user outside it (the exp, returned), so the
// chain would not die; and a per-channel constant operand is no splat.
// CHECK-LABEL: func.func @outside_user
// CHECK: glow.graph.exp
// CHECK: glow.quant.quantize
// CHECK-NOT: glow.quant.lookup_table
// CHECK-LABEL: func.func @per_channel_operand
// CHECK: glow.graph.mul
// CHECK-NOT: glow.quant.lookup_table
func.func @outside_user(%x: tensor<8x!x>) -> (tensor<8x!x>, tensor<8xf32>) {
  %d = glow.quant.dequantize %x : tensor<8x!x> -> tensor<8xf32>
  %e = glow.graph.exp %d : tensor<8xf32>
  %q = glow.quant.quantize %e : tensor<8xf32> -> tensor<8x!x>
  return %q, %e : tensor<8x!x>, tensor<8xf32>
}
func.func @per_channel_operand(%x: tensor<8x!x>) -> tensor<8x!x> {
  %d = glow.quant.dequantize %x : tensor<8x!x> -> tensor<8xf32>
  %c = glow.graph.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %m = glow.graph.mul %d, %c : tensor<8xf32>
  %q = glow.quant.quantize %m : tensor<8xf32> -> tensor<8x!x>
  return %q : tensor<8x!x>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:100>
!y = !quant.uniform<u8:f32, 0.1:100>

// One op alone stays (a table is no cheaper), unless it reads its input twice.
// CHECK-LABEL: func.func @single_rescale
// CHECK-NEXT: glow.quant.rescale
// CHECK-LABEL: func.func @square
// CHECK-NEXT: glow.quant.lookup_table %arg0
func.func @single_rescale(%x: tensor<8x!x>) -> tensor<8x!y> {
  %r = glow.quant.rescale %x : tensor<8x!x> -> tensor<8x!y>
  return %r : tensor<8x!y>
}
func.func @square(%x: tensor<8x!x>) -> tensor<8x!y> {
  %r = glow.quant.mul %x, %x : (tensor<8x!x>, tensor<8x!x>) -> tensor<8x!y>
  return %r : tensor<8x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:100>
!c = !quant.uniform<u8:f32:1, {0.1:100, 0.2:100}>

// Refused: a value in the middle quantized per axis (its scale depends on the
// element's position, which a table of the input's value cannot know).
// CHECK-LABEL: func.func @per_axis_middle
// CHECK: glow.quant.quantize %{{.*}} -> tensor<4x2x!quant.uniform<u8:f32:1
// CHECK-NOT: glow.quant.lookup_table
func.func @per_axis_middle(%x: tensor<4x2x!x>) -> tensor<4x2x!x> {
  %d = glow.quant.dequantize %x : tensor<4x2x!x> -> tensor<4x2xf32>
  %e = glow.graph.exp %d : tensor<4x2xf32>
  %c = glow.quant.quantize %e : tensor<4x2xf32> -> tensor<4x2x!c>
  %cd = glow.quant.dequantize %c : tensor<4x2x!c> -> tensor<4x2xf32>
  %q = glow.quant.quantize %cd : tensor<4x2xf32> -> tensor<4x2x!x>
  return %q : tensor<4x2x!x>
}
