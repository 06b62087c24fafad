// Trilu imports as a select with a constant triangle mask broadcast over the batch;
// Mod (fmod = 0: the divisor's sign) and BitShift as glow.graph.mod / shift_left;
// all run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/models.py trilu %t/trilu.onnx
// RUN: glow-import %t/trilu.onnx | FileCheck %s
// CHECK: %[[UPPER:.*]] = glow.graph.constant dense<{{\[}}[false, true, true, true], [false, false, true, true], [false, false, false, true]]> : tensor<3x4xi1>
// CHECK: %[[ONE:.*]] = glow.graph.reshape %[[UPPER]] : tensor<3x4xi1> -> tensor<1x3x4xi1>
// CHECK: %[[MASK:.*]] = glow.graph.broadcast %[[ONE]] axis 0 : tensor<1x3x4xi1> -> tensor<2x3x4xi1>
// CHECK: %[[ZERO:.*]] = glow.graph.splat 0.000000e+00 : tensor<2x3x4xf32>
// CHECK: glow.graph.select %[[MASK]], %arg0, %[[ZERO]] : tensor<2x3x4xi1>, tensor<2x3x4xf32>
// CHECK: glow.graph.mod %arg1, %arg2 sign_follow_divisor : tensor<4xi32>
// CHECK: glow.graph.shift_left %arg3, %arg4 : tensor<3xui8>
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4)); np.save('%t/i.npy', np.array([7, -7, 7, -7], np.int32)); np.save('%t/j.npy', np.array([3, 3, -3, -3], np.int32)); np.save('%t/u.npy', np.array([1, 3, 255], np.uint8)); np.save('%t/s.npy', np.array([1, 2, 1], np.uint8))"
// RUN: glow-run %t/trilu.onnx --input x=%t/x.npy --input i=%t/i.npy --input j=%t/j.npy --input u=%t/u.npy --input s=%t/s.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(n, np.load('%t/out/%%s.npy' %% n).tolist()) for n in ('upper', 'lower', 'mod', 'shift')]" | FileCheck %s --check-prefix=VALUES
// VALUES: upper {{\[\[}}[0.0, 2.0, 3.0, 4.0], [0.0, 0.0, 7.0, 8.0], [0.0, 0.0, 0.0, 12.0]], {{\[}}[0.0, 14.0, 15.0, 16.0], [0.0, 0.0, 19.0, 20.0], [0.0, 0.0, 0.0, 24.0]]]
// VALUES-NEXT: lower {{\[\[}}[1.0, 0.0, 0.0, 0.0], [5.0, 6.0, 0.0, 0.0], [9.0, 10.0, 11.0, 0.0]], {{\[}}[13.0, 0.0, 0.0, 0.0], [17.0, 18.0, 0.0, 0.0], [21.0, 22.0, 23.0, 0.0]]]
// VALUES-NEXT: mod [1, 2, -2, -1]
// VALUES-NEXT: shift [2, 12, 254]
