// Float literals that cannot be the element type's bits are located errors.
// RUN: glow-opt %s --split-input-file --verify-diagnostics

func.func @negative_hex() -> tensor<2xf32> {
  // expected-error @+1 {{hexadecimal float literal should not have a leading minus}}
  %0 = glow.graph.splat -0x7F800000 : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @too_wide() -> tensor<2xf16> {
  // expected-error @+1 {{hexadecimal float literal does not fit in 16 bits}}
  %0 = glow.graph.splat 0x7F800000 : tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

func.func @float_for_integer() -> tensor<2xi32> {
  // expected-error @+1 {{float literal for element type 'i32'}}
  %0 = glow.graph.splat 1.5 : tensor<2xi32>
  return %0 : tensor<2xi32>
}
