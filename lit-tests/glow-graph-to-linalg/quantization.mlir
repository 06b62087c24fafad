// glow.quant ops on the storage integers: quantize = clamp(roundeven(x / scale) + zp),
// dequantize = (q - zp) * scale (per axis: parameters read at the channel's index);
// the !quant types then become their storage integers and the casts disappear.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @round_trip(%arg0: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xf32>)
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi {{.*}} : f32 to i32
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK: arith.extui {{.*}} : i8 to i32
// CHECK: arith.subi
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK-NOT: quant.
func.func @round_trip(%x: tensor<4xf32>) -> (tensor<4x!quant.uniform<u8:f32, 0.5:128>>, tensor<4xf32>) {
  %q = glow.quant.quantize %x : tensor<4xf32> -> tensor<4x!quant.uniform<u8:f32, 0.5:128>>
  %d = glow.quant.dequantize %q : tensor<4x!quant.uniform<u8:f32, 0.5:128>> -> tensor<4xf32>
  return %q, %d : tensor<4x!quant.uniform<u8:f32, 0.5:128>>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @per_axis
// CHECK: arith.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK: arith.constant dense<[0, 3]> : tensor<2xi32>
// CHECK: %[[C:.*]] = linalg.index 1
// CHECK: tensor.extract %{{.*}}[%[[C]]] : tensor<2xf32>
// CHECK: arith.extsi {{.*}} : i8 to i32
func.func @per_axis(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %q = glow.quant.quantize %x : tensor<3x2xf32> -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25:3}>>
  %d = glow.quant.dequantize %q : tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25:3}>> -> tensor<3x2xf32>
  return %d : tensor<3x2xf32>
}
