// Round trip of the elementwise family: math, activations, comparison, logic, select.
// RUN: glow-opt %s | glow-opt | FileCheck %s
// RUN: glow-opt %s --mlir-print-op-generic | glow-opt | FileCheck %s

// CHECK-LABEL: func.func @math
func.func @math(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> tensor<2x3xf32> {
  // CHECK: glow.graph.pow %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %0 = glow.graph.pow %x, %x : tensor<2x3xf32>
  // CHECK: glow.graph.rsqrt %{{.*}} : tensor<2x3xf32>
  %1 = glow.graph.rsqrt %0 : tensor<2x3xf32>
  // CHECK: glow.graph.exp %{{.*}} : tensor<2x3xf32>
  %2 = glow.graph.exp %1 : tensor<2x3xf32>
  // CHECK: glow.graph.log %{{.*}} : tensor<2x3xf32>
  %3 = glow.graph.log %2 : tensor<2x3xf32>
  // CHECK: glow.graph.erf %{{.*}} : tensor<2x3xf32>
  %4 = glow.graph.erf %3 : tensor<2x3xf32>
  // CHECK: glow.graph.floor %{{.*}} : tensor<2x3xf32>
  %5 = glow.graph.floor %4 : tensor<2x3xf32>
  // CHECK: glow.graph.ceil %{{.*}} : tensor<2x3xf32>
  %6 = glow.graph.ceil %5 : tensor<2x3xf32>
  // CHECK: glow.graph.round %{{.*}} : tensor<2x3xf32>
  %7 = glow.graph.round %6 : tensor<2x3xf32>
  // CHECK: glow.graph.neg %{{.*}} : tensor<2x3xf32>
  %8 = glow.graph.neg %7 : tensor<2x3xf32>
  // CHECK: glow.graph.abs %{{.*}} : tensor<2x3xf32>
  %9 = glow.graph.abs %8 : tensor<2x3xf32>
  // CHECK: glow.graph.abs %{{.*}} : tensor<4xi32>
  %10 = glow.graph.abs %i : tensor<4xi32>
  return %9 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<1x8x4x4xf32>, %s: tensor<1x8x4x4xf32>, %i: tensor<4xi8>) -> tensor<1x8x4x4xf32> {
  // CHECK: glow.graph.gelu %{{.*}} : tensor<1x8x4x4xf32>
  %0 = glow.graph.gelu %x : tensor<1x8x4x4xf32>
  // CHECK: glow.graph.gelu %{{.*}} approximate : tensor<1x8x4x4xf32>
  %1 = glow.graph.gelu %0 approximate : tensor<1x8x4x4xf32>
  // CHECK: glow.graph.leaky_relu %{{.*}} alpha 1.000000e-01 : tensor<1x8x4x4xf32>
  %2 = glow.graph.leaky_relu %1 alpha 0.1 : tensor<1x8x4x4xf32>
  // CHECK: glow.graph.leaky_relu %{{.*}} : tensor<1x8x4x4xf32>
  %3 = glow.graph.leaky_relu %2 : tensor<1x8x4x4xf32>
  // CHECK: glow.graph.hard_sigmoid %{{.*}} alpha 1.000000e+00 : tensor<1x8x4x4xf32>
  %4 = glow.graph.hard_sigmoid %3 alpha 1.0 : tensor<1x8x4x4xf32>
  // CHECK: glow.graph.hard_swish %{{.*}} : tensor<1x8x4x4xf32>
  %5 = glow.graph.hard_swish %4 : tensor<1x8x4x4xf32>
  // CHECK: glow.graph.clip %{{.*}} min 0.000000e+00 : f32 max 6.000000e+00 : f32 : tensor<1x8x4x4xf32>
  %6 = glow.graph.clip %5 min 0.0 : f32 max 6.0 : f32 : tensor<1x8x4x4xf32>
  // CHECK: glow.graph.clip %{{.*}} min -5 : i8 max 5 : i8 : tensor<4xi8>
  %7 = glow.graph.clip %i min -5 : i8 max 5 : i8 : tensor<4xi8>
  // CHECK: glow.graph.prelu %{{.*}}, %{{.*}} : tensor<1x8x4x4xf32>
  %8 = glow.graph.prelu %6, %s : tensor<1x8x4x4xf32>
  return %8 : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @compare_and_select
func.func @compare_and_select(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // CHECK: %[[EQ:.*]] = glow.graph.cmp_eq %{{.*}}, %{{.*}} : tensor<4xf32>
  %eq = glow.graph.cmp_eq %a, %b : tensor<4xf32>
  // CHECK: glow.graph.cmp_neq %{{.*}}, %{{.*}} : tensor<4xf32>
  %ne = glow.graph.cmp_neq %a, %b : tensor<4xf32>
  // CHECK: glow.graph.cmp_lt %{{.*}}, %{{.*}} : tensor<4xi64>
  %lt = glow.graph.cmp_lt %i, %i : tensor<4xi64>
  // CHECK: glow.graph.cmp_lte %{{.*}}, %{{.*}} : tensor<4xf32>
  %le = glow.graph.cmp_lte %a, %b : tensor<4xf32>
  // CHECK: glow.graph.and %{{.*}}, %{{.*}} : tensor<4xi1>
  %and = glow.graph.and %eq, %ne : tensor<4xi1>
  // CHECK: glow.graph.or %{{.*}}, %{{.*}} : tensor<4xi1>
  %or = glow.graph.or %and, %lt : tensor<4xi1>
  // CHECK: glow.graph.xor %{{.*}}, %{{.*}} : tensor<4xi1>
  %xor = glow.graph.xor %or, %le : tensor<4xi1>
  // CHECK: glow.graph.not %{{.*}} : tensor<4xi1>
  %not = glow.graph.not %xor : tensor<4xi1>
  // CHECK: glow.graph.is_nan %{{.*}} : tensor<4xf32>
  %nan = glow.graph.is_nan %a : tensor<4xf32>
  %c = glow.graph.or %not, %nan : tensor<4xi1>
  // CHECK: glow.graph.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
  %y = glow.graph.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %y : tensor<4xf32>
}
