// An activation arena over the planner's limit (bytes) is refused; at the limit, it
// is planned.
// RUN: glow-opt %s --verify-diagnostics --pass-pipeline='builtin.module(glow-plan-memory{function=f limit=1000})'
// RUN: glow-opt %s --pass-pipeline='builtin.module(glow-plan-memory{function=f limit=4096})' | FileCheck %s
// CHECK: glow.activations_size = 4096 : index
// RUN: not glow-opt %s --pass-pipeline='builtin.module(glow-plan-memory{function=f limit=-5})' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: limit must be a byte count, 0 or more (0: no limit)

// expected-error @+1 {{glow-plan-memory: the activations need 4096 bytes, more than the limit of 1000 bytes}}
func.func @f() {
  %a = glow.instr.alloc_activation : memref<1024xf32>
  %c = arith.constant 0.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<1024xf32>)
  return
}
