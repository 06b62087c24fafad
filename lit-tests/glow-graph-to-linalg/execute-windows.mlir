// Convolution and pooling end to end through linalg and mlir-runner; the expected
// values were computed with onnxruntime 1.23.2 on the same inputs (Conv with pads 1 and
// stride 2 plus bias, MaxPool 2x2/2, AveragePool 3x3 pads 1 without
// count_include_pad, grouped Conv with group 2).
// RUN: glow-opt %s --glow-cpu-pipeline -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s

// CHECK: sizes = [1, 2, 2, 2]
// CHECK-NEXT: {{\[\[\[}}[14, 30],
// CHECK-NEXT: [57, 99]],
// CHECK-NEXT: {{\[}}[29, 61],
// CHECK-NEXT: [115, 199]]]]
// CHECK: sizes = [1, 1, 2, 2]
// CHECK-NEXT: {{\[\[\[}}[6, 8],
// CHECK-NEXT: [14, 16]]]]
// CHECK: sizes = [1, 1, 4, 4]
// CHECK-NEXT: {{\[\[\[}}[3.5, 4, 5, 5.5],
// CHECK-NEXT: [5.5, 6, 7, 7.5],
// CHECK-NEXT: [9.5, 10, 11, 11.5],
// CHECK-NEXT: [11.5, 12, 13, 13.5]]]]
// CHECK: sizes = [1, 2, 2, 2]
// CHECK-NEXT: {{\[\[\[}}[6, 8],
// CHECK-NEXT: [12, 14]],
// CHECK-NEXT: {{\[}}[24, 26],
// CHECK-NEXT: [30, 32]]]]

func.func @windows(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x3x3xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) {
  %w = glow.graph.constant dense<[[[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]], [[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]]> : tensor<2x1x3x3xf32>
  %b = glow.graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %conv = glow.graph.conv2d %x, %w, %b strides [2, 2] pads [1, 1, 1, 1] : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %max = glow.graph.max_pool %x kernel [2, 2] strides [2, 2] : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  %avg = glow.graph.avg_pool %x kernel [3, 3] pads [1, 1, 1, 1] : tensor<1x1x4x4xf32> -> tensor<1x1x4x4xf32>
  %gw = glow.graph.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]]]]> : tensor<2x1x2x2xf32>
  %gconv = glow.graph.conv2d %g, %gw group 2 : (tensor<1x2x3x3xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %conv, %max, %avg, %gconv : tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>
}

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
  %g = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]]]> : tensor<1x2x3x3xf32>
  %0:4 = call @windows(%x, %g) : (tensor<1x1x4x4xf32>, tensor<1x2x3x3xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>)
  %a = tensor.cast %0#0 : tensor<1x2x2x2xf32> to tensor<*xf32>
  call @print(%a) : (tensor<*xf32>) -> ()
  %b = tensor.cast %0#1 : tensor<1x1x2x2xf32> to tensor<*xf32>
  call @print(%b) : (tensor<*xf32>) -> ()
  %c = tensor.cast %0#2 : tensor<1x1x4x4xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  %d = tensor.cast %0#3 : tensor<1x2x2x2xf32> to tensor<*xf32>
  call @print(%d) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
