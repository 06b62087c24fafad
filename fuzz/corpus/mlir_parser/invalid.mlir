// Every glow.quant verifier error, one case per split.
// RUN: glow-opt %s --split-input-file --verify-diagnostics

func.func @quantize_to_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{result must have a !quant element type, got 'tensor<4xi8>'}}
  %q = glow.quant.quantize %x : tensor<4xf32> -> tensor<4xi8>
  return
}

// -----

func.func @quantize_from_int(%x: tensor<4xi8>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values}}
  %q = glow.quant.quantize %x : tensor<4xi8> -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  return
}

// -----

func.func @quantize_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{shapes differ: 'tensor<4xf32>' vs 'tensor<5x!quant.uniform<i8:f32, 1.000000e-01>>'}}
  %q = glow.quant.quantize %x : tensor<4xf32> -> tensor<5x!quant.uniform<i8:f32, 0.1>>
  return
}

// -----

func.func @quantize_expressed(%x: tensor<4xf16>) {
  // expected-error @+1 {{quantized type expresses 'f32' but the float side is 'f16'}}
  %q = glow.quant.quantize %x : tensor<4xf16> -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  return
}

// -----

func.func @quantize_per_axis_count(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{has 3 per-axis scales, which does not match dimension 1}}
  %q = glow.quant.quantize %x : tensor<2x4xf32> -> tensor<2x4x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>
  return
}

// -----

func.func @dequantize_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{input must have a !quant element type, got 'tensor<4xf32>'}}
  %y = glow.quant.dequantize %x : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_shape(%q: tensor<4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{shapes differ}}
  %y = glow.quant.dequantize %q : tensor<4x!quant.uniform<i8:f32, 0.1>> -> tensor<2x2xf32>
  return
}

// -----

func.func @rescale_float(%q: tensor<4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{result must have a !quant element type, got 'tensor<4xi8>'}}
  %r = glow.quant.rescale %q : tensor<4x!quant.uniform<i8:f32, 0.1>> -> tensor<4xi8>
  return
}

// -----

func.func @rescale_shape(%q: tensor<4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{shapes differ}}
  %r = glow.quant.rescale %q : tensor<4x!quant.uniform<i8:f32, 0.1>> -> tensor<2x!quant.uniform<i8:f32, 0.2>>
  return
}

// -----

func.func @rescale_expressed(%q: tensor<4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{input expresses 'f32' but the result expresses 'f16'}}
  %r = glow.quant.rescale %q : tensor<4x!quant.uniform<i8:f32, 0.1>> -> tensor<4x!quant.uniform<i8:f16, 0.2>>
  return
}

// -----

func.func @profile_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{'name' must not be empty: it keys the profile}}
  glow.quant.profile %x name "" : tensor<4xf32>
  return
}

// -----

func.func @profile_bins(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bins' must be positive, got 0}}
  glow.quant.profile %x name "x" bins 0 : tensor<4xf32>
  return
}
