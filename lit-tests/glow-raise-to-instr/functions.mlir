// Only the functions named in `functions` are raised, when it is given.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-raise-to-instr{functions=g}))' | FileCheck %s --check-prefix=ONLY
// ONLY-LABEL: func.func @f
// ONLY: memref.alloc
// ONLY-LABEL: func.func @g
// ONLY: glow.instr.alloc_activation
func.func @f() {
  %a = memref.alloc() : memref<4xf32>
  return
}
func.func @g() {
  %a = memref.alloc() : memref<4xf32>
  return
}
