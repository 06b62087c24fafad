// Round trip of every glow.instr op: Glow's instruction listing on memrefs.
// RUN: glow-opt %s | glow-opt | FileCheck %s
// RUN: glow-opt %s --mlir-print-op-generic | glow-opt | FileCheck %s

// CHECK-LABEL: func.func @listing
func.func @listing() {
  // CHECK: %[[W:.*]] = glow.instr.weight "conv1.filter" constant offset 0 : memref<16x3x5x5xf32>
  %w = glow.instr.weight "conv1.filter" constant offset 0 : memref<16x3x5x5xf32>
  // CHECK: %[[IN:.*]] = glow.instr.weight "input" mutable : memref<8x3x28x28xf32>
  %in = glow.instr.weight "input" mutable : memref<8x3x28x28xf32>
  // CHECK: %[[A:.*]] = glow.instr.alloc_activation : memref<8x16x28x28xf32>
  %a = glow.instr.alloc_activation : memref<8x16x28x28xf32>
  // CHECK: %[[B:.*]] = glow.instr.alloc_activation offset 401408 : memref<8x16x28x28xf32>
  %b = glow.instr.alloc_activation offset 401408 : memref<8x16x28x28xf32>
  // CHECK: glow.instr.copy out %[[B]], in %[[A]] : memref<8x16x28x28xf32>
  glow.instr.copy out %b, in %a : memref<8x16x28x28xf32>
  // CHECK: glow.instr.tensorview %[[A]] [1, 0, 0, 0] : memref<8x16x28x28xf32> -> memref<12544xf32>
  %v = glow.instr.tensorview %a [1, 0, 0, 0] : memref<8x16x28x28xf32> -> memref<12544xf32>
  // CHECK: glow.instr.dealloc_activation %[[A]] : memref<8x16x28x28xf32>
  glow.instr.dealloc_activation %a : memref<8x16x28x28xf32>
  // CHECK: glow.instr.dealloc_activation %[[B]] : memref<8x16x28x28xf32>
  glow.instr.dealloc_activation %b : memref<8x16x28x28xf32>
  return
}

// A runtime check survives canonicalization (it writes the call's status).
// CHECK-LABEL: func.func @check
func.func @check(%ok: i1) {
  // CHECK: glow.instr.check %{{.*}} message "node 'embed' (gather): an index is outside [-4, 3]"
  glow.instr.check %ok message "node 'embed' (gather): an index is outside [-4, 3]"
  return
}
// RUN: glow-opt %s --canonicalize | FileCheck %s --check-prefix=KEPT
// KEPT: glow.instr.check
