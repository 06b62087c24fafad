// --threads N: each operation's register tiles run as an OpenMP work-sharing loop
// (scf.forall -> scf.parallel -> convert-scf-to-openmp), on LLVM's libomp. Results are
// bit-identical to one thread (no reduction is split across threads).
// RUN: rm -rf %t && mkdir -p %t
// RUN: glow-run %s --threads 1 --output-dir %t/one | FileCheck %s --check-prefix=ONE
// RUN: glow-run %s --threads 2 --output-dir %t/two | FileCheck %s --check-prefix=TWO
// RUN: glow-run %s --threads 3 --output-dir %t/three
// ONE: output0 1x16x8x8
// TWO: output0 1x16x8x8
// RUN: %python -c "import numpy as np; a, b, c = (np.load('%t/' + d + '/output0.npy') for d in ('one', 'two', 'three')); print(np.array_equal(a, b) and np.array_equal(a, c), float(np.abs(a).sum()) > 0)" | FileCheck %s --check-prefix=SAME
// SAME: True True
// RUN: not glow-run %s --threads 0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: invalid value '0' for '--threads <THREADS>'

func.func @main(%x: tensor<1x8x8x8xf32> {glow.name = "x"}) -> tensor<1x16x8x8xf32> {
  %w = glow.graph.splat 0.125 : tensor<16x8x3x3xf32>
  %b = glow.graph.splat -0.5 : tensor<16xf32>
  %y = glow.graph.conv2d %x, %w, %b strides [1, 1] pads [1, 1, 1, 1] dilations [1, 1] group 1 : (tensor<1x8x8x8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  %r = glow.graph.relu %y : tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}
