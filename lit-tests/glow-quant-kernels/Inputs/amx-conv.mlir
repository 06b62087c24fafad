!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.1>
func.func @amx_layer(%x: tensor<1x14x14x64x!x>) -> tensor<1x14x14x64x!y> {
  %wi = glow.graph.constant dense<1> : tensor<64x64x3x3xi8>
  %w = quant.scast %wi : tensor<64x64x3x3xi8> to tensor<64x64x3x3x!quant.uniform<i8:f32, 0.01>>
  %y = glow.quant.conv2d %x, %w pads [1, 1, 1, 1] channels_last min 0.0
      : (tensor<1x14x14x64x!x>, tensor<64x64x3x3x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x14x14x64x!y>
  return %y : tensor<1x14x14x64x!y>
}
