// QDQ models (onnxruntime's quantizer): QuantizeLinear / DequantizeLinear become
// glow.quant ops on !quant.uniform tensors; int8 weights behind a per-channel
// DequantizeLinear stay int8 (a quantized constant and a dequantize, which
// glow-quantization-folding folds into integer compute or, for a float consumer as
// here, into float constants); a uint8 input is reinterpreted as quantized storage
// (tensor.bitcast + quant.scast).
// RUN: %python %S/Inputs/models.py qdq %t.onnx
// RUN: glow-import %t.onnx --no-locations | FileCheck %s

// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xui8> {glow.name = "img"}) -> (tensor<2x2xf32> {glow.name = "y"})
// CHECK: %[[B:.*]] = tensor.bitcast %arg0 : tensor<2x3xui8> to tensor<2x3xi8>
// CHECK: %[[S:.*]] = quant.scast %[[B]] : tensor<2x3xi8> to tensor<2x3x!quant.uniform<u8:f32, 0.05000000074505806:128>>
// CHECK: %[[X:.*]] = glow.quant.dequantize %[[S]] : tensor<2x3x!quant.uniform<u8:f32, 0.05000000074505806:128>> -> tensor<2x3xf32>
// CHECK: %[[Q:.*]] = glow.quant.quantize %[[X]] : tensor<2x3xf32> -> tensor<2x3x!quant.uniform<u8:f32, 0.05000000074505806:128>>
// CHECK: %[[D:.*]] = glow.quant.dequantize %[[Q]]
// Per-channel weights (scales 0.5, 0.25 along axis 1) kept as int8.
// CHECK: %[[I:.*]] = glow.graph.constant dense<{{\[}}[1, -2], [3, 4], [-5, 6]]> : tensor<3x2xi8>
// CHECK: %[[WQ:.*]] = quant.scast %[[I]] : tensor<3x2xi8> to tensor<3x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01}>>
// CHECK: %[[W:.*]] = glow.quant.dequantize %[[WQ]]
// CHECK: glow.graph.matmul %[[D]], %[[W]]

// The matmul's result is not quantized again, so it stays float; its weights become
// float constants at compile time.
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-quantization-folding))' | FileCheck %s --check-prefix=FOLDED
// FOLDED: %[[W:.*]] = glow.graph.constant dense<{{\[}}[5.000000e-01, -5.000000e-01], [1.500000e+00, 1.000000e+00], [-2.500000e+00, 1.500000e+00]]> : tensor<3x2xf32>
// FOLDED: glow.graph.matmul %{{.*}}, %[[W]]

// The QDQ model runs (glow.quant ops lowered on the storage integers); onnxruntime
// gives the same values on this input (to 2e-6).
// RUN: %python -c "import numpy as np; np.save('%t.img.npy', np.array([[0, 100, 255], [128, 7, 200]], np.uint8))"
// RUN: glow-run %t.onnx --input img=%t.img.npy --output-dir %t.out
// RUN: %python -c "import numpy as np; print([[round(float(v), 3) for v in row] for row in np.load('%t.out/y.npy')])" | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[}}[-21.175, 11.325], [-18.075, -0.65]]
