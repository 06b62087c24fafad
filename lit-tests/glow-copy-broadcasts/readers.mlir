// glow-copy-broadcasts: a broadcast (a generic copying a smaller tensor into a larger
// one, or a linalg.broadcast, which is generalized) read by several generics gets a
// copy for each reader, so that elementwise fusion then folds it into every reader:
// each reads the small tensor through its own indexing map, and the large broadcast is
// never written. Left alone: one reader, a reader that is not a generic reading it as an
// input (a matmul operand), and a copy that permutes (a transpose).
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-copy-broadcasts))' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-copy-broadcasts,linalg-fuse-elementwise-ops))' | FileCheck %s --check-prefix=FUSED

#mask = affine_map<(d0, d1, d2) -> (d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t3 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

// An attention mask added to two layers' scores.
// CHECK-LABEL: func.func @two_layers
// CHECK-COUNT-2: ins(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<4x16x16xf32>)
// CHECK: arith.addf
// CHECK: arith.addf
// FUSED-LABEL: func.func @two_layers
// FUSED-NOT: outs(%{{.*}} : tensor<4x16x16xf32>) {
// FUSED: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16x16xf32>, tensor<16xf32>)
// FUSED: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16x16xf32>, tensor<16xf32>)
func.func @two_layers(%m: tensor<16xf32>, %a: tensor<4x16x16xf32>, %b: tensor<4x16x16xf32>)
    -> (tensor<4x16x16xf32>, tensor<4x16x16xf32>) {
  %e = tensor.empty() : tensor<4x16x16xf32>
  %mask = linalg.generic {indexing_maps = [#mask, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m : tensor<16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %mask : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  %z = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b, %mask : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  return %y, %z : tensor<4x16x16xf32>, tensor<4x16x16xf32>
}

// A named broadcast read twice: both readers get a generic copy.
// CHECK-LABEL: func.func @named
// CHECK-NOT: linalg.broadcast
// CHECK-COUNT-2: ins(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<4x16x16xf32>)
// CHECK-NOT: glow.copied_broadcast
func.func @named(%m: tensor<16xf32>, %a: tensor<4x16x16xf32>) -> (tensor<4x16x16xf32>, tensor<4x16x16xf32>) {
  %e = tensor.empty() : tensor<4x16x16xf32>
  %mask = linalg.broadcast ins(%m : tensor<16xf32>) outs(%e : tensor<4x16x16xf32>) dimensions = [0, 1]
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %mask : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  %z = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %mask : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  return %y, %z : tensor<4x16x16xf32>, tensor<4x16x16xf32>
}

// Left alone: a broadcast a matmul also reads, and a transposing copy read twice.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-1: ins(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<4x16x16xf32>)
// CHECK: linalg.batch_matmul
// CHECK-COUNT-1: ins(%{{.*}} : tensor<4x16x16xf32>) outs(%{{.*}} : tensor<4x16x16xf32>)
// CHECK: return
func.func @left_alone(%m: tensor<16xf32>, %a: tensor<4x16x16xf32>) -> (tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<4x16x16xf32>) {
  %e = tensor.empty() : tensor<4x16x16xf32>
  %mask = linalg.generic {indexing_maps = [#mask, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m : tensor<16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %mask : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  %mm = linalg.batch_matmul ins(%a, %mask : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %t = linalg.generic {indexing_maps = [#t3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16x16xf32>
  %u = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t, %t : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  %v = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%p: f32, %out: f32):
    %s = arith.negf %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  return %y, %mm, %u, %v : tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<4x16x16xf32>
}
