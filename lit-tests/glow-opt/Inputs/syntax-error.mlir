func.func @broken(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = glow.graph.relu %x : tensor<2xf32>
  return %y : tensor<2xf32
}
