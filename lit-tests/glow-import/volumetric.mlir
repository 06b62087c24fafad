// 3-D convolutions (video and volumetric networks) import as sums over the kernel's
// depth taps of 2-D convolutions: the input goes channels-last ([N, D, H, W, C]), each
// tap reads the depths tap * dilation + k * stride (a slice, or a gather when strided)
// as one batch of planes, and the taps' outputs are added; the transposes around each
// 2-D convolution cancel against glow-channels-last's. A (KD, 1, 1) filter is one 2-D
// convolution over (depth, height x width). Transposed convolutions write each tap's
// planes to their strided output depths (zeros between), sum, crop the pads and add the
// bias once. Global pools over 3-D pool the flattened volume. Every output is checked
// against onnxruntime.
// RUN: %python %S/Inputs/volumetric.py convs %t.convs.onnx
// RUN: glow-import %t.convs.onnx --no-locations | FileCheck %s --check-prefix=CONVS
// The padded 3x3x3 convolution: depth padded, three taps of 3x3 convolutions over
// 2 x 5 planes, the bias with the first tap only.
// CONVS: %[[PLANES:.*]] = glow.graph.transpose %arg0 perm [0, 2, 3, 4, 1] : tensor<2x4x5x6x7xf32> -> tensor<2x5x6x7x4xf32>
// CONVS: %[[PADDED:.*]] = glow.graph.pad %[[PLANES]] pads [0, 1, 0, 0, 0, 0, 1, 0, 0, 0]
// CONVS: glow.graph.slice %[[PADDED]] start [0, 0, 0, 0, 0] : tensor<2x7x6x7x4xf32> -> tensor<2x5x6x7x4xf32>
// CONVS: glow.graph.conv2d %{{.*}}, %{{.*}}, %{{.*}} pads [1, 1, 1, 1] : (tensor<10x4x6x7xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<10x8x6x7xf32>
// CONVS: glow.graph.slice %[[PADDED]] start [0, 1, 0, 0, 0]
// CONVS: glow.graph.conv2d %{{.*}}, %{{.*}} pads [1, 1, 1, 1] : (tensor<10x4x6x7xf32>, tensor<8x4x3x3xf32>) -> tensor<10x8x6x7xf32>
// CONVS: glow.graph.slice %[[PADDED]] start [0, 2, 0, 0, 0]
// CONVS: glow.graph.add
// CONVS-NEXT: glow.graph.add
// CONVS-NEXT: glow.graph.reshape %{{.*}} : tensor<10x6x7x8xf32> -> tensor<2x5x6x7x8xf32>
// CONVS-NEXT: glow.graph.transpose %{{.*}} perm [0, 4, 1, 2, 3] : tensor<2x5x6x7x8xf32> -> tensor<2x8x5x6x7xf32>
// The temporal (3, 1, 1) convolution, depth stride and dilation 2: one 2-D convolution.
// CONVS: glow.graph.reshape %{{.*}} : tensor<2x5x6x7x8xf32> -> tensor<2x5x42x8xf32>
// CONVS: glow.graph.conv2d %{{.*}}, %{{.*}} strides [2, 1] pads [2, 0, 1, 0] dilations [2, 1] : (tensor<2x8x5x42xf32>, tensor<6x8x3x1xf32>) -> tensor<2x6x2x42xf32>
// The grouped SAME_UPPER convolution, strides 2: each tap gathers its depths and keeps
// the group and spatial strides.
// CONVS: glow.graph.constant dense<[0, 2, 4]> : tensor<3xi64>
// CONVS-NEXT: glow.graph.gather %{{.*}}, %{{.*}} axis 1 : (tensor<2x6x6x7x4xf32>, tensor<3xi64>) -> tensor<2x3x6x7x4xf32>
// CONVS: glow.graph.conv2d {{.*}} strides [2, 2] pads [0, 1, 1, 1] group 2 : (tensor<6x4x6x7xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<6x6x3x4xf32>
// CONVS: glow.graph.constant dense<[1, 3, 5]> : tensor<3xi64>
// A filter given at run time is sliced per tap.
// CONVS: glow.graph.slice %arg1 start [0, 0, 1, 0, 0] : tensor<3x4x2x2x2xf32> -> tensor<3x4x1x2x2xf32>
// Global pools over the flattened volume.
// CONVS: glow.graph.reshape %{{.*}} : tensor<2x8x5x6x7xf32> -> tensor<2x8x210xf32>
// CONVS: glow.graph.avg_pool {{.*}} kernel [1, 210]
// CONVS: glow.graph.max_pool {{.*}} kernel [1, 210]
// CONVS: glow.graph.reshape %{{.*}} : tensor<2x8x1xf32> -> tensor<2x8x1x1x1xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.convs.onnx --input-shape x=2x4x5x6x7 --input-shape w_input=3x4x2x2x2 --bin %glow_bin | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.convs.onnx --input-shape x=2x4x5x6x7 --input-shape w_input=3x4x2x2x2 --seed 1 --via-mlir --bin %glow_bin | FileCheck %s --check-prefix=EXEC
// EXEC: PASS

// RUN: %python %S/Inputs/volumetric.py transposed %t.transposed.onnx
// RUN: glow-import %t.transposed.onnx --no-locations | FileCheck %s --check-prefix=TRANSPOSED
// Stride 2: each tap's 3 input depths spread to 5 rows (a zero row between), placed
// at depth offset tap (pads 0 + 3, 1 + 2, 2 + 1 around them), summed, cropped by the
// pads to 6 depths, then the bias.
// TRANSPOSED: glow.graph.conv_transpose2d %{{.*}}, %{{.*}} strides [2, 2] pads [1, 1, 1, 1] output_padding [1, 1] : (tensor<3x4x4x5xf32>, tensor<4x3x3x3xf32>) -> tensor<3x3x8x10xf32>
// TRANSPOSED: glow.graph.pad %{{.*}} pads [0, 0, 0, 0, 0, 240] {{.*}} : tensor<1x3x240xf32> -> tensor<1x3x480xf32>
// TRANSPOSED: glow.graph.slice %{{.*}} start [0, 0, 0] : tensor<1x6x240xf32> -> tensor<1x5x240xf32>
// TRANSPOSED: glow.graph.pad %{{.*}} pads [0, 0, 0, 0, 3, 0] {{.*}} : tensor<1x5x240xf32> -> tensor<1x8x240xf32>
// TRANSPOSED: glow.graph.pad %{{.*}} pads [0, 1, 0, 0, 2, 0]
// TRANSPOSED: glow.graph.pad %{{.*}} pads [0, 2, 0, 0, 1, 0]
// TRANSPOSED: glow.graph.slice %{{.*}} start [0, 1, 0] : tensor<1x8x240xf32> -> tensor<1x6x240xf32>
// TRANSPOSED: glow.graph.transpose %{{.*}} perm [0, 2, 1, 3, 4] : tensor<1x6x3x8x10xf32> -> tensor<1x3x6x8x10xf32>
// TRANSPOSED: glow.graph.add %{{.*}} : tensor<1x3x6x8x10xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.transposed.onnx --input-shape x=1x4x3x4x5 --bin %glow_bin | FileCheck %s --check-prefix=EXEC

// Refusals: a filter that does not fit the channels with its group, four spatial
// dimensions, 300 depth taps (one 2-D convolution each), a group whose product with
// the filter's channels overflows; one line naming the node, no output file.
// RUN: %python %S/Inputs/volumetric.py bad-group %t.bad-group.onnx
// RUN: not glow-import %t.bad-group.onnx -o %t.bad-group.mlir 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not test -e %t.bad-group.mlir
// GROUP: glow-import: error: node 'misfit' (Conv): filter [6, 2, 1, 1, 1] with group 3 does not fit 4 input channels
// RUN: %python %S/Inputs/volumetric.py four-d %t.four-d.onnx
// RUN: not glow-import %t.four-d.onnx 2>&1 | FileCheck %s --check-prefix=FOUR
// FOUR: glow-import: error: node 'hyper' (Conv): 4-D spatial input is not supported (only 1-D, 2-D and 3-D)
// RUN: %python %S/Inputs/volumetric.py deep %t.deep.onnx
// RUN: not glow-import %t.deep.onnx -o %t.deep.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not test -e %t.deep.mlir
// DEEP: glow-import: error: node 'deep' (Conv): a filter depth of 300 is not supported (at most 256 unless height and width are 1)
// RUN: %python %S/Inputs/volumetric.py huge-group %t.huge.onnx
// RUN: not glow-import %t.huge.onnx 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: glow-import: error: node 'huge' (Conv): filter [2, 2, 1, 1, 1] with group 4611686018427387904 does not fit 2 input channels
