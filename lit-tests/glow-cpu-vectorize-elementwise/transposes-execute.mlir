// Transposes vectorized in blocks and rows compute what numpy computes, through
// glow-run: NHWC -> NCHW with a ReLU (16 x 16 and 16 x 8 blocks), NCHW -> NHWC, and a
// head transpose of rows of 32.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); np.save('%t/a.npy', r.standard_normal((1, 7, 56, 48)).astype(np.float32)); np.save('%t/b.npy', r.standard_normal((2, 24, 8, 40)).astype(np.float32)); np.save('%t/c.npy', r.standard_normal((2, 9, 12, 32)).astype(np.float32)); np.save('%t/d.npy', r.standard_normal((1, 300, 12, 32)).astype(np.float32)); np.save('%t/e.npy', r.standard_normal((1, 35, 20, 19)).astype(np.float32))"
// RUN: glow-run %s --threads 1 --input input0=%t/a.npy --input input1=%t/b.npy --input input2=%t/c.npy --input input3=%t/d.npy --input input4=%t/e.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; a, b, c, d, e = (np.load('%t/' + n + '.npy') for n in 'abcde'); o = [np.load('%t/out/output%%d.npy' %% i) for i in range(5)]; print((o[0] == np.maximum(a.transpose(0, 3, 1, 2), 0)).all(), (o[1] == b.transpose(0, 2, 3, 1)).all(), (o[2] == c.transpose(0, 2, 1, 3)).all(), (o[3] == d.transpose(0, 2, 3, 1)).all(), (o[4] == e.transpose(0, 3, 1, 2)).all())" | FileCheck %s
// CHECK: True True True

func.func @main(%a: tensor<1x7x56x48xf32>, %b: tensor<2x24x8x40xf32>, %c: tensor<2x9x12x32xf32>,
                %d: tensor<1x300x12x32xf32>, %e: tensor<1x35x20x19xf32>)
    -> (tensor<1x48x7x56xf32>, tensor<2x8x40x24xf32>, tensor<2x12x9x32xf32>,
        tensor<1x12x32x300xf32>, tensor<1x19x35x20xf32>) {
  %t = glow.graph.transpose %a perm [0, 3, 1, 2] : tensor<1x7x56x48xf32> -> tensor<1x48x7x56xf32>
  %r = glow.graph.relu %t : tensor<1x48x7x56xf32>
  %u = glow.graph.transpose %b perm [0, 2, 3, 1] : tensor<2x24x8x40xf32> -> tensor<2x8x40x24xf32>
  %v = glow.graph.transpose %c perm [0, 2, 1, 3] : tensor<2x9x12x32xf32> -> tensor<2x12x9x32xf32>
  %k = glow.graph.transpose %d perm [0, 2, 3, 1] : tensor<1x300x12x32xf32> -> tensor<1x12x32x300xf32>
  %w = glow.graph.transpose %e perm [0, 3, 1, 2] : tensor<1x35x20x19xf32> -> tensor<1x19x35x20xf32>
  return %r, %u, %v, %k, %w : tensor<1x48x7x56xf32>, tensor<2x8x40x24xf32>, tensor<2x12x9x32xf32>,
      tensor<1x12x32x300xf32>, tensor<1x19x35x20xf32>
}
