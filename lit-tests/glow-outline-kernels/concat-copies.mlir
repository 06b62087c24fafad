// Copies into concat results (DenseNet's pattern: every feature so far concatenated
// again in each later layer; models.py dense-concats: five copies of three shapes into
// slices of two results) take views of run-time extents: the start of each buffer as
// a memref<1xf32> and the offset, sizes and strides as index arguments, so the five
// copies call one kernel. The model still agrees with onnxruntime, through glow-run and
// through a bundle (bare pointers).
// RUN: %python %S/../glow-import/Inputs/models.py dense-concats %t.onnx
// RUN: glow-import %t.onnx | glow-opt --glow-cpu-pipeline -o /dev/null --mlir-print-ir-after=glow-outline-kernels 2>&1 | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x8x6x6 --bin %glow_bin | FileCheck %s --check-prefix=AGREES
// RUN: %python %S/../../python/check_bundle.py %t.onnx --input x --output second --input-shape x=1x8x6x6 --bin %glow_bin | FileCheck %s --check-prefix=AGREES

// CHECK-LABEL: func.func @main(
// CHECK: %[[X:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [1], strides: [1] : memref<1x8x6x6xf32> to memref<1xf32>
// CHECK: call @[[COPY:main_kernel_[0-9]+]](%[[X]], {{.*}}) : (memref<1xf32>, index, index, index, index, index, index, index, index, memref<1xf32>, index, index, index, index, index, index, index, index) -> ()
// CHECK-COUNT-4: call @[[COPY]](
// CHECK-NOT: call @[[COPY]](
// CHECK: func.func private @[[COPY]](%arg0: memref<1xf32>,
// CHECK-NEXT: memref.reinterpret_cast %arg0 to offset: [%arg1], sizes: [%arg2, %arg3, %arg4, %arg5], strides: [%arg6, %arg7, %arg8, 1] : memref<1xf32> to memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>>
// CHECK-NEXT: memref.reinterpret_cast %arg9
// CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>>) outs(%{{.*}} : memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>>)

// AGREES: PASS
