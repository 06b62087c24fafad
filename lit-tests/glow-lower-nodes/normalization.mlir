// softmax / log_softmax (stable form), layer_norm, instance_norm, reduce_mean.
// RUN: glow-opt %s --split-input-file --glow-lower-nodes | FileCheck %s

// The row maximum is tagged: its NaN handling does not matter (a NaN in the row makes
// every output NaN through the sum), so glow-graph-to-linalg reduces it with maxnumf.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[M:.*]] = glow.graph.reduce_max %arg0 axes [1] keep_dims {glow.softmax_max} : tensor<2x4x3xf32> -> tensor<2x1x3xf32>
// CHECK: %[[MB:.*]] = glow.graph.broadcast %[[M]] axis 0 : tensor<2x1x3xf32> -> tensor<2x4x3xf32>
// CHECK: %[[D:.*]] = glow.graph.sub %arg0, %[[MB]]
// CHECK: %[[E:.*]] = glow.graph.exp %[[D]]
// CHECK: %[[S:.*]] = glow.graph.reduce_sum %[[E]] axes [1] keep_dims
// CHECK: %[[SB:.*]] = glow.graph.broadcast %[[S]] axis 0
// CHECK: %[[Y:.*]] = glow.graph.div %[[E]], %[[SB]]
// CHECK: return %[[Y]]
func.func @softmax(%x: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %y = glow.graph.softmax %x axis 1 : tensor<2x4x3xf32>
  return %y : tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[D:.*]] = glow.graph.sub %arg0, %{{.*}}
// CHECK: %[[S:.*]] = glow.graph.reduce_sum %{{.*}} axes [2] keep_dims
// CHECK: %[[SB:.*]] = glow.graph.broadcast %[[S]]
// CHECK: %[[L:.*]] = glow.graph.log %[[SB]]
// CHECK: glow.graph.sub %[[D]], %[[L]]
func.func @log_softmax(%x: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %y = glow.graph.log_softmax %x : tensor<2x4x3xf32>
  return %y : tensor<2x4x3xf32>
}

// -----

// Mean and variance over the last dimension (3 elements), then scale and bias
// broadcast from dimension 2.
// CHECK-LABEL: func.func @layer_norm
// CHECK-DAG: %[[N:.*]] = glow.graph.splat 3.000000e+00 : tensor<2x4x3xf32>
// CHECK-DAG: %[[EPS:.*]] = glow.graph.splat 9.99999974E-6 : tensor<2x4x3xf32>
// CHECK: glow.graph.reduce_sum %arg0 axes [2] keep_dims
// CHECK: %[[MEAN:.*]] = glow.graph.div %{{.*}}, %[[N]]
// CHECK: %[[C:.*]] = glow.graph.sub %arg0, %[[MEAN]]
// CHECK: %[[SQ:.*]] = glow.graph.mul %[[C]], %[[C]]
// CHECK: glow.graph.reduce_sum %[[SQ]] axes [2] keep_dims
// CHECK: %[[VAR:.*]] = glow.graph.div %{{.*}}, %[[N]]
// CHECK: %[[VE:.*]] = glow.graph.add %[[VAR]], %[[EPS]]
// CHECK: %[[R:.*]] = glow.graph.rsqrt %[[VE]]
// CHECK: %[[NORM:.*]] = glow.graph.mul %[[C]], %[[R]]
// CHECK: %[[G:.*]] = glow.graph.broadcast %arg1 axis 2 : tensor<3xf32> -> tensor<2x4x3xf32>
// CHECK: %[[SC:.*]] = glow.graph.mul %[[NORM]], %[[G]]
// CHECK: %[[B:.*]] = glow.graph.broadcast %arg2 axis 2
// CHECK: glow.graph.add %[[SC]], %[[B]]
func.func @layer_norm(%x: tensor<2x4x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x4x3xf32> {
  %y = glow.graph.layer_norm %x, %g, %b : tensor<2x4x3xf32>, tensor<3xf32>
  return %y : tensor<2x4x3xf32>
}

// -----

// Statistics over the spatial dimensions; scale and bias per channel (axis 1).
// CHECK-LABEL: func.func @instance_norm
// CHECK: glow.graph.reduce_sum %arg0 axes [2, 3] keep_dims : tensor<1x4x2x2xf32> -> tensor<1x4x1x1xf32>
// CHECK: glow.graph.broadcast %arg1 axis 1 : tensor<4xf32> -> tensor<1x4x2x2xf32>
// CHECK-NOT: instance_norm
func.func @instance_norm(%x: tensor<1x4x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %y = glow.graph.instance_norm %x, %s, %s : tensor<1x4x2x2xf32>, tensor<4xf32>
  return %y : tensor<1x4x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_mean
// CHECK-DAG: %[[M:.*]] = glow.graph.splat 4.000000e+00 : tensor<2x5xf32>
// CHECK-DAG: %[[N:.*]] = glow.graph.splat 2.000000e+01 : tensor<2x1x1xf32>
// CHECK: %[[S:.*]] = glow.graph.reduce_sum %arg0 axes [1, 2] keep_dims : tensor<2x4x5xf32> -> tensor<2x1x1xf32>
// CHECK: glow.graph.div %[[S]], %[[N]] : tensor<2x1x1xf32>
// CHECK: %[[T:.*]] = glow.graph.reduce_sum %arg0 axes [-2] : tensor<2x4x5xf32> -> tensor<2x5xf32>
// CHECK: glow.graph.div %[[T]], %[[M]] : tensor<2x5xf32>
func.func @reduce_mean(%x: tensor<2x4x5xf32>) -> (tensor<2x1x1xf32>, tensor<2x5xf32>) {
  %y = glow.graph.reduce_mean %x axes [1, 2] keep_dims : tensor<2x4x5xf32> -> tensor<2x1x1xf32>
  %z = glow.graph.reduce_mean %x axes [-2] : tensor<2x4x5xf32> -> tensor<2x5xf32>
  return %y, %z : tensor<2x1x1xf32>, tensor<2x5xf32>
}
