// A module printed with --mlir-elide-resource-strings-if-larger: its weights have no data.
func.func @main(%x: tensor<64x384xf32>) -> tensor<64x1536xf32> {
  %w = glow.graph.constant dense_resource<__elided__> : tensor<384x1536xf32>
  %y = glow.graph.matmul %x, %w : (tensor<64x384xf32>, tensor<384x1536xf32>) -> tensor<64x1536xf32>
  return %y : tensor<64x1536xf32>
}
