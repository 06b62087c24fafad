// Transposes sink below casts, pads and reductions, and below binary ops whose other
// operand needs no transpose (a splat of a run-time scalar, a per-channel vector, a
// spatial mask), so an integer convolution's dynamic-quantization chain keeps the
// channels-last layout; what would reorder data keeps its transpose.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s

// A per-channel vector and a scalar broadcast are re-made in the source layout: the
// vector by a reshape ([1, 8, 1, 1] -> [1, 1, 1, 8]), the scalar by a broadcast of its
// own; convert and the storage casts take the transpose along; it cancels.
// CHECK-LABEL: func.func @per_channel
// CHECK-NOT: glow.graph.transpose
// CHECK: %[[V:.*]] = glow.graph.reshape %arg1 : tensor<1x8x1x1xi32> -> tensor<1x1x1x8xi32>
// CHECK: %[[VB:.*]] = glow.graph.broadcast %[[V]] axis 0 : tensor<1x1x1x8xi32> -> tensor<1x4x5x8xi32>
// CHECK: %[[SUB:.*]] = glow.graph.sub %arg0, %[[VB]] : tensor<1x4x5x8xi32>
// CHECK: %[[F:.*]] = glow.graph.convert %[[SUB]] : tensor<1x4x5x8xi32> -> tensor<1x4x5x8xf32>
// CHECK: %[[S:.*]] = glow.graph.broadcast %{{.*}} axis 0 : tensor<1x1x1x1xf32> -> tensor<1x4x5x8xf32>
// CHECK: %[[M:.*]] = glow.graph.mul %[[F]], %[[S]] : tensor<1x4x5x8xf32>
// CHECK: return %[[M]]
func.func @per_channel(%acc: tensor<1x4x5x8xi32>, %v: tensor<1x8x1x1xi32>, %s: tensor<f32>) -> tensor<1x4x5x8xf32> {
  %t = glow.graph.transpose %acc perm [0, 3, 1, 2] : tensor<1x4x5x8xi32> -> tensor<1x8x4x5xi32>
  %vb = glow.graph.broadcast %v axis 0 : tensor<1x8x1x1xi32> -> tensor<1x8x4x5xi32>
  %sub = glow.graph.sub %t, %vb : tensor<1x8x4x5xi32>
  %f = glow.graph.convert %sub : tensor<1x8x4x5xi32> -> tensor<1x8x4x5xf32>
  %r = glow.graph.reshape %s : tensor<f32> -> tensor<1x1x1x1xf32>
  %sb = glow.graph.broadcast %r axis 0 : tensor<1x1x1x1xf32> -> tensor<1x8x4x5xf32>
  %m = glow.graph.mul %f, %sb : tensor<1x8x4x5xf32>
  %u = glow.graph.transpose %m perm [0, 2, 3, 1] : tensor<1x8x4x5xf32> -> tensor<1x4x5x8xf32>
  return %u : tensor<1x4x5x8xf32>
}

// -----

// A pad moves its amounts with the transpose; a [1, 1, H, W] mask broadcast over the
// channels keeps H before W, so it is a reshape too; tensor.bitcast and quant.scast
// take the transpose along to the convolution's input, where it cancels.
// CHECK-LABEL: func.func @pad_select
// CHECK-NOT: glow.graph.transpose
// CHECK: %[[P:.*]] = glow.graph.pad %arg0 pads [0, 1, 1, 0, 0, 1, 1, 0] value 0 : ui8 : tensor<1x4x5x16xui8> -> tensor<1x6x7x16xui8>
// CHECK: %[[MASK:.*]] = glow.graph.reshape %arg2 : tensor<1x1x6x7xi1> -> tensor<1x6x7x1xi1>
// CHECK: glow.graph.broadcast %[[MASK]] axis 0 : tensor<1x6x7x1xi1> -> tensor<1x6x7x16xi1>
// CHECK: glow.graph.select %{{.*}}, %{{.*}}, %[[P]] : tensor<1x6x7x16xi1>, tensor<1x6x7x16xui8>
// CHECK: tensor.bitcast %{{.*}} : tensor<1x6x7x16xui8> to tensor<1x6x7x16xi8>
// CHECK: quant.scast %{{.*}} : tensor<1x6x7x16xi8> to tensor<1x6x7x16x!quant.uniform<u8:f32, 1.000000e+00>>
func.func @pad_select(%x: tensor<1x4x5x16xui8>, %zero: tensor<1x1x1x1xui8>, %mask: tensor<1x1x6x7xi1>) -> tensor<1x6x7x16x!quant.uniform<u8:f32, 1.0>> {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x5x16xui8> -> tensor<1x16x4x5xui8>
  %p = glow.graph.pad %t pads [0, 0, 1, 1, 0, 0, 1, 1] value 0 : ui8 : tensor<1x16x4x5xui8> -> tensor<1x16x6x7xui8>
  %mb = glow.graph.broadcast %mask axis 0 : tensor<1x1x6x7xi1> -> tensor<1x16x6x7xi1>
  %zb = glow.graph.broadcast %zero axis 0 : tensor<1x1x1x1xui8> -> tensor<1x16x6x7xui8>
  %sel = glow.graph.select %mb, %zb, %p : tensor<1x16x6x7xi1>, tensor<1x16x6x7xui8>
  %b = tensor.bitcast %sel : tensor<1x16x6x7xui8> to tensor<1x16x6x7xi8>
  %q = quant.scast %b : tensor<1x16x6x7xi8> to tensor<1x16x6x7x!quant.uniform<u8:f32, 1.0>>
  %u = glow.graph.transpose %q perm [0, 2, 3, 1] : tensor<1x16x6x7x!quant.uniform<u8:f32, 1.0>> -> tensor<1x6x7x16x!quant.uniform<u8:f32, 1.0>>
  return %u : tensor<1x6x7x16x!quant.uniform<u8:f32, 1.0>>
}

// -----

// A reduction of every axis reads the transpose's source; one keeping axes gets the
// transpose of what remains (here the channels stay innermost: none); with keep_dims
// the reduced source is transposed back.
// CHECK-LABEL: func.func @reductions
// CHECK-DAG: %[[ALL:.*]] = glow.graph.reduce_max %arg0 axes [0, 1, 2, 3] : tensor<1x4x5x8xf32> -> tensor<f32>
// CHECK-DAG: %[[HW:.*]] = glow.graph.reduce_sum %arg0 axes [1, 2] : tensor<1x4x5x8xf32> -> tensor<1x8xf32>
// CHECK-DAG: %[[KEEP:.*]] = glow.graph.reduce_min %arg0 axes [1, 2] keep_dims : tensor<1x4x5x8xf32> -> tensor<1x1x1x8xf32>
// CHECK-DAG: glow.graph.transpose %[[KEEP]] perm [0, 3, 1, 2] : tensor<1x1x1x8xf32> -> tensor<1x8x1x1xf32>
// CHECK: return %[[ALL]], %[[HW]]
func.func @reductions(%x: tensor<1x4x5x8xf32>) -> (tensor<f32>, tensor<1x8xf32>, tensor<1x8x1x1xf32>) {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x5x8xf32> -> tensor<1x8x4x5xf32>
  %all = glow.graph.reduce_max %t axes [0, 1, 2, 3] : tensor<1x8x4x5xf32> -> tensor<f32>
  %hw = glow.graph.reduce_sum %t axes [-2, -1] : tensor<1x8x4x5xf32> -> tensor<1x8xf32>
  %keep = glow.graph.reduce_min %t axes [2, 3] keep_dims : tensor<1x8x4x5xf32> -> tensor<1x8x1x1xf32>
  return %all, %hw, %keep : tensor<f32>, tensor<1x8xf32>, tensor<1x8x1x1xf32>
}

// -----

// A reduction whose kept axes change order gets a transpose of its (smaller) result.
// CHECK-LABEL: func.func @reordered
// CHECK: %[[R:.*]] = glow.graph.reduce_sum %arg0 axes [0] : tensor<2x3x4xf32> -> tensor<3x4xf32>
// CHECK: %[[T:.*]] = glow.graph.transpose %[[R]] perm [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
// CHECK: return %[[T]]
func.func @reordered(%x: tensor<2x3x4xf32>) -> tensor<4x3xf32> {
  %t = glow.graph.transpose %x perm [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %r = glow.graph.reduce_sum %t axes [1] : tensor<4x2x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// What would move data keeps its transpose: an operand with two dimensions above 1
// whose order the permutation swaps, and a pad whose transpose has another user.
// CHECK-LABEL: func.func @refused
// CHECK: %[[T:.*]] = glow.graph.transpose %arg0 perm [0, 3, 1, 2]
// CHECK: glow.graph.add %[[T]], %{{.*}} : tensor<1x8x4x5xf32>
// CHECK: glow.graph.pad %[[T]] pads
func.func @refused(%x: tensor<1x4x5x8xf32>, %v: tensor<1x8x4x1xf32>) -> (tensor<1x8x4x5xf32>, tensor<1x8x6x7xf32>) {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x5x8xf32> -> tensor<1x8x4x5xf32>
  %vb = glow.graph.broadcast %v axis 0 : tensor<1x8x4x1xf32> -> tensor<1x8x4x5xf32>
  %a = glow.graph.add %t, %vb : tensor<1x8x4x5xf32>
  %p = glow.graph.pad %t pads [0, 0, 1, 1, 0, 0, 1, 1] value 0.0 : f32 : tensor<1x8x4x5xf32> -> tensor<1x8x6x7xf32>
  return %a, %p : tensor<1x8x4x5xf32>, tensor<1x8x6x7xf32>
}
