// quantize(reshape / transpose(v)) -> reshape / transpose(quantize(v)) for a per-tensor
// quantize: a MatMul of a 3-D activation, which the importer flattens to 2-D
// (reshape(matmul(reshape(x), w))), meets its quantize and becomes integer compute
// (the QDQ transformers onnxruntime's quantize_static writes).
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-quantization-folding))' | FileCheck %s

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1:120>

// CHECK-LABEL: func.func @flattened_matmul
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8x!quant.uniform<u8:f32, 5.000000e-02:128>>)
// CHECK: %[[R:.*]] = glow.graph.reshape %[[X]] : tensor<2x3x8x!quant.uniform<u8:f32, 5.000000e-02:128>> -> tensor<6x8x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[M:.*]] = glow.quant.fully_connected %[[R]], %{{.*}} : {{.*}} -> tensor<6x4x!quant.uniform<u8:f32, 1.000000e-01:120>>
// CHECK: %[[Y:.*]] = glow.graph.reshape %[[M]] : tensor<6x4x!quant.uniform<u8:f32, 1.000000e-01:120>> -> tensor<2x3x4x!quant.uniform<u8:f32, 1.000000e-01:120>>
// CHECK-NOT: glow.graph.matmul
// CHECK: return %[[Y]]
func.func @flattened_matmul(%x: tensor<2x3x8x!x>) -> tensor<2x3x4x!y> {
  %xf = glow.quant.dequantize %x : tensor<2x3x8x!x> -> tensor<2x3x8xf32>
  %x2 = glow.graph.reshape %xf : tensor<2x3x8xf32> -> tensor<6x8xf32>
  %wi = glow.graph.constant dense<3> : tensor<8x4xi8>
  %wq = quant.scast %wi : tensor<8x4xi8> to tensor<8x4x!quant.uniform<i8:f32:1, {0.01, 0.02, 0.03, 0.04}>>
  %wf = glow.quant.dequantize %wq : tensor<8x4x!quant.uniform<i8:f32:1, {0.01, 0.02, 0.03, 0.04}>> -> tensor<8x4xf32>
  %m = glow.graph.matmul %x2, %wf : (tensor<6x8xf32>, tensor<8x4xf32>) -> tensor<6x4xf32>
  %m3 = glow.graph.reshape %m : tensor<6x4xf32> -> tensor<2x3x4xf32>
  %q = glow.quant.quantize %m3 : tensor<2x3x4xf32> -> tensor<2x3x4x!y>
  return %q : tensor<2x3x4x!y>
}

// -----

!a = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.2:100>

// Attention-style batched products with a transpose before the quantize.
// CHECK-LABEL: func.func @transposed_batch_matmul
// CHECK: %[[P:.*]] = glow.quant.batch_matmul %{{.*}}, %{{.*}} : {{.*}} -> tensor<2x3x5x!quant.uniform<u8:f32, 2.000000e-01:100>>
// CHECK: %[[T:.*]] = glow.graph.transpose %[[P]] perm [0, 2, 1] : tensor<2x3x5x!quant.uniform<u8:f32, 2.000000e-01:100>> -> tensor<2x5x3x!quant.uniform<u8:f32, 2.000000e-01:100>>
// CHECK: return %[[T]]
func.func @transposed_batch_matmul(%a: tensor<2x3x4x!a>, %b: tensor<2x4x5x!a>) -> tensor<2x5x3x!y> {
  %af = glow.quant.dequantize %a : tensor<2x3x4x!a> -> tensor<2x3x4xf32>
  %bf = glow.quant.dequantize %b : tensor<2x4x5x!a> -> tensor<2x4x5xf32>
  %p = glow.graph.batch_matmul %af, %bf : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %t = glow.graph.transpose %p perm [0, 2, 1] : tensor<2x3x5xf32> -> tensor<2x5x3xf32>
  %q = glow.quant.quantize %t : tensor<2x5x3xf32> -> tensor<2x5x3x!y>
  return %q : tensor<2x5x3x!y>
}

// -----

!y = !quant.uniform<u8:f32, 0.1:120>

// Refused: a reshape with another user stays float (the float value is still needed).
// CHECK-LABEL: func.func @shared_reshape
// CHECK: %[[R:.*]] = glow.graph.reshape %{{.*}} : tensor<6x4xf32> -> tensor<2x3x4xf32>
// CHECK: glow.quant.quantize %[[R]]
func.func @shared_reshape(%m: tensor<6x4xf32>) -> (tensor<2x3x4x!y>, tensor<2x3x4xf32>) {
  %m3 = glow.graph.reshape %m : tensor<6x4xf32> -> tensor<2x3x4xf32>
  %q = glow.quant.quantize %m3 : tensor<2x3x4xf32> -> tensor<2x3x4x!y>
  return %q, %m3 : tensor<2x3x4x!y>, tensor<2x3x4xf32>
}

// -----

!y = !quant.uniform<u8:f32:1, {0.1, 0.2, 0.3}>

// Refused: a per-axis quantize does not move across a data movement that permutes
// or regroups its axis.
// CHECK-LABEL: func.func @per_axis
// CHECK: %[[T:.*]] = glow.graph.transpose %{{.*}} perm [1, 0]
// CHECK: glow.quant.quantize %[[T]]
func.func @per_axis(%m: tensor<3x2xf32>) -> tensor<2x3x!y> {
  %t = glow.graph.transpose %m perm [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %q = glow.quant.quantize %t : tensor<2x3xf32> -> tensor<2x3x!y>
  return %q : tensor<2x3x!y>
}
