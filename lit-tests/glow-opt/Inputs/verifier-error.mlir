func.func @bad() {
  %0 = glow.graph.splat 1.0 : tensor<2xf32>
  %1 = glow.graph.reshape %0 : tensor<2xf32> -> tensor<3xf32>
  return
}
