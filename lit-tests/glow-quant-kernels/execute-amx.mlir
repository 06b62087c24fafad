// The AMX kernels on AMX hardware compute the reference lowering's bits (hosts with
// AMX-INT8 only; elsewhere this test is reported UNSUPPORTED, and
// execute-amx-emulated.mlir checks the same kernels' tiling in vector code).
// REQUIRES: amx
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/qlinear_conv.py %t/a.onnx 64 64 9 11 3 1 1 u
// RUN: %python %S/Inputs/qlinear_conv.py %t/b.onnx 128 32 7 7 3 1 1 s
// RUN: %python %S/Inputs/qlinear_conv.py %t/c.onnx 64 32 28 28 3 2 1 u
// RUN: %python %S/Inputs/qlinear_conv.py %t/d.onnx 128 32 28 28 1 2 0 s
// RUN: %python %S/Inputs/qlinear_conv.py %t/e.onnx 64 48 8 8 1 1 0 u
// RUN: %python %S/Inputs/qlinear_conv.py %t/f.onnx 64 64 4 4 3 1 1 u
// RUN: %python %S/Inputs/qlinear_matmul.py %t/g.onnx 40 128 64
// RUN: for m in a b c d e f g; do glow-run %t/$m.onnx --int8-kernels amx --output-dir %t/$m-amx > /dev/null && glow-run %t/$m.onnx --int8-kernels reference --output-dir %t/$m-ref > /dev/null && cmp %t/$m-amx/y.npy %t/$m-ref/y.npy && echo "$m same"; done | FileCheck %s
// CHECK: a same
// CHECK: b same
// CHECK: c same
// CHECK: d same
// CHECK: e same
// CHECK: f same
// CHECK: g same

// A whole network (onnxruntime int8 small CNN: its narrow layers fall back to the
// vector kernels) under --int8-kernels amx equals the reference.
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t/model.onnx
// RUN: glow-run %t/model.onnx --int8-kernels amx --output-dir %t/net-amx
// RUN: glow-run %t/model.onnx --int8-kernels reference --output-dir %t/net-ref
// RUN: cmp %t/net-amx/y.npy %t/net-ref/y.npy
