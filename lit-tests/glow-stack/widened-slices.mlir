// glow-stack, through a widened kernel's slice: channel counts that 16 does not divide
// are computed widened (24 as 32) and sliced back; an elementwise generic on that
// slice alone (a ReLU) moves onto the whole result, the slice after it, so the kernel
// stacks it into its tiles. So does a generic that also reads, element for element,
// the same leading slice of another value of the kernel's widened type (a residual add
// of two widened projections, or of a projection and the previous block's sum, itself
// moved). Refused: a generic that also reads a value that is not such a slice (a
// 24-channel tensor: widening it would need a copy; a slice of another width; a
// 24-channel bias read through a broadcast map, whose widened lanes would be read out
// of bounds), and a kernel result with another user.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-stack))' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-stack,glow-cpu-tile-and-vectorize),canonicalize,cse)' | FileCheck %s --check-prefix=TILES

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// CHECK-LABEL: func.func @widened_relu
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}glow.stack{{.*}} -> tensor<1x8x8x32xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x8x8x32xf32>) outs(%{{.*}} : tensor<1x8x8x32xf32>)
// CHECK: arith.maximumf
// CHECK: %[[S:.*]] = tensor.extract_slice %[[R]][0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
// CHECK: return %[[S]]
// The ReLU is applied to the accumulators, one write per tile, no generic left.
// TILES-LABEL: func.func @widened_relu
// TILES: scf.forall
// TILES: vector.contract
// TILES: arith.maximumf {{.*}} : vector<
// TILES: tensor.parallel_insert_slice
// TILES-NOT: linalg.generic
// TILES: tensor.extract_slice {{.*}} to tensor<1x8x8x24xf32>
func.func @widened_relu(%x: tensor<1x8x8x16xf32>, %w: tensor<1x1x16x32xf32>, %b: tensor<32xf32>) -> tensor<1x8x8x24xf32> {
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %init = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x8x8x32xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s = tensor.extract_slice %c[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x8x8x24xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x8x8x24xf32>) outs(%e2 : tensor<1x8x8x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x24xf32>
  return %r : tensor<1x8x8x24xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// CHECK-LABEL: func.func @residual_add
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: glow.stack
// CHECK: %[[S:.*]] = tensor.extract_slice %[[C]]
// CHECK: linalg.generic {{.*}} ins(%[[S]], %arg3 : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>)
func.func @residual_add(%x: tensor<1x8x8x16xf32>, %w: tensor<1x1x16x32xf32>, %b: tensor<32xf32>, %skip: tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32> {
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %init = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x8x8x32xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s = tensor.extract_slice %c[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %e2 = tensor.empty() : tensor<1x8x8x24xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %skip : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>) outs(%e2 : tensor<1x8x8x24xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %a = arith.addf %in, %in2 : f32
    linalg.yield %a : f32
  } -> tensor<1x8x8x24xf32>
  return %r : tensor<1x8x8x24xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// The slice has a second user (returned as well): left alone.
// CHECK-LABEL: func.func @slice_used_twice
// CHECK-NOT: glow.stack
// CHECK: %[[S:.*]] = tensor.extract_slice
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<1x8x8x24xf32>)
func.func @slice_used_twice(%x: tensor<1x8x8x16xf32>, %w: tensor<1x1x16x32xf32>, %b: tensor<32xf32>) -> (tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>) {
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %init = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x8x8x32xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s = tensor.extract_slice %c[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x8x8x24xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x8x8x24xf32>) outs(%e2 : tensor<1x8x8x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x24xf32>
  return %r, %s : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// Two inverted residual blocks' sums: the first adds two widened projections' slices,
// the second a projection's slice and the first sum. Both adds move onto the 32-wide
// results and each sum is sliced after; the first add is stacked into the first of its
// two kernels (the stem), the second into the second projection.
// CHECK-LABEL: func.func @residual_chain
// CHECK: %[[STEM:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}glow.stack{{.*}} -> tensor<1x8x8x32xf32>
// CHECK: %[[P1:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: glow.stack
// CHECK-SAME: -> tensor<1x8x8x32xf32>
// CHECK: %[[A1:.*]] = linalg.generic {{.*}} ins(%[[P1]], %[[STEM]] : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) outs(%{{.*}} : tensor<1x8x8x32xf32>)
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[A1]][0, 0, 0, 0] [1, 8, 8, 24]
// CHECK: %[[P2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}glow.stack{{.*}} ins(%[[S1]], {{.*}} -> tensor<1x8x8x32xf32>
// CHECK: %[[A2:.*]] = linalg.generic {{.*}} ins(%[[P2]], %[[A1]] : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>)
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[A2]][0, 0, 0, 0] [1, 8, 8, 24]
// CHECK: return %[[S2]]
func.func @residual_chain(%x: tensor<1x8x8x16xf32>, %w0: tensor<1x1x16x32xf32>, %w1: tensor<1x1x16x32xf32>,
                          %w2: tensor<1x1x24x32xf32>, %b: tensor<32xf32>) -> tensor<1x8x8x24xf32> {
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %init = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x8x8x32xf32>) dimensions = [0, 1, 2]
  %stem = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w0 : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s0 = tensor.extract_slice %stem[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %p1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s1 = tensor.extract_slice %p1[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %e2 = tensor.empty() : tensor<1x8x8x24xf32>
  %a1 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s1, %s0 : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>) outs(%e2 : tensor<1x8x8x24xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %a = arith.addf %in, %in2 : f32
    linalg.yield %a : f32
  } -> tensor<1x8x8x24xf32>
  %p2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%a1, %w2 : tensor<1x8x8x24xf32>, tensor<1x1x24x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s2 = tensor.extract_slice %p2[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %e3 = tensor.empty() : tensor<1x8x8x24xf32>
  %a2 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s2, %a1 : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>) outs(%e3 : tensor<1x8x8x24xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %a = arith.addf %in, %in2 : f32
    linalg.yield %a : f32
  } -> tensor<1x8x8x24xf32>
  return %a2 : tensor<1x8x8x24xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#chan = affine_map<(a, b, c, d) -> (d)>

// A 24-channel bias read through a broadcast map: widened, its lanes 24-31 would be
// read out of bounds. Left alone.
// CHECK-LABEL: func.func @broadcast_operand
// CHECK-NOT: glow.stack
// CHECK: %[[S:.*]] = tensor.extract_slice
// CHECK: linalg.generic {{.*}} ins(%[[S]], %arg3 : tensor<1x8x8x24xf32>, tensor<24xf32>)
func.func @broadcast_operand(%x: tensor<1x8x8x16xf32>, %w: tensor<1x1x16x32xf32>, %b: tensor<32xf32>, %shift: tensor<24xf32>) -> tensor<1x8x8x24xf32> {
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %init = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x8x8x32xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s = tensor.extract_slice %c[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %e2 = tensor.empty() : tensor<1x8x8x24xf32>
  %r = linalg.generic {indexing_maps = [#id4, #chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %shift : tensor<1x8x8x24xf32>, tensor<24xf32>) outs(%e2 : tensor<1x8x8x24xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %a = arith.addf %in, %in2 : f32
    linalg.yield %a : f32
  } -> tensor<1x8x8x24xf32>
  return %r : tensor<1x8x8x24xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// The other operand is a leading slice too, but of a 48-channel value: its source is
// not the kernel's widened type. Left alone.
// CHECK-LABEL: func.func @slice_of_another_width
// CHECK-NOT: glow.stack
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32>
// CHECK: %[[T:.*]] = tensor.extract_slice %arg3[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x48xf32>
// CHECK: linalg.generic {{.*}} ins(%[[S]], %[[T]] : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>)
func.func @slice_of_another_width(%x: tensor<1x8x8x16xf32>, %w: tensor<1x1x16x32xf32>, %b: tensor<32xf32>, %wide: tensor<1x8x8x48xf32>) -> tensor<1x8x8x24xf32> {
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %init = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x8x8x32xf32>) dimensions = [0, 1, 2]
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %s = tensor.extract_slice %c[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x32xf32> to tensor<1x8x8x24xf32>
  %t = tensor.extract_slice %wide[0, 0, 0, 0] [1, 8, 8, 24] [1, 1, 1, 1] : tensor<1x8x8x48xf32> to tensor<1x8x8x24xf32>
  %e2 = tensor.empty() : tensor<1x8x8x24xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %t : tensor<1x8x8x24xf32>, tensor<1x8x8x24xf32>) outs(%e2 : tensor<1x8x8x24xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %a = arith.addf %in, %in2 : f32
    linalg.yield %a : f32
  } -> tensor<1x8x8x24xf32>
  return %r : tensor<1x8x8x24xf32>
}
