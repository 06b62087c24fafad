// glow-import --print-signature: the inputs of the compiled model (an input an
// initializer backs is a default, not one of them) and the outputs, with element types
// and declared dimensions, symbolic ones by name (`?` unnamed), without importing the
// graph. The glow Python package reads it to compile models with open dimensions per
// input shape (docs/python.md).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/models.py signature %t/signature.onnx
// RUN: glow-import %t/signature.onnx --print-signature | FileCheck %s
// CHECK:      {{^}}input x: f32 [batch, sequence, 4]{{$}}
// CHECK-NEXT: {{^}}input ids: i64 [?, 3]{{$}}
// CHECK-NEXT: {{^}}input free: f32 unknown shape{{$}}
// CHECK-NEXT: {{^}}output y: f32 [batch, sequence, 4]{{$}}
// CHECK-NEXT: {{^}}output z: f32 [?, 3]{{$}}
// CHECK-NEXT: {{^}}output w: f32 [2]{{$}}
// CHECK-NOT: bias

// A file that is not a model: the usual one-line error.
// RUN: echo garbage > %t/garbage.onnx
// RUN: not glow-import %t/garbage.onnx --print-signature 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: glow-import: error: '{{.*}}garbage.onnx' is not a valid ONNX model
