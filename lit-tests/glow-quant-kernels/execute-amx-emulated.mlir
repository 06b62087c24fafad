// The AMX kernels' tiling and addressing, executed on any CPU: with
// --int8-kernels amx-emulated every tile instruction is spelled as vector code with
// tdpbusd / tdpbssd's semantics, and the results equal the reference lowering's bit
// for bit. Layers: 3x3 stride 1 on the flat padded-width grouping (2 x 2 tiles, uint8),
// 128 channels (two 64-byte chunks per tap) with int8 activations, a stride-2 3x3 and
// a stride-2 1x1 grouped by output rows (row tiles of 14, overlapping last tiles), 48
// filters (an odd number of 16-channel blocks: one filter tile), and a 4x4 map whose
// 22 flat pixels make one shifted tile; a 40 x 128 x 64 fully-connected layer (a 1 x 40
// image of 128 channels).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/qlinear_conv.py %t/a.onnx 64 64 9 11 3 1 1 u
// RUN: %python %S/Inputs/qlinear_conv.py %t/b.onnx 128 32 7 7 3 1 1 s
// RUN: %python %S/Inputs/qlinear_conv.py %t/c.onnx 64 32 28 28 3 2 1 u
// RUN: %python %S/Inputs/qlinear_conv.py %t/d.onnx 128 32 28 28 1 2 0 s
// RUN: %python %S/Inputs/qlinear_conv.py %t/e.onnx 64 48 8 8 1 1 0 u
// RUN: %python %S/Inputs/qlinear_conv.py %t/f.onnx 64 64 4 4 3 1 1 u
// RUN: %python %S/Inputs/qlinear_matmul.py %t/g.onnx 40 128 64
// Each layer takes the AMX kernel (a no_inline function of its own), not the VNNI one.
// RUN: for m in a b c d e f g; do glow-import %t/$m.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-quantization-folding,glow-channels-last),glow-quant-kernels{isa=amx-emulated})' | grep -c 'attributes {no_inline'; done | FileCheck %s --check-prefix=KERNEL
// KERNEL-COUNT-7: 1
// RUN: for m in a b c d e f g; do glow-run %t/$m.onnx --int8-kernels amx-emulated --output-dir %t/$m-amx > /dev/null && glow-run %t/$m.onnx --int8-kernels reference --output-dir %t/$m-ref > /dev/null && cmp %t/$m-amx/y.npy %t/$m-ref/y.npy && echo "$m same"; done | FileCheck %s
// CHECK: a same
// CHECK: b same
// CHECK: c same
// CHECK: d same
// CHECK: e same
// CHECK: f same
// CHECK: g same
