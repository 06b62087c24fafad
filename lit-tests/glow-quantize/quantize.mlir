// glow-quantize wraps each profiled value in quantize / dequantize with its schema's
// parameters, quantizes constant weights to int8 per output channel, and folds the
// result into integer ops (the ReLU fused, the max pool and reshape on int8 values).
// RUN: %python %S/Inputs/write_profile.py %S/Inputs/model.mlir %S/Inputs/profile.yaml %t.yaml
// RUN: glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t.yaml})" | FileCheck %s
// RUN: glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t.yaml schema=symmetric_uint8 channelwise=false})" | FileCheck %s --check-prefix=UINT8
// RUN: glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t.yaml keep=fully_connected})" | FileCheck %s --check-prefix=KEEP
// RUN: glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t.yaml calibration=percentile schema=symmetric_pow2})" | FileCheck %s --check-prefix=POW2

// Asymmetric int8: x in [-1, 1] has scale 2/255 and zero point -1; relu1 in [0, 6]
// has scale 6/255 and zero point -128; weights are int8 per output channel.
// CHECK-LABEL: func.func @main
// CHECK: %[[X:.*]] = glow.quant.quantize %arg0 : tensor<1x4x4x3xf32> -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.0078431377187371254:-1>>
// CHECK: quant.scast %{{.*}} : tensor<8x3x1x1xi8> to tensor<8x3x1x1x!quant.uniform<i8:f32:0, {0.0078740157186985015,
// CHECK: %[[C:.*]] = glow.quant.conv2d %[[X]], %{{.*}}, %{{.*}} channels_last min 0.000000e+00 : {{.*}} -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.023529412224888802:-128>>
// CHECK: %[[P:.*]] = glow.graph.max_pool %[[C]] {{.*}} -> tensor<1x2x2x8x!quant.uniform<i8:f32, 0.023529412224888802:-128>>
// CHECK: %[[F:.*]] = glow.graph.reshape %[[P]]
// CHECK: %[[Y:.*]] = glow.quant.fully_connected %[[F]]
// CHECK: glow.quant.dequantize %[[Y]]
// CHECK-NOT: glow.graph.conv2d
// CHECK-NOT: glow.graph.fully_connected

// symmetric_uint8: non-negative values as uint8 with zero point 0; one weight scale.
// UINT8: glow.quant.quantize %arg0 : tensor<1x4x4x3xf32> -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.0078740157186985015>>
// UINT8: quant.scast %{{.*}} : tensor<8x3x1x1xi8> to tensor<8x3x1x1x!quant.uniform<i8:f32, 0.015748031437397003>>
// UINT8: glow.quant.conv2d {{.*}} -> tensor<1x4x4x8x!quant.uniform<u8:f32, 0.023529412224888802>>

// keep=fully_connected: the layer stays float after a dequantize.
// KEEP: glow.quant.conv2d
// KEEP: %[[D:.*]] = glow.quant.dequantize
// KEEP: glow.graph.fully_connected %[[D]]

// symmetric_pow2: scales are powers of two.
// POW2: glow.quant.quantize %arg0 : tensor<1x4x4x3xf32> -> tensor<1x4x4x3x!quant.uniform<i8:f32, 1.562500e-02>>
