func.func @main(%x: tensor<1x4x4x3xf32> {glow.name = "x"}) -> tensor<4x8xf32> {
  %w = glow.graph.constant dense<[[[[0.5]], [[-0.25]], [[1.0]]], [[[0.1]], [[0.2]], [[0.3]]], [[[-1.0]], [[0.0]], [[0.5]]], [[[0.7]], [[-0.7]], [[0.2]]], [[[0.5]], [[0.5]], [[0.5]]], [[[-0.5]], [[0.25]], [[0.125]]], [[[2.0]], [[-2.0]], [[1.0]]], [[[0.01]], [[0.02]], [[0.03]]]]> : tensor<8x3x1x1xf32>
  %b = glow.graph.constant dense<0.1> : tensor<8xf32>
  %c = glow.graph.conv2d %x, %w, %b channels_last : (tensor<1x4x4x3xf32>, tensor<8x3x1x1xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32> loc("conv1")
  %r = glow.graph.relu %c : tensor<1x4x4x8xf32> loc("relu1")
  %p = glow.graph.max_pool %r kernel [2, 2] strides [2, 2] channels_last : tensor<1x4x4x8xf32> -> tensor<1x2x2x8xf32> loc("pool")
  %f = glow.graph.reshape %p : tensor<1x2x2x8xf32> -> tensor<4x8xf32> loc("flatten")
  %fw = glow.graph.constant dense<0.25> : tensor<8x8xf32>
  %fb = glow.graph.constant dense<0.0> : tensor<8xf32>
  %y = glow.graph.fully_connected %f, %fw, %fb : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> loc("fc")
  return %y : tensor<4x8xf32>
}
