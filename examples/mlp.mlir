// A small classifier head in glow.graph: batch-normalized features -> two fully
// connected layers with ReLU -> softmax. scripts/demo.sh lowers it with
// glow-lower-nodes and canonicalizes.
func.func @classifier(%features: tensor<4x64x1x1xf32>,
                      %gamma: tensor<64xf32>, %beta: tensor<64xf32>,
                      %mean: tensor<64xf32>, %var: tensor<64xf32>,
                      %w1: tensor<64x32xf32>, %b1: tensor<32xf32>,
                      %w2: tensor<32x10xf32>, %b2: tensor<10xf32>) -> tensor<4x10xf32> {
  %bn = glow.graph.batch_norm %features, %gamma, %beta, %mean, %var epsilon 1.0e-5
      : tensor<4x64x1x1xf32>, tensor<64xf32>
  %flat = glow.graph.reshape %bn : tensor<4x64x1x1xf32> -> tensor<4x64xf32>
  %h = glow.graph.fully_connected %flat, %w1, %b1
      : (tensor<4x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  %r = glow.graph.relu %h : tensor<4x32xf32>
  %logits = glow.graph.fully_connected %r, %w2, %b2
      : (tensor<4x32xf32>, tensor<32x10xf32>, tensor<10xf32>) -> tensor<4x10xf32>
  %p = glow.graph.softmax %logits axis 1 : tensor<4x10xf32>
  return %p : tensor<4x10xf32>
}
