// Element types beyond f32: unsigned integers keep their semantics through the CPU
// pipeline (divui, maxui, cmpi ult, uitofp, unsigned reductions) and glow-run
// exchanges them as .npy uint8; f16 and i16 go through as float16 / int16.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([200, 10, 255], np.uint8)); np.save('%t/y.npy', np.array([3, 20, 1], np.uint8)); np.save('%t/h.npy', np.array([0.5, -2, 1000], np.float16)); np.save('%t/s.npy', np.array([-300, 7, 32000], np.int16))"
// RUN: glow-run %s --input input0=%t/x.npy --input input1=%t/y.npy --input input2=%t/h.npy --input input3=%t/s.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(k, np.load('%t/out/output%%d.npy' %% k).tolist(), np.load('%t/out/output%%d.npy' %% k).dtype) for k in range(7)]" | FileCheck %s
// CHECK: 0 [66, 0, 255] uint8
// CHECK: 1 [200, 20, 255] uint8
// CHECK: 2 [False, True, False] bool
// CHECK: 3 [200.0, 10.0, 255.0] float32
// CHECK: 4 [10] uint8
// CHECK: 5 [1.0, -4.0, 2000.0] float16
// CHECK: 6 [300, 7, 32000] int16

func.func @main(%x: tensor<3xui8>, %y: tensor<3xui8>, %h: tensor<3xf16>, %s: tensor<3xi16>) -> (tensor<3xui8>, tensor<3xui8>, tensor<3xi1>, tensor<3xf32>, tensor<1xui8>, tensor<3xf16>, tensor<3xi16>) {
  %q = glow.graph.div %x, %y : tensor<3xui8>
  %m = glow.graph.max %x, %y : tensor<3xui8>
  %l = glow.graph.cmp_lt %x, %y : tensor<3xui8>
  %f = glow.graph.convert %x : tensor<3xui8> -> tensor<3xf32>
  %r = glow.graph.reduce_min %x axes [0] keep_dims : tensor<3xui8> -> tensor<1xui8>
  %h2 = glow.graph.add %h, %h : tensor<3xf16>
  %a = glow.graph.abs %s : tensor<3xi16>
  return %q, %m, %l, %f, %r, %h2, %a : tensor<3xui8>, tensor<3xui8>, tensor<3xi1>, tensor<3xf32>, tensor<1xui8>, tensor<3xf16>, tensor<3xi16>
}
