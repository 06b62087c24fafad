// Verifier errors of glow.quant's integer compute ops.
// RUN: glow-opt %s --split-input-file --verify-diagnostics

func.func @conv_float_input(%x: tensor<1x3x8x8xf32>, %w: tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{input must have a !quant element type}}
  %y = glow.quant.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x2x6x6x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_filter_axis(%x: tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, %w: tensor<2x3x3x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) {
  // expected-error @+1 {{filter may be quantized per axis 0 only}}
  %y = glow.quant.conv2d %x, %w : (tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, tensor<2x3x3x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<1x2x6x6x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_shape(%x: tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, %w: tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{result shape must be [1, 2, 6, 6]}}
  %y = glow.quant.conv2d %x, %w : (tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x2x8x8x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_group(%x: tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, %w: tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'group' 2 does not split 3 input channels}}
  %y = glow.quant.conv2d %x, %w group 2 : (tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x2x6x6x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_bias_width(%x: tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, %w: tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>, %b: tensor<2x!quant.uniform<i8:f32, 0.01>>) {
  // expected-error @+1 {{'bias' must have a 32-bit storage}}
  %y = glow.quant.conv2d %x, %w, %b : (tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>, tensor<2x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x2x6x6x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_clamp(%x: tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, %w: tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'min' 6.000000e+00 exceeds 'max' 0.000000e+00}}
  %y = glow.quant.conv2d %x, %w min 6.0 max 0.0 : (tensor<1x3x8x8x!quant.uniform<u8:f32, 0.1>>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x2x6x6x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @fc_shapes(%x: tensor<4x8x!quant.uniform<u8:f32, 0.1>>, %w: tensor<6x2x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{input and weights must be M x K and K x N}}
  %y = glow.quant.fully_connected %x, %w : (tensor<4x8x!quant.uniform<u8:f32, 0.1>>, tensor<6x2x!quant.uniform<i8:f32, 0.1>>) -> tensor<4x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @fc_expressed(%x: tensor<4x8x!quant.uniform<u8:f32, 0.1>>, %w: tensor<8x2x!quant.uniform<i8:f16, 0.1>>) {
  // expected-error @+1 {{operands and result must express one float type}}
  %y = glow.quant.fully_connected %x, %w : (tensor<4x8x!quant.uniform<u8:f32, 0.1>>, tensor<8x2x!quant.uniform<i8:f16, 0.1>>) -> tensor<4x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @batch_matmul_per_axis(%a: tensor<2x4x8x!quant.uniform<u8:f32, 0.1>>, %b: tensor<2x8x2x!quant.uniform<i8:f32:2, {0.1, 0.2}>>) {
  // expected-error @+1 {{rhs must be quantized per tensor}}
  %y = glow.quant.batch_matmul %a, %b : (tensor<2x4x8x!quant.uniform<u8:f32, 0.1>>, tensor<2x8x2x!quant.uniform<i8:f32:2, {0.1, 0.2}>>) -> tensor<2x4x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @add_shapes(%a: tensor<8x!quant.uniform<u8:f32, 0.1>>, %b: tensor<4x!quant.uniform<u8:f32, 0.1>>) {
  // expected-error @+1 {{operands must have one shape}}
  %y = glow.quant.add %a, %b : (tensor<8x!quant.uniform<u8:f32, 0.1>>, tensor<4x!quant.uniform<u8:f32, 0.1>>) -> tensor<8x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @mul_wide(%a: tensor<8x!quant.uniform<i32:f32, 0.1>>, %b: tensor<8x!quant.uniform<u8:f32, 0.1>>) {
  // expected-error @+1 {{lhs must have a storage of 8 bits}}
  %y = glow.quant.mul %a, %b : (tensor<8x!quant.uniform<i32:f32, 0.1>>, tensor<8x!quant.uniform<u8:f32, 0.1>>) -> tensor<8x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @avg_pool_window(%x: tensor<1x2x2x4x!quant.uniform<u8:f32, 0.1>>) {
  // expected-error @+1 {{does not fit the padded input}}
  %y = glow.quant.avg_pool %x kernel [3, 3] channels_last : tensor<1x2x2x4x!quant.uniform<u8:f32, 0.1>> -> tensor<1x1x1x4x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @lookup_table_size(%x: tensor<8x!quant.uniform<u8:f32, 0.1>>) {
  // expected-error @+1 {{'table' must hold 256 8-bit integers}}
  %y = glow.quant.lookup_table %x table dense<0> : tensor<128xi8> : tensor<8x!quant.uniform<u8:f32, 0.1>> -> tensor<8x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @permute_bytes_width(%a: vector<32xi8>) {
  // expected-error @+1 {{must be vector of 8-bit signless integer values of length 64}}
  %p = glow.quant.permute_bytes %a, %a, %a : vector<32xi8>
  return
}
