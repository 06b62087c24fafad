// Index-computing ops through the CPU pipeline: arg_max / arg_min (ties, last index,
// kept dims), top_k (ties to the lower index), scatter_elements, gather_elements (negative indices), tile, round half to even, integer pow.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[1, 5, 5], [7, 2, 0]], np.float32)); np.save('%t/i.npy', np.array([[2, 0], [-2, 1]], np.int64)); np.save('%t/n.npy', np.array([2, 3, -2], np.int32))"
// RUN: glow-run %s --input input0=%t/x.npy --input input1=%t/i.npy --input input2=%t/n.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(k, np.load('%t/out/output%%d.npy' %% k).tolist()) for k in range(11)]" | FileCheck %s
// CHECK: 0 [1, 0]
// CHECK: 1 [2, 0]
// CHECK: 2 {{\[}}[0, 1, 1]]
// CHECK: 3 {{\[}}[5.0, 1.0], [2.0, 2.0]]
// CHECK: 4 {{\[}}[1.0, 5.0, 5.0, 1.0, 5.0, 5.0], [7.0, 2.0, 0.0, 7.0, 2.0, 0.0]]
// CHECK: 5 {{\[}}[0.0, 2.0, 2.0], [4.0, 1.0, 0.0]]
// CHECK: 6 [4, 27, 0]
// CHECK: 7 {{\[}}[5.0, 5.0], [7.0, 2.0]]
// CHECK: 8 {{\[}}[1, 2], [0, 1]]
// CHECK: 9 {{\[}}[1.0, 5.0, 1.0], [7.0, 2.0, 0.0]]
// CHECK: 10 {{\[}}[2.0, 5.0, 6.0], [7.0, 2.0, 0.0]]

func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %n: tensor<3xi32>)
    -> (tensor<2xi64>, tensor<2xi64>, tensor<1x3xi64>, tensor<2x2xf32>, tensor<2x6xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = glow.graph.arg_max %x axis 1 : tensor<2x3xf32> -> tensor<2xi64>
  %1 = glow.graph.arg_max %x axis 1 select_last_index : tensor<2x3xf32> -> tensor<2xi64>
  %2 = glow.graph.arg_min %x axis 0 keep_dims : tensor<2x3xf32> -> tensor<1x3xi64>
  %3 = glow.graph.gather_elements %x, %i axis 1 : tensor<2x3xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  %4 = glow.graph.tile %x repeats [1, 2] : tensor<2x3xf32> -> tensor<2x6xf32>
  %half = glow.graph.splat 0.5 : tensor<2x3xf32>
  %h = glow.graph.mul %x, %half : tensor<2x3xf32>
  %5 = glow.graph.round %h : tensor<2x3xf32>
  %6 = glow.graph.pow %n, %n : tensor<3xi32>
  %7, %8 = glow.graph.top_k %x k 2 axis 1 : tensor<2x3xf32> -> tensor<2x2xf32>, tensor<2x2xi64>
  // Row 0 of the data gets 1 written (none) or added (add) at columns 2 and 0.
  %ones = glow.graph.splat 1.0 : tensor<1x2xf32>
  %rows = glow.graph.slice %i start [0, 0] : tensor<2x2xi64> -> tensor<1x2xi64>
  %9 = glow.graph.scatter_elements %x, %rows, %ones axis 1 : tensor<2x3xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %10 = glow.graph.scatter_elements %x, %rows, %ones axis 1 reduction "add" : tensor<2x3xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<2xi64>, tensor<2xi64>, tensor<1x3xi64>, tensor<2x2xf32>, tensor<2x6xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x3xf32>, tensor<2x3xf32>
}
