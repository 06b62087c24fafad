// Pad in edge / reflect / wrap mode and Slice with steps on runtime tensors import as
// gathers of constant positions along each axis, and run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/models.py pad-modes %t/pad.onnx
// RUN: glow-import %t/pad.onnx | FileCheck %s
// CHECK: glow.graph.constant dense<[2, 1, 0, 1, 2, 1]> : tensor<6xi64>
// CHECK: glow.graph.gather %arg0, %{{.*}} axis 1 : (tensor<2x3xf32>, tensor<6xi64>) -> tensor<2x6xf32>
// CHECK: dense<[0, 0, 0, 1, 2, 2]>
// CHECK: dense<[1, 2, 0, 1, 2, 0]>
// CHECK: dense<[0, 2, 4]>
// CHECK-NOT: glow.graph.pad
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[1, 2, 3], [4, 5, 6]], np.float32))"
// RUN: glow-run %t/pad.onnx --input x=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(n, np.load('%t/out/%%s.npy' %% n).tolist()) for n in ('reflect', 'edge', 'wrap', 'strided')]" | FileCheck %s --check-prefix=VALUES
// VALUES: reflect {{\[}}[3.0, 2.0, 1.0, 2.0, 3.0, 2.0], [6.0, 5.0, 4.0, 5.0, 6.0, 5.0]]
// VALUES-NEXT: edge {{\[}}[1.0, 1.0, 1.0, 2.0, 3.0, 3.0], [4.0, 4.0, 4.0, 5.0, 6.0, 6.0]]
// VALUES-NEXT: wrap {{\[}}[2.0, 3.0, 1.0, 2.0, 3.0, 1.0], [5.0, 6.0, 4.0, 5.0, 6.0, 4.0]]
// VALUES-NEXT: strided {{\[}}[3.0, 1.0, 3.0], [6.0, 4.0, 6.0]]
