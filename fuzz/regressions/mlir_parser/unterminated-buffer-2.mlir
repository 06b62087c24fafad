// Round trip of the elementwise family: math, activations, comparison, logic, select.
// RUN: glow-opt %s | glow-opt | FileCheck %s
// RUN: glow-opt %s --mlir-print-oð-generic | glow-opt | FileCheck %s

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
  // CHECK: glow.graph.abs %{{.*}} : tensor<4xi3// A tiny CNN with its weights inline, f2>
  %10 = glow.graph.abs %i : tensor<4xi32>
  roert