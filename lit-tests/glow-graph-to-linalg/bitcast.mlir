// glow.graph.bitcast (ONNX BitCast): each element's bits read as another type of the
// same width. Floats and integers of one width: arith.bitcast; a boolean and its byte
// convert as Cast does (0 / 1 out, not-zero in). Executed against numpy's views.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/f.npy', np.array([1.0, -2.5, 0.0, float('inf')], np.float32)); np.save('%t/u.npy', np.array([0, 1, 7, 255], np.uint8)); np.save('%t/h.npy', np.array([1.0, -0.5, 65504.0, 0.0], np.float16))"
// RUN: glow-run %s --input input0=%t/f.npy --input input1=%t/u.npy --input input2=%t/h.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; f, u, h = (np.load('%t/' + n + '.npy') for n in 'fuh'); o = [np.load('%t/out/output%%d.npy' %% i) for i in range(4)]; print(np.array_equal(o[0], f.view(np.int32)), np.array_equal(o[1], u.astype(bool)), np.array_equal(o[2], (u != 0).astype(np.uint8)), np.array_equal(o[3], h.view(np.int16)))" | FileCheck %s --check-prefix=EXEC
// RUN: echo 'func.func @f(%%x: tensor<4xf32>) -> tensor<4xi16> { %%0 = glow.graph.bitcast %%x : tensor<4xf32> -> tensor<4xi16>  func.return %%0 : tensor<4xi16> }' | not glow-opt 2>&1 | FileCheck %s --check-prefix=WIDTH

// CHECK-LABEL: func.func @main
// CHECK: linalg.generic
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi ne
// CHECK: arith.extui
// CHECK: arith.bitcast %{{.*}} : f16 to i16
// CHECK-NOT: glow.graph.bitcast
// EXEC: True True True True
// WIDTH: 'glow.graph.bitcast' op reinterprets 'f32' as 'i16': the element types must have the same bit width
func.func @main(%f: tensor<4xf32>, %u: tensor<4xui8>, %h: tensor<4xf16>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xui8>, tensor<4xi16>) {
  %0 = glow.graph.bitcast %f : tensor<4xf32> -> tensor<4xi32>
  %1 = glow.graph.bitcast %u : tensor<4xui8> -> tensor<4xi1>
  %2 = glow.graph.bitcast %1 : tensor<4xi1> -> tensor<4xui8>
  %3 = glow.graph.bitcast %h : tensor<4xf16> -> tensor<4xi16>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi1>, tensor<4xui8>, tensor<4xi16>
}
