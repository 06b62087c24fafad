// ResNet-50 and MobileNetV2 (built by python/build_models.py with deterministic
// weights) import and verify; glow-graph-optimize folds every batch_norm into its
// convolution.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../python/build_models.py --out %t resnet50 mobilenetv2 > /dev/null
// RUN: glow-import %t/resnet50.onnx --input-shape input=1x3x224x224 -o %t/resnet50.mlir
// RUN: glow-opt %t/resnet50.mlir --mlir-elide-resource-strings-if-larger=16 | FileCheck %s --check-prefix=RESNET
// RUN: glow-opt %t/resnet50.mlir --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' --mlir-elide-resource-strings-if-larger=16 | FileCheck %s --check-prefix=RESNET-OPT --implicit-check-not=batch_norm
// RUN: glow-import %t/mobilenetv2.onnx --input-shape input=1x3x224x224 -o %t/mobilenetv2.mlir
// RUN: glow-opt %t/mobilenetv2.mlir --pass-pipeline='builtin.module(func.func(glow-graph-optimize))' --mlir-elide-resource-strings-if-larger=16 | FileCheck %s --check-prefix=MOBILENET --implicit-check-not=batch_norm

// RESNET: func.func @main(%arg0: tensor<1x3x224x224xf32> {glow.name = "input"}) -> (tensor<1x1000xf32> {glow.name = "logits"})
// RESNET: glow.graph.conv2d %arg0, %{{.*}} strides [2, 2] pads [3, 3, 3, 3] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x112x112xf32>
// RESNET: glow.graph.batch_norm
// RESNET: glow.graph.max_pool %{{.*}} kernel [3, 3] strides [2, 2] pads [1, 1, 1, 1] : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
// RESNET: glow.graph.avg_pool %{{.*}} kernel [7, 7] : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
// RESNET: glow.graph.fully_connected {{.*}} -> tensor<1x1000xf32>

// RESNET-OPT: func.func @main
// RESNET-OPT-COUNT-53: glow.graph.conv2d
// RESNET-OPT: glow.graph.fully_connected

// Depthwise convolutions (group = channels) and ReLU6 as clip.
// MOBILENET: func.func @main(%arg0: tensor<1x3x224x224xf32> {glow.name = "input"}) -> (tensor<1x1000xf32> {glow.name = "logits"})
// MOBILENET: glow.graph.conv2d {{.*}} group 32 : (tensor<1x32x112x112xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x112x112xf32>
// MOBILENET: glow.graph.clip %{{.*}} min 0.000000e+00 : f32 max 6.000000e+00 : f32
