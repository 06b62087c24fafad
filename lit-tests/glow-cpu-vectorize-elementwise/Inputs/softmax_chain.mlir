// A softmax as glow-graph-to-linalg writes it (max, exp(x - max), sum, divide) over
// ROWS rows of N: substituted by row-chains.mlir's RUN lines with sed.
#all = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @softmax(%x: tensor<HxRxNxf32>) -> RESULTS {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<HxRxf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<HxRxf32>) -> tensor<HxRxf32>
  %max = linalg.generic {indexing_maps = [#all, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<HxRxNxf32>) outs(%f0 : tensor<HxRxf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maxnumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<HxRxf32>
  %e1 = tensor.empty() : tensor<HxRxNxf32>
  %exp = linalg.generic {indexing_maps = [#all, #row, #all], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<HxRxNxf32>, tensor<HxRxf32>) outs(%e1 : tensor<HxRxNxf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<HxRxNxf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<HxRxf32>) -> tensor<HxRxf32>
  %sum = linalg.generic {indexing_maps = [#all, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp : tensor<HxRxNxf32>) outs(%f1 : tensor<HxRxf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<HxRxf32>
  %div = linalg.generic {indexing_maps = [#all, #row, #all], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<HxRxNxf32>, tensor<HxRxf32>) outs(%e1 : tensor<HxRxNxf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<HxRxNxf32>
  return RETURNED
}
