// glow-print-listing prints the instruction stream as Glow's IR dump did: weights with
// their sizes (and offsets once planned), then numbered instructions with the buffers
// each reads (@in), writes (@out) or both (@inout), views resolved to their buffer.
// The IR itself is unchanged.
// RUN: glow-opt %s --pass-pipeline='builtin.module(glow-plan-memory{function=f},func.func(glow-print-listing))' -o %t.mlir 2>&1 | FileCheck %s
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-print-listing{file=%t.txt}))' -o /dev/null
// RUN: FileCheck %s --check-prefix=FILE < %t.txt

// CHECK-LABEL: listing of @f
// CHECK-NEXT: weights:
// CHECK-NEXT: %constant_weights : memref<64xi8> (64 bytes, argument)
// CHECK-NEXT: %mutable_weights : memref<128xi8> (128 bytes, argument)
// CHECK-NEXT: %activations : memref<64xi8> (64 bytes, argument)
// CHECK-NEXT: %x : memref<4xf32> (16 bytes, mutable, offset 0)
// CHECK-NEXT: %y : memref<4xf32> (16 bytes, mutable, offset 64)
// CHECK-NEXT: %w : memref<4xf32> (16 bytes, constant, offset 0)
// CHECK-NEXT: instructions:
// CHECK-NEXT: 0 %add = alloc_activation memref<4xf32> (16 bytes, offset 0)
// CHECK-NEXT: 1 linalg.add 'add' @in %x, @in %w, @out %add
// CHECK-NEXT: 2 linalg.generic 'scale' @inout %add
// CHECK-NEXT: 3 scf.for 'copy' @in %add, @out %y
// CHECK-NEXT: 4 dealloc_activation %add
// CHECK-NOT: {{[0-9]+}} memref.expand_shape
// FILE: listing of @f
// FILE: 1 linalg.add 'add' @in %arg0, @in %w, @out %add
#id = affine_map<(d0) -> (d0)>
memref.global "private" constant @w : memref<4xf32> = dense<1.0>
func.func @f(%x: memref<4xf32> {glow.name = "x"}, %y: memref<4xf32> {glow.name = "y"}) {
  %w = glow.instr.weight "w" constant : memref<4xf32>
  %a = glow.instr.alloc_activation : memref<4xf32> loc("add")
  linalg.add ins(%x, %w : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>) loc("add")
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<4xf32>) {
  ^bb0(%out: f32):
    %two = arith.constant 2.0 : f32
    %s = arith.mulf %out, %two : f32
    linalg.yield %s : f32
  } loc("scale")
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %flat = memref.expand_shape %a [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %flat[%c0, %c1] : memref<2x2xf32>
    memref.store %v, %y[%i] : memref<4xf32>
  } loc("copy")
  glow.instr.dealloc_activation %a : memref<4xf32>
  return
}
