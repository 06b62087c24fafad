// CenterCropPad (opset 18): a centered crop (start rounded down) then zero padding
// (the odd element on the right), as one slice and one pad; against onnxruntime. The
// node suite's six cases run in python/conformance.py.
// RUN: %python %S/Inputs/models.py center-crop-pad %t.onnx
// RUN: glow-import %t.onnx | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=5x4x3 --bin %glow_bin | FileCheck %s --check-prefix=ORT

// CHECK: glow.graph.slice %arg0 start [1, 0, 0] : tensor<5x4x3xf32> -> tensor<3x4x3xf32>
// CHECK: glow.graph.pad {{.*}} pads [0, 1, 0, 0, 2, 0]
// ORT: PASS
