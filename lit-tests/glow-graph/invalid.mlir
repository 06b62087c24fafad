// Verifier errors: at least one case for every glow.graph op, one case per split.
// RUN: glow-opt %s --split-input-file --verify-diagnostics

func.func @splat_float_for_int() -> tensor<2xi32> {
  // expected-error @+1 {{float literal for element type 'i32'}}
  %0 = glow.graph.splat 0.5 : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @splat_does_not_fit() -> tensor<2xi8> {
  // expected-error @+1 {{literal does not fit in 'i8'}}
  %0 = glow.graph.splat 300 : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @splat_bool_for_float() -> tensor<2xf32> {
  // expected-error @+1 {{boolean literal for element type 'f32'}}
  %0 = glow.graph.splat true : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @splat_type_mismatch() -> tensor<2xf32> {
  // expected-error @+1 {{value of type 'f64' does not match the element type 'f32'}}
  %0 = "glow.graph.splat"() <{value = 1.0 : f64}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_shape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{must be statically shaped tensor}}
  %0 = glow.graph.relu %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @binary_types(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = "glow.graph.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @conv_input_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'input' must have rank 4, got 'tensor<3x8x8xf32>'}}
  %0 = glow.graph.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_filter_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+1 {{'filter' must have rank 4}}
  %0 = glow.graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_strides_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'strides' must have 2 elements, got [1, 1, 1]}}
  %0 = glow.graph.conv2d %x, %w strides [1, 1, 1] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_pads_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'pads' must have 4 elements, got [1, 1]}}
  %0 = glow.graph.conv2d %x, %w pads [1, 1] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_dilations_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'dilations' must have 2 elements, got [2]}}
  %0 = glow.graph.conv2d %x, %w dilations [2] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @conv_zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'strides' must be positive, got [0, 1]}}
  %0 = glow.graph.conv2d %x, %w strides [0, 1] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_zero_dilation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'dilations' must be positive, got [1, 0]}}
  %0 = glow.graph.conv2d %x, %w dilations [1, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'pads' must not be negative, got [0, -1, 0, 0]}}
  %0 = glow.graph.conv2d %x, %w pads [0, -1, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_window_too_big(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{window [3, 3] with dilations [1, 1] does not fit the padded input 'tensor<1x3x2x2xf32>'}}
  %0 = glow.graph.conv2d %x, %w : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @conv_wrong_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // MLIR's InferTypeOpInterface check reports the mismatch, then a summary.
  // expected-error @+2 {{inferred type(s) 'tensor<1x4x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = glow.graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_channels_last_mismatch(%x: tensor<1x8x8x4xf32>, %w: tensor<4x3x3x3xf32>) {
  // NHWC input: 4 channels (last dimension), the filter expects 3.
  // expected-error @+1 {{filter has 3 channels per group but the input has 4 channels in 1 group(s)}}
  %0 = glow.graph.conv2d %x, %w channels_last : (tensor<1x8x8x4xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @conv_group_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'group' must be positive, got 0}}
  %0 = glow.graph.conv2d %x, %w group 0 : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_group_divides(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+1 {{'group' 4 must divide the input channels (4) and the filter count (6)}}
  %0 = glow.graph.conv2d %x, %w group 4 : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_channels_per_group(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{filter has 2 channels per group but the input has 4 channels in 1 group(s)}}
  %0 = glow.graph.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_filter_element(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{filter element type 'f16' does not match input element type 'f32'}}
  %0 = glow.graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'bias' must be a 1-D tensor of 4 elements, got 'tensor<5xf32>'}}
  %0 = glow.graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias_element(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'bias' element type 'f16' does not match 'f32'}}
  %0 = glow.graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<64x8x8xf32>) {
  // expected-error @+1 {{'input' must have rank 4}}
  %0 = glow.graph.max_pool %x kernel [2, 2] : tensor<64x8x8xf32> -> tensor<1x64x4x4xf32>
  return
}

// -----

func.func @pool_kernel_count(%x: tensor<1x64x8x8xf32>) {
  // expected-error @+1 {{'kernel' must have 2 elements, got [2, 2, 2]}}
  %0 = glow.graph.avg_pool %x kernel [2, 2, 2] : tensor<1x64x8x8xf32> -> tensor<1x64x4x4xf32>
  return
}

// -----

func.func @pool_kernel_positive(%x: tensor<1x64x8x8xf32>) {
  // expected-error @+1 {{'kernel' must be positive, got [0, 2]}}
  %0 = glow.graph.avg_pool %x kernel [0, 2] : tensor<1x64x8x8xf32> -> tensor<1x64x4x4xf32>
  return
}

// -----

func.func @pool_pads_vs_kernel(%x: tensor<1x64x8x8xf32>) {
  // expected-error @+1 {{'pads' [2, 0, 0, 0] must be smaller than 'kernel' [2, 2]}}
  %0 = glow.graph.max_pool %x kernel [2, 2] strides [2, 2] pads [2, 0, 0, 0] : tensor<1x64x8x8xf32> -> tensor<1x64x5x4xf32>
  return
}

// -----

func.func @fc_rank(%x: tensor<1x2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'input' must have rank 2}}
  %0 = glow.graph.fully_connected %x, %w, %b : (tensor<1x2x8xf32>, tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @fc_reduction(%x: tensor<2x8xf32>, %w: tensor<7x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'input' 'tensor<2x8xf32>' and 'weights' 'tensor<7x4xf32>' have different reduction sizes (8 vs 7)}}
  %0 = glow.graph.fully_connected %x, %w, %b : (tensor<2x8xf32>, tensor<7x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @fc_bias(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'bias' must be a 1-D tensor of 4 elements, got 'tensor<2x4xf32>'}}
  %0 = glow.graph.fully_connected %x, %w, %b : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_element(%a: tensor<2x8xf32>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{element types 'f32' and 'f16' differ}}
  %0 = glow.graph.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_rhs_rank(%a: tensor<2x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'rhs' must have rank 2}}
  %0 = glow.graph.matmul %a, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @batched_add_slice(%a: tensor<4x16xf32>, %b: tensor<15xf32>) {
  // expected-error @+1 {{slice 'tensor<15xf32>' must match one slice of the batch 'tensor<4x16xf32>'}}
  %0 = glow.graph.batched_add %a, %b : tensor<4x16xf32>, tensor<15xf32>
  return
}

// -----

func.func @batched_add_element(%a: tensor<4x16xf32>, %b: tensor<16xf16>) {
  // expected-error @+1 {{element types 'f32' and 'f16' differ}}
  %0 = glow.graph.batched_add %a, %b : tensor<4x16xf32>, tensor<16xf16>
  return
}

// -----

func.func @softmax_axis(%x: tensor<1x10xf32>) {
  // expected-error @+1 {{'axis' 2 is out of range for rank 2}}
  %0 = glow.graph.softmax %x axis 2 : tensor<1x10xf32>
  return
}

// -----

func.func @batch_norm_channel(%x: tensor<1x4x2x2xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{'channel' 4 is out of range for rank 4}}
  %0 = glow.graph.batch_norm %x, %v, %v, %v, %v channel 4 : tensor<1x4x2x2xf32>, tensor<4xf32>
  return
}

// -----

func.func @batch_norm_vector(%x: tensor<1x4x2x2xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'scale' must be a 1-D tensor of 4 elements, got 'tensor<3xf32>'}}
  %0 = glow.graph.batch_norm %x, %v, %v, %v, %v : tensor<1x4x2x2xf32>, tensor<3xf32>
  return
}

// -----

func.func @batch_norm_epsilon(%x: tensor<1x4x2x2xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{'epsilon' must not be negative}}
  %0 = glow.graph.batch_norm %x, %v, %v, %v, %v epsilon -1.0 : tensor<1x4x2x2xf32>, tensor<4xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 6 elements into 8}}
  %0 = glow.graph.reshape %x : tensor<2x3xf32> -> tensor<8xf32>
  return
}

// -----

func.func @reshape_element(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'i32'}}
  %0 = glow.graph.reshape %x : tensor<2x3xf32> -> tensor<6xi32>
  return
}

// -----

func.func @transpose_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'perm' [0] must have 2 elements for 'tensor<2x3xf32>'}}
  %0 = glow.graph.transpose %x perm [0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'perm' [1, 1] is not a permutation of 0..1}}
  %0 = glow.graph.transpose %x perm [1, 1] : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{needs at least one input}}
  %0 = "glow.graph.concat"() <{dim = 0 : i64}> : () -> tensor<2xf32>
  return
}

// -----

func.func @concat_dim(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'dim' 2 is out of range for rank 2}}
  %0 = glow.graph.concat %a, %a dim 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) {
  // expected-error @+1 {{input #1 'tensor<2x3x1xf32>' differs in rank or element type from 'tensor<2x3xf32>'}}
  %0 = glow.graph.concat %a, %b dim 0 : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_other_dim(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{input #1 'tensor<2x4xf32>' differs from 'tensor<2x3xf32>' in dimension 1}}
  %0 = glow.graph.concat %a, %b dim 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_element(%v: tensor<4xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'f16'}}
  %0 = glow.graph.broadcast %v axis 1 : tensor<4xf32> -> tensor<2x4xf16>
  return
}

// -----

func.func @broadcast_axis(%v: tensor<4xf32>) {
  // expected-error @+1 {{'axis' 2 does not fit 'tensor<4xf32>' inside 'tensor<2x4xf32>'}}
  %0 = glow.graph.broadcast %v axis 2 : tensor<4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @broadcast_dim(%v: tensor<3xf32>) {
  // expected-error @+1 {{input dimension 0 (3) must be 1 or equal result dimension 1 (4)}}
  %0 = glow.graph.broadcast %v axis 1 : tensor<3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @clip_bound_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'min' must be a scalar of the element type 'f32', got 0 : i32}}
  %0 = glow.graph.clip %x min 0 : i32 max 6.0 : f32 : tensor<4xf32>
  return
}

// -----

func.func @select_shape(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = glow.graph.select %c, %a, %a : tensor<3xi1>, tensor<4xf32>
  return
}

// -----

func.func @compare_types(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{failed to verify that all of {lhs, rhs} have same type}}
  %0 = "glow.graph.cmp_lt"(%a, %b) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @logic_on_floats(%a: tensor<4xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of integer values}}
  %0 = glow.graph.and %a, %a : tensor<4xf32>
  return
}

// -----

func.func @reduce_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = glow.graph.reduce_sum %x axes [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axis_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis -1 is repeated in [1, -1]}}
  %0 = glow.graph.reduce_sum %x axes [1, -1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @arg_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 5 is out of range for rank 2}}
  %0 = glow.graph.arg_max %x axis 5 : tensor<2x3xf32> -> tensor<2xi64>
  return
}

// -----

func.func @log_softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'axis' -3 is out of range for rank 2}}
  %0 = glow.graph.log_softmax %x axis -3 : tensor<2x3xf32>
  return
}

// -----

func.func @layer_norm_scale(%x: tensor<2x3x4xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'scale' and 'bias' must be 'tensor<4xf32>' (the normalized dimensions), got 'tensor<3xf32>'}}
  %0 = glow.graph.layer_norm %x, %g, %g : tensor<2x3x4xf32>, tensor<3xf32>
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<2x3x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'axis' 3 is out of range for rank 3}}
  %0 = glow.graph.layer_norm %x, %g, %g axis 3 : tensor<2x3x4xf32>, tensor<4xf32>
  return
}

// -----

func.func @layer_norm_epsilon(%x: tensor<2x3x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'epsilon' must not be negative}}
  %0 = glow.graph.layer_norm %x, %g, %g epsilon -1.0 : tensor<2x3x4xf32>, tensor<4xf32>
  return
}

// -----

func.func @batch_matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) {
  // expected-error @+1 {{batch sizes differ: 'tensor<2x4x8xf32>' vs 'tensor<3x8x4xf32>'}}
  %0 = glow.graph.batch_matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @batch_matmul_reduction(%a: tensor<2x4x8xf32>, %b: tensor<2x7x4xf32>) {
  // expected-error @+1 {{have different reduction sizes (8 vs 7)}}
  %0 = glow.graph.batch_matmul %a, %b : (tensor<2x4x8xf32>, tensor<2x7x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @batch_matmul_element(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf16>) {
  // expected-error @+1 {{element types 'f32' and 'f16' differ}}
  %0 = glow.graph.batch_matmul %a, %b : (tensor<2x4x8xf32>, tensor<2x8x4xf16>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @batch_matmul_rank(%a: tensor<4x8xf32>, %b: tensor<2x8x4xf32>) {
  // expected-error @+1 {{'lhs' must have rank 3}}
  %0 = glow.graph.batch_matmul %a, %b : (tensor<4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @slice_bounds(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{slice of 3 at 6 runs outside dimension 1 (8) of 'tensor<4x8xf32>'}}
  %0 = glow.graph.slice %x start [0, 6] : tensor<4x8xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'start' [0], input 'tensor<4x8xf32>' and result 'tensor<4x3xf32>' must have one rank}}
  %0 = glow.graph.slice %x start [0] : tensor<4x8xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_element(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'i32'}}
  %0 = glow.graph.slice %x start [0, 0] : tensor<4x8xf32> -> tensor<4x3xi32>
  return
}

// -----

func.func @pad_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'pads' [1, 1] must have 4 elements for 'tensor<4x8xf32>'}}
  %0 = glow.graph.pad %x pads [1, 1] value 0.0 : f32 : tensor<4x8xf32> -> tensor<5x9xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'pads' must not be negative, got [0, -1, 0, 0]}}
  %0 = glow.graph.pad %x pads [0, -1, 0, 0] value 0.0 : f32 : tensor<4x8xf32> -> tensor<4x7xf32>
  return
}

// -----

func.func @pad_value(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'value' must be a scalar of the element type 'f32', got 0 : i32}}
  %0 = glow.graph.pad %x pads [0, 0, 0, 0] value 0 : i32 : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @tile_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'repeats' must have 2 elements, got [2]}}
  %0 = glow.graph.tile %x repeats [2] : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @tile_positive(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'repeats' must be positive, got [0, 1]}}
  %0 = glow.graph.tile %x repeats [0, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
  return
}

// -----

func.func @convert_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = glow.graph.convert %x : tensor<4xf32> -> tensor<5xi32>
  return
}

// -----

func.func @gather_axis(%d: tensor<4x8xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'axis' 2 is out of range for rank 2}}
  %0 = glow.graph.gather %d, %i axis 2 : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_indices_type(%d: tensor<4x8xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = glow.graph.gather %d, %i : (tensor<4x8xf32>, tensor<2xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @lrn_size(%x: tensor<1x4x2x2xf32>) {
  // expected-error @+1 {{'size' must be positive, got 0}}
  %0 = glow.graph.local_response_norm %x size 0 : tensor<1x4x2x2xf32>
  return
}

// -----

func.func @lrn_rank(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{input must have rank >= 3 (N x C x spatial), got 'tensor<4x2xf32>'}}
  %0 = glow.graph.local_response_norm %x size 3 : tensor<4x2xf32>
  return
}

// -----

func.func @instance_norm_scale(%x: tensor<1x4x2x2xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'scale' must be a 1-D tensor of 4 elements, got 'tensor<3xf32>'}}
  %0 = glow.graph.instance_norm %x, %v, %v : tensor<1x4x2x2xf32>, tensor<3xf32>
  return
}

// -----

func.func @instance_norm_epsilon(%x: tensor<1x4x2x2xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{'epsilon' must not be negative}}
  %0 = glow.graph.instance_norm %x, %v, %v epsilon -1.0 : tensor<1x4x2x2xf32>, tensor<4xf32>
  return
}

// -----

func.func @gather_elements_rank(%x: tensor<3x4xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{indices 'tensor<3xi64>' must have the rank of 'tensor<3x4xf32>'}}
  %0 = glow.graph.gather_elements %x, %i axis 0 : tensor<3x4xf32>, tensor<3xi64> -> tensor<3xf32>
  return
}

// -----

func.func @gather_elements_extent(%x: tensor<3x4xf32>, %i: tensor<3x5xi64>) {
  // expected-error @+1 {{indices 'tensor<3x5xi64>' exceed 'tensor<3x4xf32>' in dimension 1}}
  %0 = glow.graph.gather_elements %x, %i axis 0 : tensor<3x4xf32>, tensor<3x5xi64> -> tensor<3x5xf32>
  return
}

// -----

func.func @gather_elements_result(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{result must be 'tensor<3x2xf32>', got 'tensor<3x4xf32>'}}
  %0 = "glow.graph.gather_elements"(%x, %i) <{axis = 1 : i64}> : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_updates(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x3xf32>) {
  // expected-error @+1 {{updates must be 'tensor<3x2xf32>', got 'tensor<3x3xf32>'}}
  %0 = glow.graph.scatter_elements %x, %i, %u axis 1 : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x3xf32>
  return
}

// -----

func.func @scatter_reduction(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>) {
  // expected-error @+1 {{'reduction' must be none, add, mul, max or min, got 'mean'}}
  %0 = glow.graph.scatter_elements %x, %i, %u axis 1 reduction "mean" : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  return
}

// -----

func.func @top_k_k(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'k' 5 must be between 0 and 4}}
  %0:2 = glow.graph.top_k %x k 5 axis 1 : tensor<3x4xf32> -> tensor<3x5xf32>, tensor<3x5xi64>
  return
}

// -----

func.func @top_k_axis(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'axis' 2 is out of range for rank 2}}
  %0:2 = glow.graph.top_k %x k 1 axis 2 : tensor<3x4xf32> -> tensor<3x1xf32>, tensor<3x1xi64>
  return
}

// -----

func.func @resize_rank(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{result 'tensor<3x16x16xf32>' must have the rank and element type of 'tensor<1x3x8x8xf32>'}}
  %0 = glow.graph.resize %x mode "nearest" coordinates "asymmetric" : tensor<1x3x8x8xf32> -> tensor<3x16x16xf32>
  return
}

// -----

func.func @resize_mode(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'mode' must be nearest, linear or cubic, got 'lanczos'}}
  %0 = glow.graph.resize %x mode "lanczos" coordinates "asymmetric" : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}

// -----

func.func @resize_coordinates(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'coordinates' must be half_pixel, half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric or tf_crop_and_resize, got 'corners'}}
  %0 = glow.graph.resize %x mode "linear" coordinates "corners" : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}

// -----

func.func @resize_roi(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{tf_crop_and_resize needs a 'roi' of 8 entries (starts, then ends)}}
  %0 = glow.graph.resize %x mode "linear" coordinates "tf_crop_and_resize" : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}

// -----

func.func @resize_scales(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'scales' has 2 entries for rank 4}}
  %0 = glow.graph.resize %x mode "linear" coordinates "half_pixel" scales [2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}

// -----

func.func @resize_nearest_mode(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'nearest_mode' must be round_prefer_floor, round_prefer_ceil, floor or ceil, got 'up'}}
  %0 = glow.graph.resize %x mode "nearest" coordinates "asymmetric" nearest_mode "up" : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}

// -----

func.func @resize_empty(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{dimension 2 is empty}}
  %0 = glow.graph.resize %x mode "linear" coordinates "half_pixel" : tensor<1x3x8x8xf32> -> tensor<1x3x0x16xf32>
  return
}

// -----

func.func @conv_transpose_filter(%x: tensor<1x8x4x4xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{filter 'tensor<4x4x3x3xf32>' must have one slice per input channel (8)}}
  %0 = glow.graph.conv_transpose2d %x, %w : (tensor<1x8x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x8x4x4xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+1 {{'output_padding' must not be negative, got [-1, 0]}}
  %0 = glow.graph.conv_transpose2d %x, %w output_padding [-1, 0] : (tensor<1x8x4x4xf32>, tensor<8x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  return
}

// -----

func.func @conv_transpose_no_output(%x: tensor<1x8x1x1xf32>, %w: tensor<8x4x1x1xf32>) {
  // expected-error @+1 {{the padding leaves no output in dimension 2}}
  %0 = glow.graph.conv_transpose2d %x, %w pads [1, 0, 1, 0] : (tensor<1x8x1x1xf32>, tensor<8x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @splat_negative_does_not_fit() -> tensor<2xi8> {
  // expected-error @+1 {{literal does not fit in 'i8'}}
  %0 = glow.graph.splat -129 : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @adaptive_pool_rank(%x: tensor<2x8x8xf32>) {
  // expected-error @+1 {{input and result must be NCHW (rank 4)}}
  %0 = glow.graph.adaptive_avg_pool %x : tensor<2x8x8xf32> -> tensor<2x4x4xf32>
  return
}

// -----

func.func @adaptive_pool_channels(%x: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{must keep the input's batch and channels}}
  %0 = glow.graph.adaptive_avg_pool %x : tensor<1x8x8x8xf32> -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @adaptive_pool_element(%x: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{element type changes from 'f32' to 'f16'}}
  %0 = glow.graph.adaptive_avg_pool %x : tensor<1x8x8x8xf32> -> tensor<1x8x4x4xf16>
  return
}

// -----

func.func @adaptive_pool_empty(%x: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{spatial extents must be positive}}
  %0 = glow.graph.adaptive_avg_pool %x : tensor<1x8x8x8xf32> -> tensor<1x8x0x4xf32>
  return
}

// -----

func.func @adaptive_pool_int(%x: tensor<1x8x8x8xi32>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values}}
  %0 = glow.graph.adaptive_avg_pool %x : tensor<1x8x8x8xi32> -> tensor<1x8x4x4xi32>
  return
}

// -----

func.func @shift_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of integer values}}
  %0 = glow.graph.shift_left %x, %x : tensor<4xf32>
  return
}

// -----

func.func @mod_mixed(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.mod"(%x, %y) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @sub_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.sub"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @mul_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.mul"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @div_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.div"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @max_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.max"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @min_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.min"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @pow_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.pow"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @sigmoid_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.sigmoid %i : tensor<4xi32>
  return
}

// -----

func.func @tanh_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.tanh %i : tensor<4xi32>
  return
}

// -----

func.func @sqrt_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.sqrt %i : tensor<4xi32>
  return
}

// -----

func.func @rsqrt_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.rsqrt %i : tensor<4xi32>
  return
}

// -----

func.func @exp_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.exp %i : tensor<4xi32>
  return
}

// -----

func.func @log_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.log %i : tensor<4xi32>
  return
}

// -----

func.func @erf_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.erf %i : tensor<4xi32>
  return
}

// -----

func.func @floor_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.floor %i : tensor<4xi32>
  return
}

// -----

func.func @ceil_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.ceil %i : tensor<4xi32>
  return
}

// -----

func.func @round_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.round %i : tensor<4xi32>
  return
}

// -----

func.func @hard_swish_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.hard_swish %i : tensor<4xi32>
  return
}

// -----

func.func @gelu_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.gelu %i : tensor<4xi32>
  return
}

// -----

func.func @leaky_relu_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.leaky_relu %i : tensor<4xi32>
  return
}

// -----

func.func @hard_sigmoid_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.hard_sigmoid %i : tensor<4xi32>
  return
}

// -----

func.func @is_nan_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.is_nan %i : tensor<4xi32>
  return
}

// -----

func.func @prelu_on_integers(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = glow.graph.prelu %i, %i : tensor<4xi32>
  return
}

// -----

func.func @neg_changes_type(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.neg"(%f) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @abs_changes_type(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "glow.graph.abs"(%f) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @cmp_eq_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that all of {lhs, rhs} have same type}}
  %0 = "glow.graph.cmp_eq"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return
}

// -----

func.func @cmp_neq_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that all of {lhs, rhs} have same type}}
  %0 = "glow.graph.cmp_neq"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return
}

// -----

func.func @cmp_lte_mixed_types(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that all of {lhs, rhs} have same type}}
  %0 = "glow.graph.cmp_lte"(%f, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return
}

// -----

func.func @not_on_floats(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{tensor of 1-bit signless integer values}}
  %0 = glow.graph.not %f : tensor<4xf32>
  return
}

// -----

func.func @shift_right_on_floats(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of integer values}}
  %0 = glow.graph.shift_right %f, %f : tensor<4xf32>
  return
}

// -----

func.func @constant_type_mismatch(%f: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %0 = "glow.graph.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}

// -----

func.func @or_on_floats(%a: tensor<4xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of integer values}}
  %0 = glow.graph.or %a, %a : tensor<4xf32>
  return
}

// -----

func.func @xor_on_floats(%a: tensor<4xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of integer values}}
  %0 = glow.graph.xor %a, %a : tensor<4xf32>
  return
}

// -----

func.func @reduce_mean_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = glow.graph.reduce_mean %x axes [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_max_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = glow.graph.reduce_max %x axes [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_min_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = glow.graph.reduce_min %x axes [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_prod_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = glow.graph.reduce_prod %x axes [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @arg_min_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = glow.graph.arg_min %x axis -3 : tensor<2x3xf32> -> tensor<2xi64>
  return
}
