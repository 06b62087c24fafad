func.func @main(%a: tensor<12x197x197xf32>) -> tensor<12x197x197xf32> {
  %0 = glow.graph.softmax %a axis 2 : tensor<12x197x197xf32>
  return %0 : tensor<12x197x197xf32>
}
