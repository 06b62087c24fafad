// BitCast (opset 26): an input becomes glow.graph.bitcast; an initializer is
// reinterpreted at import (1.0 and -2.0 as int32: 1065353216 and -1073741824); a type
// of another width is refused with the node named. The node suite's ten BitCast cases
// run in python/conformance.py.
// RUN: %python %S/Inputs/models.py bitcast %t.onnx
// RUN: glow-import %t.onnx | FileCheck %s
// RUN: %python %S/Inputs/models.py bitcast-width %t-width.onnx
// RUN: not glow-import %t-width.onnx 2>&1 | FileCheck %s --check-prefix=WIDTH

// CHECK: glow.graph.bitcast %arg0 : tensor<3xf32> -> tensor<3xi32>
// CHECK: glow.graph.constant dense<[1065353216, -1073741824]> : tensor<2xi32>
// CHECK-NOT: glow.graph.bitcast
// WIDTH: glow-import: error: node 'bits' (BitCast): the input's 4-byte elements cannot be read as INT16 (2 bytes): BitCast keeps each element's bits
