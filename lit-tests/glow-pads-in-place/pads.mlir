// A constant tensor.pad becomes an insert_slice into a tensor whose border alone is
// then filled (one fill per border slab: rows 0 and 5 whole, then columns 0 and 5 of
// the interior rows), so the producer can write into the padded buffer first and no
// element is written twice; a pad whose value is not a constant stays.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-pads-in-place))' | FileCheck %s
// End to end, after empty-tensor elimination the fills and the producer write into
// disjoint subviews of the padded buffer and, once canonicalization drops the
// self-copies, no copy is left.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(glow-pads-in-place),eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries},cse,canonicalize)' | FileCheck %s --check-prefix=BUFFERS
// A MobileNetV2 block on rows of 19 (computed 20 or 21 wide and read through padding)
// agrees with onnxruntime through glow-run.
// RUN: %python %S/../glow-import/Inputs/models.py odd-rows %t.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x8x19x19 --bin %glow_bin | FileCheck %s --check-prefix=AGREES
// AGREES: PASS
// Two inverted residual blocks whose 72-channel expansions are computed 80 wide: each
// depthwise convolution's padded input is built 80 channels wide and read through its
// 72-channel slice; the model agrees with onnxruntime.
// RUN: %python %S/../glow-stack/Inputs/residual_24.py %t.widened.onnx
// RUN: glow-import %t.widened.onnx | glow-opt --glow-cpu-pipeline --mlir-print-ir-after=glow-pads-in-place -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.widened.onnx --input-shape x=1x16x28x28 --bin %glow_bin | FileCheck %s --check-prefix=AGREES
// MODEL: tensor.empty() : tensor<1x30x30x80xf32>
// MODEL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 30, 30, 72] [1, 1, 1, 1] : tensor<1x30x30x80xf32> to tensor<1x30x30x72xf32>
// MODEL: tensor.empty() : tensor<1x30x30x80xf32>
// MODEL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 30, 30, 72] [1, 1, 1, 1] : tensor<1x30x30x80xf32> to tensor<1x30x30x72xf32>

// CHECK-LABEL: func.func @pad
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x4xf32>
// CHECK: %[[IN:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 1, 1, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// CHECK: %[[TOP:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x6x4xf32>)
// CHECK: %[[S0:.*]] = tensor.insert_slice %[[TOP]] into %[[IN]][0, 0, 0, 0] [1, 1, 6, 4] [1, 1, 1, 1]
// CHECK: %[[BOTTOM:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x6x4xf32>)
// CHECK: %[[S1:.*]] = tensor.insert_slice %[[BOTTOM]] into %[[S0]][0, 5, 0, 0] [1, 1, 6, 4]
// CHECK: %[[LEFT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x1x4xf32>)
// CHECK: %[[S2:.*]] = tensor.insert_slice %[[LEFT]] into %[[S1]][0, 1, 0, 0] [1, 4, 1, 4]
// CHECK: %[[RIGHT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x1x4xf32>)
// CHECK: tensor.insert_slice %[[RIGHT]] into %[[S2]][0, 1, 5, 0] [1, 4, 1, 4]
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg.fill
// BUFFERS-LABEL: func.func @pad
// BUFFERS: %[[B:.*]] = memref.alloc() {{.*}} : memref<1x6x6x4xf32>
// BUFFERS: %[[V:.*]] = memref.subview %[[B]][0, 1, 1, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// BUFFERS: linalg.exp ins(%{{.*}}) outs(%[[V]]
// BUFFERS: %[[TOP:.*]] = memref.subview %[[B]][0, 0, 0, 0] [1, 1, 6, 4]
// BUFFERS: linalg.fill {{.*}} outs(%[[TOP]]
// BUFFERS: %[[RIGHT:.*]] = memref.subview %[[B]][0, 1, 5, 0] [1, 4, 1, 4]
// BUFFERS: linalg.fill {{.*}} outs(%[[RIGHT]]
// BUFFERS-NOT: memref.copy
func.func @pad(%x: tensor<1x4x4x4xf32>) -> tensor<1x6x6x4xf32> {
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %y = linalg.exp ins(%x : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %y low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_value
// BUFFERS-LABEL: func.func @dynamic_value
// CHECK: tensor.pad
func.func @dynamic_value(%x: tensor<4xf32>, %v: f32) -> tensor<6xf32> {
  %0 = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// Padding on one side only, with -inf (a max pool's padding): slabs only where there
// is a border, the value kept.
// CHECK-LABEL: func.func @one_sided
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x5x5x2xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[E]][0, 0, 0, 0] [1, 4, 4, 2]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x5x2xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 4, 0, 0] [1, 1, 5, 2]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x1x2xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 4, 0] [1, 4, 1, 2]
// CHECK-NOT: linalg.fill
func.func @one_sided(%x: tensor<1x4x4x2xf32>) -> tensor<1x5x5x2xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %0 = tensor.pad %x low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x2xf32> to tensor<1x5x5x2xf32>
  return %0 : tensor<1x5x5x2xf32>
}

// -----

// A leading slice of a result computed two columns wider (a widened row) whose whole
// fits the padded tensor: the whole result goes in first, then the border over it (the
// right border covers the two extra columns), so after empty-tensor elimination the
// producer writes into the padded buffer and nothing is copied.
// CHECK-LABEL: func.func @widened
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x4xf32>
// CHECK: %[[W:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 1, 1, 0] [1, 4, 5, 4] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x6x4xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %[[W]][0, 0, 0, 0] [1, 1, 6, 4]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x1x4xf32>)
// CHECK: %[[LAST:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 5, 0] [1, 4, 1, 4]
// CHECK: return %[[LAST]]
// BUFFERS-LABEL: func.func @widened
// BUFFERS: %[[B:.*]] = memref.alloc() {{.*}} : memref<1x6x6x4xf32>
// BUFFERS: %[[V:.*]] = memref.subview %[[B]][0, 1, 1, 0] [1, 4, 5, 4] [1, 1, 1, 1]
// BUFFERS: linalg.exp ins(%{{.*}}) outs(%[[V]]
// BUFFERS: %[[RIGHT:.*]] = memref.subview %[[B]][0, 1, 5, 0] [1, 4, 1, 4]
// BUFFERS: linalg.fill {{.*}} outs(%[[RIGHT]]
// BUFFERS-NOT: memref.copy
func.func @widened(%x: tensor<1x4x5x4xf32>) -> tensor<1x6x6x4xf32> {
  %e = tensor.empty() : tensor<1x4x5x4xf32>
  %y = linalg.exp ins(%x : tensor<1x4x5x4xf32>) outs(%e : tensor<1x4x5x4xf32>) -> tensor<1x4x5x4xf32>
  %s = tensor.extract_slice %y[0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1] : tensor<1x4x5x4xf32> to tensor<1x4x4x4xf32>
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %s low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// A slice of a result too wide for the padding (three extra columns, one of padding)
// is inserted as before: the slice copies.
// CHECK-LABEL: func.func @too_wide
// CHECK: tensor.extract_slice
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 1, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// CHECK: linalg.fill
// BUFFERS-LABEL: func.func @too_wide
// BUFFERS: memref.copy
func.func @too_wide(%x: tensor<1x4x7x4xf32>) -> tensor<1x6x6x4xf32> {
  %e = tensor.empty() : tensor<1x4x7x4xf32>
  %y = linalg.exp ins(%x : tensor<1x4x7x4xf32>) outs(%e : tensor<1x4x7x4xf32>) -> tensor<1x4x7x4xf32>
  %s = tensor.extract_slice %y[0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1] : tensor<1x4x7x4xf32> to tensor<1x4x4x4xf32>
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %s low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// A leading slice of a result computed with two channels more (6 channels as 8: a
// widened expansion before a depthwise convolution), padded along rows and columns
// only: the padded tensor is built 8 channels wide, the whole result inserted and the
// border filled over all 8, and the pad's user reads its 6-channel leading slice, so
// the producer writes into the padded buffer and nothing is copied.
// CHECK-LABEL: func.func @widened_channels
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x8xf32>
// CHECK: %[[W:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x6x8xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x1x8xf32>)
// CHECK: %[[LAST:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 5, 0] [1, 4, 1, 8]
// CHECK: %[[S:.*]] = tensor.extract_slice %[[LAST]][0, 0, 0, 0] [1, 6, 6, 6] [1, 1, 1, 1] : tensor<1x6x6x8xf32> to tensor<1x6x6x6xf32>
// CHECK: linalg.exp ins(%[[S]]
// BUFFERS-LABEL: func.func @widened_channels
// BUFFERS: %[[B:.*]] = memref.alloc() {{.*}} : memref<1x6x6x8xf32>
// BUFFERS: %[[V:.*]] = memref.subview %[[B]][0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1]
// BUFFERS: linalg.exp ins(%{{.*}}) outs(%[[V]]
// BUFFERS: %[[S:.*]] = memref.subview %[[B]][0, 0, 0, 0] [1, 6, 6, 6] [1, 1, 1, 1]
// BUFFERS: linalg.exp ins(%[[S]]
// BUFFERS-NOT: memref.copy
func.func @widened_channels(%x: tensor<1x4x4x8xf32>) -> tensor<1x6x6x6xf32> {
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %y = linalg.exp ins(%x : tensor<1x4x4x8xf32>) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %s = tensor.extract_slice %y[0, 0, 0, 0] [1, 4, 4, 6] [1, 1, 1, 1] : tensor<1x4x4x8xf32> to tensor<1x4x4x6xf32>
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %s low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x6xf32> to tensor<1x6x6x6xf32>
  %e2 = tensor.empty() : tensor<1x6x6x6xf32>
  %r = linalg.exp ins(%0 : tensor<1x6x6x6xf32>) outs(%e2 : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  return %r : tensor<1x6x6x6xf32>
}

// -----

// A leading slice of 6 channels of a 32-channel value: 26 more channels than the pad's
// source is no widened channel count (at most 15 more); the pad is built at its own
// width and the slice copied in, instead of filling a 32-channel buffer.
// CHECK-LABEL: func.func @much_wider_channels
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x6x6xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[E]][0, 1, 1, 0] [1, 4, 4, 6] [1, 1, 1, 1]
// CHECK-NOT: tensor<1x6x6x32xf32>
// CHECK: return
// BUFFERS-LABEL: func.func @much_wider_channels
// BUFFERS: memref.alloc() {{.*}} : memref<1x6x6x6xf32>
// BUFFERS: memref.copy
func.func @much_wider_channels(%x: tensor<1x4x4x32xf32>) -> tensor<1x6x6x6xf32> {
  %e = tensor.empty() : tensor<1x4x4x32xf32>
  %y = linalg.exp ins(%x : tensor<1x4x4x32xf32>) outs(%e : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  %s = tensor.extract_slice %y[0, 0, 0, 0] [1, 4, 4, 6] [1, 1, 1, 1] : tensor<1x4x4x32xf32> to tensor<1x4x4x6xf32>
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %s low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x6xf32> to tensor<1x6x6x6xf32>
  %e2 = tensor.empty() : tensor<1x6x6x6xf32>
  %r = linalg.exp ins(%0 : tensor<1x6x6x6xf32>) outs(%e2 : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  return %r : tensor<1x6x6x6xf32>
}
