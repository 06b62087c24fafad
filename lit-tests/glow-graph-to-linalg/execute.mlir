// End to end: glow.graph through --glow-cpu-pipeline (graph optimization, node
// lowering, linalg, bufferization with deallocation, loops, LLVM dialect), executed
// by mlir-runner. The named pipeline also nests in --pass-pipeline.
// RUN: glow-opt %s --glow-cpu-pipeline -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(glow-cpu-pipeline)' -o %t2.mlir
// RUN: mlir-runner %t2.mlir -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s
// RUN: not glow-opt %s --pass-pipeline='builtin.module(glow-cpu-pipeline{fast=1})' 2>&1 | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: pipeline 'glow-cpu-pipeline' takes no options

// x·w + b = [[-0.5, 5], [5, -7.25]]; relu, transpose, sigmoid:
// CHECK: sizes = [2, 2]
// CHECK-NEXT: {{\[}}[0.5, 0.993307],
// CHECK-NEXT: [0.993307, 0.5]]
func.func @graph(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %y = glow.graph.fully_connected %x, %w, %b : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %r = glow.graph.relu %y : tensor<2x2xf32>
  %t = glow.graph.transpose %r perm [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  %s = glow.graph.sigmoid %t : tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

// batch_norm with constant statistics (lowered, folded, converted):
// CHECK: sizes = [1, 2, 1, 2]
// CHECK-NEXT: {{\[\[\[}}[1, 3]],
// CHECK-NEXT: {{\[\[}}8, 12]]]]
func.func @normalized(%x: tensor<1x2x1x2xf32>) -> tensor<1x2x1x2xf32> {
  %scale = glow.graph.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %shift = glow.graph.constant dense<[-1.0, 0.0]> : tensor<2xf32>
  %zero = glow.graph.splat 0.0 : tensor<2xf32>
  %one = glow.graph.splat 0.99999 : tensor<2xf32>
  %y = glow.graph.batch_norm %x, %scale, %shift, %zero, %one : tensor<1x2x1x2xf32>, tensor<2xf32>
  return %y : tensor<1x2x1x2xf32>
}

// softmax and layer_norm (lowered to reductions and elementwise ops):
// CHECK: sizes = [2, 3]
// CHECK-NEXT: {{\[}}[0.0900306, 0.244728, 0.665241],
// CHECK-NEXT: [-1.22474, 0, 1.22474]]
func.func @normalize_rows(%x: tensor<1x3xf32>, %y: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %s = glow.graph.softmax %x axis 1 : tensor<1x3xf32>
  %g = glow.graph.splat 1.0 : tensor<3xf32>
  %b = glow.graph.splat 0.0 : tensor<3xf32>
  %l = glow.graph.layer_norm %y, %g, %b epsilon 0.0 : tensor<1x3xf32>, tensor<3xf32>
  %c = glow.graph.concat %s, %l dim 0 : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [-4.0, 5.0, -6.0]]> : tensor<2x3xf32>
  %w = arith.constant dense<[[1.0, -1.0], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %b = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %r = call @graph(%x, %w, %b) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  %n = arith.constant dense<[[[[1.0, 2.0]], [[2.0, 3.0]]]]> : tensor<1x2x1x2xf32>
  %q = call @normalized(%n) : (tensor<1x2x1x2xf32>) -> tensor<1x2x1x2xf32>
  %qu = tensor.cast %q : tensor<1x2x1x2xf32> to tensor<*xf32>
  %qm = bufferization.to_buffer %qu : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%qm) : (memref<*xf32>) -> ()
  %r1 = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %r2 = arith.constant dense<[[2.0, 4.0, 6.0]]> : tensor<1x3xf32>
  %n2 = call @normalize_rows(%r1, %r2) : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %nu = tensor.cast %n2 : tensor<2x3xf32> to tensor<*xf32>
  %nm = bufferization.to_buffer %nu : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%nm) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
