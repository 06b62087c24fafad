// Activation lowerings (Glow's Lower.cpp rules). Splats are constants, which the
// greedy driver hoists to the top of the function and deduplicates.
// RUN: glow-opt %s --split-input-file --glow-lower-nodes | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=relu,leaky_relu,prelu,clip,hard_swish,hard_sigmoid,gelu}))' | FileCheck %s --check-prefix=KEEP

// ReLU is select(x < 0, 0, x) rather than Glow's max(x, 0): ONNX's reference gives -0
// for -0 (numpy's maximum keeps its first operand on a tie), which 1 / relu(x) shows.
// CHECK-LABEL: func.func @relu
// CHECK: %[[Z:.*]] = glow.graph.splat 0.000000e+00 : tensor<2x3xf32>
// CHECK: %[[N:.*]] = glow.graph.cmp_lt %arg0, %[[Z]] : tensor<2x3xf32>
// CHECK: %[[Y:.*]] = glow.graph.select %[[N]], %[[Z]], %arg0 : tensor<2x3xi1>, tensor<2x3xf32>
// CHECK: return %[[Y]]
// KEEP-LABEL: func.func @relu
// KEEP: glow.graph.relu
func.func @relu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = glow.graph.relu %x : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @leaky_relu
// CHECK-DAG: %[[A:.*]] = glow.graph.splat 1.000000e-01 : tensor<4xf32>
// CHECK-DAG: %[[Z:.*]] = glow.graph.splat 0.000000e+00 : tensor<4xf32>
// CHECK: %[[N:.*]] = glow.graph.cmp_lt %arg0, %[[Z]] : tensor<4xf32>
// CHECK: %[[S:.*]] = glow.graph.mul %arg0, %[[A]] : tensor<4xf32>
// CHECK: %[[Y:.*]] = glow.graph.select %[[N]], %[[S]], %arg0 : tensor<4xi1>, tensor<4xf32>
// CHECK: return %[[Y]]
// KEEP: glow.graph.leaky_relu
func.func @leaky_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = glow.graph.leaky_relu %x alpha 0.1 : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @prelu
// CHECK: %[[N:.*]] = glow.graph.cmp_lt %arg0, %{{.*}} : tensor<4xf32>
// CHECK: %[[S:.*]] = glow.graph.mul %arg0, %arg1 : tensor<4xf32>
// CHECK: glow.graph.select %[[N]], %[[S]], %arg0
func.func @prelu(%x: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  %y = glow.graph.prelu %x, %s : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Integer clip (ONNX Clip on int8).
// CHECK-LABEL: func.func @clip
// CHECK-DAG: %[[LO:.*]] = glow.graph.splat -5 : tensor<4xi8>
// CHECK-DAG: %[[HI:.*]] = glow.graph.splat 5 : tensor<4xi8>
// CHECK: %[[M:.*]] = glow.graph.max %arg0, %[[LO]] : tensor<4xi8>
// CHECK: glow.graph.min %[[M]], %[[HI]] : tensor<4xi8>
func.func @clip(%x: tensor<4xi8>) -> tensor<4xi8> {
  %y = glow.graph.clip %x min -5 : i8 max 5 : i8 : tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @hard_swish
// CHECK: %[[P:.*]] = glow.graph.add %arg0, %{{.*}} : tensor<4xf32>
// CHECK: %[[L:.*]] = glow.graph.max %[[P]], %{{.*}}
// CHECK: %[[C:.*]] = glow.graph.min %[[L]], %[[SIX:.*]] : tensor<4xf32>
// CHECK: %[[M:.*]] = glow.graph.mul %arg0, %[[C]]
// CHECK: glow.graph.div %[[M]], %[[SIX]]
func.func @hard_swish(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = glow.graph.hard_swish %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @hard_sigmoid
// CHECK: %[[A:.*]] = glow.graph.mul %arg0, %{{.*}}
// CHECK: %[[B:.*]] = glow.graph.add %[[A]], %{{.*}}
// CHECK: %[[C:.*]] = glow.graph.min %[[B]], %{{.*}}
// CHECK: glow.graph.max %[[C]], %{{.*}}
func.func @hard_sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = glow.graph.hard_sigmoid %x alpha 0.25 beta 0.5 : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Exact Gelu uses erf; the approximate one the tanh polynomial.
// CHECK-LABEL: func.func @gelu
// CHECK: %[[D:.*]] = glow.graph.div %arg0, %{{.*}} : tensor<4xf32>
// CHECK: %[[E:.*]] = glow.graph.erf %[[D]]
// CHECK: %[[P:.*]] = glow.graph.add %[[E]], %{{.*}}
// CHECK: %[[M:.*]] = glow.graph.mul %arg0, %[[P]]
// CHECK: glow.graph.mul %[[M]], %{{.*}}
// CHECK: glow.graph.tanh
// CHECK-NOT: glow.graph.gelu
func.func @gelu(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = glow.graph.gelu %x : tensor<4xf32>
  %z = glow.graph.gelu %x approximate : tensor<4xf32>
  return %y, %z : tensor<4xf32>, tensor<4xf32>
}
