// On upstream-only input glow-opt behaves exactly like mlir-opt.
// RUN: mlir-opt %s --canonicalize --cse > %t.ref
// RUN: glow-opt %s --canonicalize --cse > %t.out
// RUN: diff %t.ref %t.out
// RUN: mlir-opt %s --pass-pipeline='builtin.module(func.func(convert-arith-to-llvm),convert-func-to-llvm)' > %t.ref2
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(convert-arith-to-llvm),convert-func-to-llvm)' > %t.out2
// RUN: diff %t.ref2 %t.out2
// RUN: FileCheck %s < %t.out

// CHECK-LABEL: func.func @fold
// CHECK-NEXT: %[[C:.*]] = arith.constant 5 : i32
// CHECK-NEXT: return %[[C]], %[[C]]
func.func @fold() -> (i32, i32) {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  %d = arith.addi %a, %b : i32
  return %c, %d : i32, i32
}
