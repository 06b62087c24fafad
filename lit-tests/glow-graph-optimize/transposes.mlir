// Transposes sink below unary elementwise ops and concats and cancel when they meet.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' | FileCheck %s

// NCHW -> NHWC, relu, NHWC -> NCHW: no transpose left.
// CHECK-LABEL: func.func @cancel
// CHECK-NEXT: %[[R:.*]] = glow.graph.relu %arg0 : tensor<1x3x4x5xf32>
// CHECK-NEXT: return %[[R]]
func.func @cancel(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32> {
  %t = glow.graph.transpose %x perm [0, 2, 3, 1] : tensor<1x3x4x5xf32> -> tensor<1x4x5x3xf32>
  %r = glow.graph.relu %t : tensor<1x4x5x3xf32>
  %u = glow.graph.transpose %r perm [0, 3, 1, 2] : tensor<1x4x5x3xf32> -> tensor<1x3x4x5xf32>
  return %u : tensor<1x3x4x5xf32>
}

// -----

// Two transposes compose into one; attributes of the moved op survive.
// CHECK-LABEL: func.func @compose
// CHECK-NEXT: %[[L:.*]] = glow.graph.leaky_relu %arg0 alpha 2.000000e-01 : tensor<2x3x4xf32>
// CHECK-NEXT: %[[T:.*]] = glow.graph.transpose %[[L]] perm [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]]
func.func @compose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %a = glow.graph.transpose %x perm [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %b = glow.graph.leaky_relu %a alpha 0.2 : tensor<3x2x4xf32>
  %c = glow.graph.transpose %b perm [2, 1, 0] : tensor<3x2x4xf32> -> tensor<4x2x3xf32>
  return %c : tensor<4x2x3xf32>
}

// -----

// A transpose with another user stays where it is.
// CHECK-LABEL: func.func @shared
// CHECK: glow.graph.transpose %arg0
// CHECK: glow.graph.relu
func.func @shared(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %t = glow.graph.transpose %x perm [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %r = glow.graph.relu %t : tensor<3x2xf32>
  return %t, %r : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// ReLU as glow-lower-nodes writes it (cmp_lt + select against a splat zero): the
// channels-last transposes sink through the comparison and the select (the splat is
// re-made in the source shape) and cancel.
// CHECK-LABEL: func.func @relu_as_select
// CHECK-NOT: glow.graph.transpose
// CHECK: %[[Z:.*]] = glow.graph.splat 0.000000e+00 : tensor<1x3x4x5xf32>
// CHECK: %[[C:.*]] = glow.graph.cmp_lt %arg0, %[[Z]] : tensor<1x3x4x5xf32>
// CHECK: %[[S:.*]] = glow.graph.select %[[C]], %{{.*}}, %arg0 : tensor<1x3x4x5xi1>, tensor<1x3x4x5xf32>
// CHECK-NOT: glow.graph.transpose
// CHECK: return %[[S]]
func.func @relu_as_select(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32> {
  %t = glow.graph.transpose %x perm [0, 2, 3, 1] : tensor<1x3x4x5xf32> -> tensor<1x4x5x3xf32>
  %z = glow.graph.splat 0.0 : tensor<1x4x5x3xf32>
  %c = glow.graph.cmp_lt %t, %z : tensor<1x4x5x3xf32>
  %s = glow.graph.select %c, %z, %t : tensor<1x4x5x3xi1>, tensor<1x4x5x3xf32>
  %u = glow.graph.transpose %s perm [0, 3, 1, 2] : tensor<1x4x5x3xf32> -> tensor<1x3x4x5xf32>
  return %u : tensor<1x3x4x5xf32>
}

// -----

// Not sunk: the select's other operand is neither moved the same way nor a splat.
// CHECK-LABEL: func.func @select_mixed
// CHECK: glow.graph.select %{{.*}}, %arg1, %{{.*}} : tensor<1x4x5x3xi1>, tensor<1x4x5x3xf32>
// CHECK: glow.graph.transpose
func.func @select_mixed(%x: tensor<1x3x4x5xf32>, %y: tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32> {
  %t = glow.graph.transpose %x perm [0, 2, 3, 1] : tensor<1x3x4x5xf32> -> tensor<1x4x5x3xf32>
  %z = glow.graph.splat 0.0 : tensor<1x4x5x3xf32>
  %c = glow.graph.cmp_lt %t, %z : tensor<1x4x5x3xf32>
  %s = glow.graph.select %c, %y, %t : tensor<1x4x5x3xi1>, tensor<1x4x5x3xf32>
  %u = glow.graph.transpose %s perm [0, 3, 1, 2] : tensor<1x4x5x3xf32> -> tensor<1x3x4x5xf32>
  return %u : tensor<1x3x4x5xf32>
}

// -----

// A Fire module's concat: NHWC branches transposed to NCHW, joined on the channels,
// transposed back to NHWC for the next convolution. The transposes pass the concat
// (now on dimension 3) and cancel: no transpose left.
// CHECK-LABEL: func.func @concat
// CHECK-NEXT: %[[C:.*]] = glow.graph.concat %arg0, %arg1 dim 3 : (tensor<1x5x5x16xf32>, tensor<1x5x5x32xf32>) -> tensor<1x5x5x48xf32>
// CHECK-NEXT: return %[[C]]
func.func @concat(%a: tensor<1x5x5x16xf32>, %b: tensor<1x5x5x32xf32>) -> tensor<1x5x5x48xf32> {
  %ta = glow.graph.transpose %a perm [0, 3, 1, 2] : tensor<1x5x5x16xf32> -> tensor<1x16x5x5xf32>
  %tb = glow.graph.transpose %b perm [0, 3, 1, 2] : tensor<1x5x5x32xf32> -> tensor<1x32x5x5xf32>
  %c = glow.graph.concat %ta, %tb dim 1 : (tensor<1x16x5x5xf32>, tensor<1x32x5x5xf32>) -> tensor<1x48x5x5xf32>
  %t = glow.graph.transpose %c perm [0, 2, 3, 1] : tensor<1x48x5x5xf32> -> tensor<1x5x5x48xf32>
  return %t : tensor<1x5x5x48xf32>
}

// -----

// Refused: the operands are transposed differently, or one is not transposed.
// CHECK-LABEL: func.func @concat_mixed
// CHECK-COUNT-2: glow.graph.transpose
// CHECK: glow.graph.concat {{.*}} dim 1
// CHECK-LABEL: func.func @concat_untransposed
// CHECK: glow.graph.transpose
// CHECK: glow.graph.concat {{.*}} dim 1
func.func @concat_mixed(%a: tensor<1x5x5x16xf32>, %b: tensor<1x5x5x16xf32>) -> tensor<1x32x5x5xf32> {
  %ta = glow.graph.transpose %a perm [0, 3, 1, 2] : tensor<1x5x5x16xf32> -> tensor<1x16x5x5xf32>
  %tb = glow.graph.transpose %b perm [0, 3, 2, 1] : tensor<1x5x5x16xf32> -> tensor<1x16x5x5xf32>
  %c = glow.graph.concat %ta, %tb dim 1 : (tensor<1x16x5x5xf32>, tensor<1x16x5x5xf32>) -> tensor<1x32x5x5xf32>
  return %c : tensor<1x32x5x5xf32>
}
func.func @concat_untransposed(%a: tensor<1x5x5x16xf32>, %b: tensor<1x16x5x5xf32>) -> tensor<1x32x5x5xf32> {
  %ta = glow.graph.transpose %a perm [0, 3, 1, 2] : tensor<1x5x5x16xf32> -> tensor<1x16x5x5xf32>
  %c = glow.graph.concat %ta, %b dim 1 : (tensor<1x16x5x5xf32>, tensor<1x16x5x5xf32>) -> tensor<1x32x5x5xf32>
  return %c : tensor<1x32x5x5xf32>
}

// -----

// A squeeze-excitation block in the channels-last layout: SiLU (mul(t, sigmoid(t))
// of one transpose t with two users, both elementwise), the per-channel scale
// broadcast and multiplied. The transposes sink below the sigmoid although t has
// another user (that user sinks them too), below the broadcast (equal rank: only
// unit dimensions grow) and the mul, and cancel: the block runs in NHWC.
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK-NOT: glow.graph.transpose
// CHECK: %[[S:.*]] = glow.graph.sigmoid %arg0 : tensor<1x4x4x8xf32>
// CHECK: %[[X:.*]] = glow.graph.mul %arg0, %[[S]] : tensor<1x4x4x8xf32>
// CHECK: %[[B:.*]] = glow.graph.broadcast %arg1 axis 0 : tensor<1x1x1x8xf32> -> tensor<1x4x4x8xf32>
// CHECK: %[[Y:.*]] = glow.graph.mul %[[B]], %[[X]] : tensor<1x4x4x8xf32>
// CHECK-NOT: glow.graph.transpose
// CHECK: return %[[Y]]
func.func @squeeze_excitation(%x: tensor<1x4x4x8xf32>, %s: tensor<1x1x1x8xf32>) -> tensor<1x4x4x8xf32> {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x4x8xf32> -> tensor<1x8x4x4xf32>
  %sig = glow.graph.sigmoid %t : tensor<1x8x4x4xf32>
  %silu = glow.graph.mul %t, %sig : tensor<1x8x4x4xf32>
  %ts = glow.graph.transpose %s perm [0, 3, 1, 2] : tensor<1x1x1x8xf32> -> tensor<1x8x1x1xf32>
  %b = glow.graph.broadcast %ts axis 0 : tensor<1x8x1x1xf32> -> tensor<1x8x4x4xf32>
  %y = glow.graph.mul %b, %silu : tensor<1x8x4x4xf32>
  %u = glow.graph.transpose %y perm [0, 2, 3, 1] : tensor<1x8x4x4xf32> -> tensor<1x4x4x8xf32>
  return %u : tensor<1x4x4x8xf32>
}

// -----

!q = !quant.uniform<u8:f32, 0.02:115>
!h = !quant.uniform<u8:f32, 0.0019607843>
!o = !quant.uniform<u8:f32, 0.01:115>

// A quantized HardSwish as onnxruntime's QDQ graphs give it (x * HardSigmoid(x), the
// HardSigmoid in float between dequantize and quantize): the transpose t has two
// users, the chain's dequantize and the final quant.mul, whose other operand is
// computed from t by the chain; it sinks below all of it and cancels.
// CHECK-LABEL: func.func @quantized_hard_swish
// CHECK-NOT: glow.graph.transpose
// CHECK: %[[D:.*]] = glow.quant.dequantize %arg0 : tensor<1x4x4x8x!quant.uniform
// CHECK: glow.quant.quantize %{{.*}} : tensor<1x4x4x8xf32>
// CHECK: %[[M:.*]] = glow.quant.mul %arg0, %{{.*}} : (tensor<1x4x4x8x
// CHECK-NOT: glow.graph.transpose
// CHECK: return %[[M]]
func.func @quantized_hard_swish(%x: tensor<1x4x4x8x!q>) -> tensor<1x4x4x8x!o> {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x4x8x!q> -> tensor<1x8x4x4x!q>
  %d = glow.quant.dequantize %t : tensor<1x8x4x4x!q> -> tensor<1x8x4x4xf32>
  %sixth = glow.graph.splat 0.166666672 : tensor<1x8x4x4xf32>
  %half = glow.graph.splat 5.000000e-01 : tensor<1x8x4x4xf32>
  %one = glow.graph.splat 1.000000e+00 : tensor<1x8x4x4xf32>
  %zero = glow.graph.splat 0.000000e+00 : tensor<1x8x4x4xf32>
  %a = glow.graph.mul %d, %sixth : tensor<1x8x4x4xf32>
  %b = glow.graph.add %a, %half : tensor<1x8x4x4xf32>
  %c = glow.graph.min %b, %one : tensor<1x8x4x4xf32>
  %e = glow.graph.max %c, %zero : tensor<1x8x4x4xf32>
  %s = glow.quant.quantize %e : tensor<1x8x4x4xf32> -> tensor<1x8x4x4x!h>
  %m = glow.quant.mul %t, %s : (tensor<1x8x4x4x!q>, tensor<1x8x4x4x!h>) -> tensor<1x8x4x4x!o>
  %u = glow.graph.transpose %m perm [0, 2, 3, 1] : tensor<1x8x4x4x!o> -> tensor<1x4x4x8x!o>
  return %u : tensor<1x4x4x8x!o>
}

// -----

// The same chain with a value in the middle that has another user (returned): the
// transpose would have to be made twice, so it stays on the chain's input.
// CHECK-LABEL: func.func @chain_with_outside_user
// CHECK: %[[T:.*]] = glow.graph.transpose %arg0
// CHECK: glow.graph.sigmoid %[[T]]
// CHECK: glow.graph.mul %[[T]]
func.func @chain_with_outside_user(%x: tensor<1x4x4x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x4x8xf32> -> tensor<1x8x4x4xf32>
  %sig = glow.graph.sigmoid %t : tensor<1x8x4x4xf32>
  %two = glow.graph.splat 2.000000e+00 : tensor<1x8x4x4xf32>
  %scaled = glow.graph.mul %sig, %two : tensor<1x8x4x4xf32>
  %y = glow.graph.mul %t, %scaled : tensor<1x8x4x4xf32>
  return %y, %sig : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// A transpose with a user it cannot sink below (a convolution) stays single-use:
// the sigmoid is not moved, so the transpose is not made twice.
// CHECK-LABEL: func.func @shared_with_conv
// CHECK: %[[T:.*]] = glow.graph.transpose %arg0
// CHECK: glow.graph.sigmoid %[[T]]
// CHECK: glow.graph.conv2d %[[T]]
func.func @shared_with_conv(%x: tensor<1x4x4x8xf32>, %w: tensor<8x8x1x1xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %t = glow.graph.transpose %x perm [0, 3, 1, 2] : tensor<1x4x4x8xf32> -> tensor<1x8x4x4xf32>
  %sig = glow.graph.sigmoid %t : tensor<1x8x4x4xf32>
  %c = glow.graph.conv2d %t, %w : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  return %sig, %c : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}
