// glow-profile puts an observer on every float value an op with an integer form
// reads or produces, named after its ONNX node (the location) or input, numbered in
// IR order; a ReLU that alone follows an op is profiled instead of the op's result
// (it is fused into the integer op); weights and biases are not profiled. The
// function records the graph hash.
// RUN: glow-opt %s --pass-pipeline='builtin.module(glow-profile{bins=16})' | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME: attributes {glow.profile_hash = "{{[0-9a-f]+}}"}
// CHECK: glow.quant.profile %arg0 name "x" bins 16 :
// CHECK: %[[C:.*]] = glow.graph.conv2d
// CHECK-NOT: glow.quant.profile %[[C]]
// CHECK: %[[R:.*]] = glow.graph.relu %[[C]]
// CHECK: glow.quant.profile %[[R]] name "relu1" bins 16 id 1
// CHECK: %[[P:.*]] = glow.graph.max_pool %[[R]]
// CHECK: glow.quant.profile %[[P]] name "pool" bins 16 id 2
// CHECK: %[[S:.*]] = glow.graph.sigmoid %[[P]]
// CHECK: glow.quant.profile %[[S]] name "gate" bins 16 id 3
// CHECK: %[[M:.*]] = glow.graph.mul %[[P]], %[[S]]
// CHECK: glow.quant.profile %[[M]] name "scale" bins 16 id 4
// The softmax has no integer form: its result is not profiled.
// CHECK: glow.graph.softmax
// CHECK-NOT: glow.quant.profile
func.func @main(%x: tensor<1x4x4x3xf32> {glow.name = "x"}) -> tensor<1x2x2x8xf32> {
  %w = glow.graph.constant dense<0.5> : tensor<8x3x1x1xf32>
  %b = glow.graph.constant dense<0.1> : tensor<8xf32>
  %c = glow.graph.conv2d %x, %w, %b channels_last : (tensor<1x4x4x3xf32>, tensor<8x3x1x1xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32> loc("conv1")
  %r = glow.graph.relu %c : tensor<1x4x4x8xf32> loc("relu1")
  %p = glow.graph.max_pool %r kernel [2, 2] strides [2, 2] channels_last : tensor<1x4x4x8xf32> -> tensor<1x2x2x8xf32> loc("pool")
  %s = glow.graph.sigmoid %p : tensor<1x2x2x8xf32> loc("gate")
  %m = glow.graph.mul %p, %s : tensor<1x2x2x8xf32> loc("scale")
  %o = glow.graph.softmax %m axis 3 : tensor<1x2x2x8xf32> loc("probabilities")
  return %o : tensor<1x2x2x8xf32>
}
