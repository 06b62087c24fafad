// Used by ../resize.mlir: a 1x1 convolution, nearest 2x upsampling, a 1x1 convolution
// (the channels-last layout puts transposes around both convolutions).
func.func @main(%x: tensor<1x3x5x8xf32>, %w1: tensor<4x3x1x1xf32>, %b1: tensor<4xf32>, %w2: tensor<2x4x1x1xf32>, %b2: tensor<2xf32>) -> tensor<1x2x10x16xf32> {
  %c = glow.graph.conv2d %x, %w1, %b1 : (tensor<1x3x5x8xf32>, tensor<4x3x1x1xf32>, tensor<4xf32>) -> tensor<1x4x5x8xf32>
  %r = glow.graph.resize %c mode "nearest" coordinates "asymmetric" nearest_mode "floor" scales [1.0, 1.0, 2.0, 2.0] : tensor<1x4x5x8xf32> -> tensor<1x4x10x16xf32>
  %d = glow.graph.conv2d %r, %w2, %b2 : (tensor<1x4x10x16xf32>, tensor<2x4x1x1xf32>, tensor<2xf32>) -> tensor<1x2x10x16xf32>
  return %d : tensor<1x2x10x16xf32>
}
