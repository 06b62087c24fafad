// The planner on glow.instr: the arguments become mutable weights, one after the other;
// constants get their global's offset in the constant weights; activations are placed
// by their lifetimes in the instruction stream (alloc to dealloc). %a and %c are never
// alive at the same time, so they share offset 0; %b overlaps both and goes after them.
// The signature becomes three byte buffers.
// RUN: glow-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(glow-plan-memory{function=f})' | FileCheck %s

// CHECK: memref.global "private" constant @w : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> {glow.constant_offset = 0 : index}
// CHECK-LABEL: func.func @f
// The three buffers never alias and are 64-byte aligned; LLVM is told.
// CHECK-SAME: (%{{.*}}: memref<64xi8> {llvm.align = 64 : i64, llvm.noalias}, %{{.*}}: memref<128xi8> {llvm.align = 64 : i64, llvm.noalias}, %{{.*}}: memref<128xi8> {llvm.align = 64 : i64, llvm.noalias})
// The liveness lower bound (%a or %c with %b: 128 bytes) is met; unshared, the three
// buffers would take 192 bytes; the largest buffers alive at the peak, by position.
// CHECK-SAME: glow.activations_at_peak = ["{{.*}}plan.mlir:{{[0-9]+}}:8: 16 bytes", "{{.*}}plan.mlir:{{[0-9]+}}:8: 16 bytes"]
// CHECK-SAME: glow.activations_lower_bound = 128 : index, glow.activations_placement = "first fit in program order", glow.activations_size = 128 : index, glow.activations_unshared = 192 : index, glow.constant_size = 64 : index, glow.mutable_offsets = array<i64: 0, 64>, glow.mutable_size = 128 : index
// CHECK: %[[X:.*]] = glow.instr.weight "x" mutable offset 0 : memref<4xf32>
// CHECK: %[[Y:.*]] = glow.instr.weight "y" mutable offset 64 : memref<4xf32>
// CHECK: %[[W:.*]] = glow.instr.weight "w" constant offset 0 : memref<4xf32>
// CHECK: %[[A:.*]] = glow.instr.alloc_activation offset 0 : memref<4xf32>
// CHECK: linalg.add ins(%[[X]], %[[W]] : {{.*}}) outs(%[[A]] : memref<4xf32>)
// CHECK: %[[B:.*]] = glow.instr.alloc_activation offset 64 : memref<4xf32>
// CHECK: %[[C:.*]] = glow.instr.alloc_activation offset 0 : memref<4xf32>
// CHECK: linalg.add ins(%[[C]], %[[W]] : {{.*}}) outs(%[[Y]] : memref<4xf32>)
memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @f(%x: memref<4xf32> {glow.name = "x"}, %y: memref<4xf32> {glow.name = "y"}) {
  %w = glow.instr.weight "w" constant : memref<4xf32>
  %a = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%x, %w : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %b = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  glow.instr.dealloc_activation %a : memref<4xf32>
  %c = glow.instr.alloc_activation : memref<4xf32>
  linalg.add ins(%b, %b : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  glow.instr.dealloc_activation %b : memref<4xf32>
  linalg.add ins(%c, %w : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
  glow.instr.dealloc_activation %c : memref<4xf32>
  return
}

// -----

// A buffer used through a view inside a loop stays alive until that loop ends, even
// when its dealloc comes earlier; a buffer without a dealloc lives to the end.
// CHECK-LABEL: func.func @f
// CHECK-SAME: glow.activations_size = 128 : index
memref.global "private" constant @unused : memref<4xf32> = dense<0.0>
func.func @f(%x: memref<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %a = glow.instr.alloc_activation : memref<2x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  glow.instr.dealloc_activation %a : memref<2x4xf32>
  %b = glow.instr.alloc_activation : memref<2x4xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %flat[%i] : memref<8xf32>
    memref.store %v, %b[%i, %c0] : memref<2x4xf32>
  }
  memref.copy %b, %x : memref<2x4xf32> to memref<2x4xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{glow-plan-memory: a memref.alloc is left: run glow-raise-to-instr first}}
  %a = memref.alloc() : memref<4xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{glow-plan-memory: weight 'missing' names no constant global with static data of a supported element type}}
  %w = glow.instr.weight "missing" constant : memref<4xf32>
  return
}

// -----

// expected-error @+1 {{glow-plan-memory: the entry function returns values: run buffer-results-to-out-params first}}
func.func @f() -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}

// -----

// expected-error @+1 {{glow-plan-memory: no function @f}}
module {
  func.func @g() {
    return
  }
}
