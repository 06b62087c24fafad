// memref.copy becomes linalg.copy, and then loops instead of a memrefCopy call.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-copies-to-linalg))' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-copies-to-linalg,convert-linalg-to-loops))' | FileCheck %s --check-prefix=LOOPS

// CHECK-LABEL: func.func @copy
// CHECK: linalg.copy ins(%arg0 : memref<4x8xf32, strided<[16, 1]>>) outs(%arg1 : memref<4x8xf32>)
// CHECK-NOT: memref.copy
// LOOPS: scf.for
// LOOPS: scf.for
// LOOPS: memref.load
// LOOPS: memref.store
func.func @copy(%a: memref<4x8xf32, strided<[16, 1]>>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
  return
}
