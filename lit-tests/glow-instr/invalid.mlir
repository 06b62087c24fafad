// Every glow.instr verifier error, one case per split.
// RUN: glow-opt %s --split-input-file --verify-diagnostics

func.func @alloc_offset_alignment() {
  // expected-error @+1 {{'offset' 100 must be a non-negative multiple of 64}}
  %a = glow.instr.alloc_activation offset 100 : memref<4xf32>
  return
}

// -----

func.func @alloc_negative_offset() {
  // expected-error @+1 {{'offset' -64 must be a non-negative multiple of 64}}
  %a = glow.instr.alloc_activation offset -64 : memref<4xf32>
  return
}

// -----

func.func @alloc_dynamic() {
  // expected-error @+1 {{must be statically shaped memref}}
  %a = glow.instr.alloc_activation : memref<?xf32>
  return
}

// -----

func.func @alloc_layout() {
  // expected-error @+1 {{buffer 'memref<4x4xf32, strided<[8, 1]>>' must have the identity layout}}
  %a = glow.instr.alloc_activation : memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @dealloc_not_activation(%m: memref<4xf32>) {
  // expected-error @+1 {{operand must be the result of glow.instr.alloc_activation}}
  glow.instr.dealloc_activation %m : memref<4xf32>
  return
}

// -----

func.func @weight_name() {
  // expected-error @+1 {{'name' must not be empty}}
  %w = glow.instr.weight "" constant : memref<4xf32>
  return
}

// -----

func.func @weight_offset() {
  // expected-error @+1 {{'offset' 8 must be a non-negative multiple of 64}}
  %w = glow.instr.weight "w" constant offset 8 : memref<4xf32>
  return
}

// -----

func.func @weight_layout() {
  // expected-error @+1 {{must have the identity layout}}
  %w = glow.instr.weight "w" mutable : memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @weight_mutability() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'mutability' [constant, mutable]}}
  %w = glow.instr.weight "w" frozen : memref<4xf32>
  return
}

// -----

func.func @view_rank() {
  %a = glow.instr.alloc_activation : memref<4x4xf32>
  // expected-error @+1 {{has 1 offsets for a source of rank 2}}
  %v = glow.instr.tensorview %a [0] : memref<4x4xf32> -> memref<4xf32>
  return
}

// -----

func.func @view_element() {
  %a = glow.instr.alloc_activation : memref<4x4xf32>
  // expected-error @+1 {{element type changes from 'f32' to 'i32'}}
  %v = glow.instr.tensorview %a [0, 0] : memref<4x4xf32> -> memref<16xi32>
  return
}

// -----

func.func @view_offset_bounds() {
  %a = glow.instr.alloc_activation : memref<4x4xf32>
  // expected-error @+1 {{offset 4 is out of bounds for dimension 0 of 'memref<4x4xf32>'}}
  %v = glow.instr.tensorview %a [4, 0] : memref<4x4xf32> -> memref<4xf32>
  return
}

// -----

func.func @view_past_end() {
  %a = glow.instr.alloc_activation : memref<4x4xf32>
  // expected-error @+1 {{view of 8 elements at element 12 runs past the end of 'memref<4x4xf32>' (16 elements)}}
  %v = glow.instr.tensorview %a [3, 0] : memref<4x4xf32> -> memref<8xf32>
  return
}

// -----

func.func @view_layout() {
  %a = glow.instr.alloc_activation : memref<4x4xf32>
  // expected-error @+1 {{must have the identity layout}}
  %v = glow.instr.tensorview %a [0, 0] : memref<4x4xf32> -> memref<2x2xf32, strided<[4, 1]>>
  return
}

// -----

func.func @copy_types() {
  %a = glow.instr.alloc_activation : memref<4xf32>
  %b = glow.instr.alloc_activation : memref<8xf32>
  // expected-error @+1 {{failed to verify that all of {dest, source} have same type}}
  "glow.instr.copy"(%b, %a) : (memref<8xf32>, memref<4xf32>) -> ()
  return
}
