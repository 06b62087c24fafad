// mod (truncated and floored, zero divisors and INT_MIN % -1 without a trap, float
// fmod, unsigned) and bit shifts (amounts of at least the width, arithmetic right
// shifts of negative values) through the CPU pipeline.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; s = lambda n, v, t: np.save('%t/' + n + '.npy', np.array(v, t)); s('a', [7, -7, 7, -7, 5, -2147483648, -9, 6], np.int32); s('b', [3, 3, -3, -3, 0, -1, 40, 1], np.int32); s('f', [5.5, -5.5, 5.5, 1.0], np.float32); s('g', [2.0, 2.0, -2.0, 0.0], np.float32); s('u', [200, 17, 255, 1], np.uint8); s('s', [3, 0, 8, 7], np.uint8)"
// RUN: glow-run %s --input input0=%t/a.npy --input input1=%t/b.npy --input input2=%t/f.npy --input input3=%t/g.npy --input input4=%t/u.npy --input input5=%t/s.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(k, np.load('%t/out/output%%d.npy' %% k).tolist()) for k in range(7)]" | FileCheck %s
// CHECK: 0 [1, -1, 1, -1, 0, 0, -9, 0]
// CHECK: 1 [1, 2, -2, -1, 0, 0, 31, 0]
// CHECK: 2 [1.5, -1.5, 1.5, nan]
// CHECK: 3 [2, 0, 7, 1]
// CHECK: 4 [64, 17, 0, 128]
// CHECK: 5 [25, 17, 0, 0]
// CHECK: 6 [0, -1, 0, -1, 5, -1, -1, 3]

func.func @main(%a: tensor<8xi32>, %b: tensor<8xi32>, %f: tensor<4xf32>, %g: tensor<4xf32>, %u: tensor<4xui8>, %s: tensor<4xui8>)
    -> (tensor<8xi32>, tensor<8xi32>, tensor<4xf32>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<8xi32>) {
  %0 = glow.graph.mod %a, %b : tensor<8xi32>
  %1 = glow.graph.mod %a, %b sign_follow_divisor : tensor<8xi32>
  %2 = glow.graph.mod %f, %g : tensor<4xf32>
  %3 = glow.graph.mod %u, %s : tensor<4xui8>
  %4 = glow.graph.shift_left %u, %s : tensor<4xui8>
  %5 = glow.graph.shift_right %u, %s : tensor<4xui8>
  %6 = glow.graph.shift_right %a, %b : tensor<8xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<8xi32>, tensor<8xi32>, tensor<4xf32>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<8xi32>
}
