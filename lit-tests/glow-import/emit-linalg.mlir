// --emit=linalg: the model after Glow's graph optimizations as upstream-only linalg on
// tensors (the glow-export-linalg pipeline): batch norm folded into the convolution,
// channels-last convolution and pooling, elementwise work as linalg.generic, the
// ONNX names kept as argument / result attributes. Text and bytecode.
// RUN: %python %S/Inputs/models.py cnn %t.onnx
// RUN: glow-import %t.onnx --input-shape x=2x3x16x16 --emit=linalg --no-locations | FileCheck %s
// CHECK: func.func @main(%{{.*}}: tensor<2x3x16x16xf32> {glow.name = "x"}) -> (tensor<2x10xf32> {glow.name = "prob"})
// CHECK-NOT: glow.graph.
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.add
// CHECK: linalg.pooling_nhwc_max
// CHECK: linalg.matmul
// CHECK: math.exp
// RUN: glow-import %t.onnx --input-shape x=2x3x16x16 --emit=linalg --emit-bytecode -o %t.mlirbc
// RUN: mlir-opt %t.mlirbc | FileCheck %s --check-prefix=BYTECODE
// BYTECODE: linalg.conv_2d_nhwc_hwcf

// An unknown target is refused by the argument parser.
// RUN: not glow-import %t.onnx --emit=tosa 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: invalid value 'tosa' for '--emit <EMIT>'
