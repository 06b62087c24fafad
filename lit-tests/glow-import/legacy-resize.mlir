// The resampling ops of opsets 7-10, which models of that era (ONNX model zoo YOLO /
// style-transfer / super-resolution exports, keras2onnx, tf2onnx at opset 10) use:
// Upsample with scales as an attribute (opset 7) or input (opset 9), and Resize-10.
// All become glow.graph.resize with asymmetric coordinates; nearest truncates the
// source coordinate when growing and rounds it up when shrinking, as onnxruntime does
// for these opsets. Integer and fractional scales, nearest and linear, match it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/legacy_resize.py upsample7 %t/upsample7.onnx
// RUN: glow-import %t/upsample7.onnx | FileCheck %s --check-prefix=IR
// IR: glow.graph.resize %{{.*}} mode "nearest" coordinates "asymmetric" nearest_mode "floor" scales [1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00] : tensor<2x3x5x7xf32> -> tensor<2x3x10x14xf32>
// IR: glow.graph.resize %{{.*}} mode "nearest" coordinates "asymmetric" {{.*}} -> tensor<2x3x7x17xf32>
// IR: glow.graph.resize %{{.*}} mode "linear" coordinates "asymmetric" {{.*}} -> tensor<2x3x10x12xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/upsample7.onnx --input-shape x=2x3x5x7 --bin %glow_bin | FileCheck %s --check-prefix=UP7
// UP7: output nearest2x: 840 values, max |glow - ort| = 0,
// UP7: output nearest_frac: 714 values, max |glow - ort| = 0,
// UP7: PASS
// RUN: %python %S/Inputs/legacy_resize.py upsample9 %t/upsample9.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/upsample9.onnx --input-shape x=2x3x5x7 --bin %glow_bin | FileCheck %s --check-prefix=UP9
// UP9: output nearest: 1260 values, max |glow - ort| = 0,
// UP9: PASS
// RUN: %python %S/Inputs/legacy_resize.py resize10 %t/resize10.onnx
// RUN: glow-import %t/resize10.onnx | FileCheck %s --check-prefix=R10
// R10: glow.graph.resize %{{.*}} mode "nearest" coordinates "asymmetric" nearest_mode "floor" {{.*}} -> tensor<2x3x8x14xf32>
// R10: glow.graph.resize %{{.*}} mode "nearest" coordinates "asymmetric" nearest_mode "ceil" {{.*}} -> tensor<2x3x3x3xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/resize10.onnx --input-shape x=2x3x5x7 --bin %glow_bin | FileCheck %s --check-prefix=EXEC10
// EXEC10: output nearest_up: 672 values, max |glow - ort| = 0,
// EXEC10: output nearest_down: 54 values, max |glow - ort| = 0,
// EXEC10: PASS

// Refused with one line naming the node: nearest that shrinks one axis and grows
// another (onnxruntime rounds each axis its own way; glow.graph.resize has one
// rounding), and an Upsample that shrinks (its scales must be at least 1).
// RUN: %python %S/Inputs/legacy_resize.py mixed %t/mixed.onnx
// RUN: not glow-import %t/mixed.onnx -o %t/mixed.mlir 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not test -e %t/mixed.mlir
// MIXED: glow-import: error: node 'mixed' (Resize): nearest resizing that shrinks one dimension and grows another is not supported before opset 11
// RUN: %python %S/Inputs/legacy_resize.py shrinking-upsample %t/shrink.onnx
// RUN: not glow-import %t/shrink.onnx 2>&1 | FileCheck %s --check-prefix=SHRINK
// SHRINK: glow-import: error: node 'shrink' (Upsample): Upsample scale 0.5 is below 1
