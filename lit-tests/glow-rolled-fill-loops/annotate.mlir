// glow-rolled-fill-loops: every scf.for of a nest that only stores constants (a
// lowered linalg.fill) gets an unroll-disable loop annotation, which the control-flow
// lowering carries into LLVM IR as llvm.loop.unroll.disable; loops that store loaded
// or computed values, or carry results, are left alone.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-rolled-fill-loops))' | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-rolled-fill-loops),lower-affine,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)' | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @fill
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
// CHECK: } {loop_annotation = #[[NO_UNROLL:.*]]}
// CHECK: } {loop_annotation = #[[NO_UNROLL]]}
// LLVM-LABEL: define void @fill
// LLVM: br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// LLVM: br label %{{.*}}, !llvm.loop ![[LOOP]]
// LLVM-LABEL: define float @copy
// LLVM-NOT: !llvm.loop
// LLVM: ret float
// LLVM: ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// LLVM: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
func.func @fill(%m: memref<8x14x256xf32, strided<[65536, 4096, 1]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c14 = arith.constant 14 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c14 step %c1 {
      %k = affine.apply affine_map<(d0) -> (d0 * 2)>(%j)
      memref.store %zero, %m[%i, %j, %k] : memref<8x14x256xf32, strided<[65536, 4096, 1]>>
    }
  }
  return
}

// CHECK-LABEL: func.func @copy
// CHECK-NOT: loop_annotation
// CHECK: return
func.func @copy(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  // A copy: the stored value is loaded.
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  }
  // A computed value.
  scf.for %i = %c0 to %c8 step %c1 {
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    memref.store %f, %c[%i] : memref<8xf32>
  }
  // A loop that carries a result.
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %zero) -> (f32) {
    memref.store %zero, %c[%i] : memref<8xf32>
    scf.yield %s : f32
  }
  return %sum : f32
}
