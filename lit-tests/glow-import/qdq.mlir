// QDQ models (onnxruntime's quantizer): QuantizeLinear / DequantizeLinear become
// glow.quant ops on !quant.uniform tensors; int8 weights behind a per-channel
// DequantizeLinear are dequantized at import; a uint8 input is reinterpreted as
// quantized storage (tensor.bitcast + quant.scast).
// RUN: %python %S/Inputs/models.py qdq %t.onnx
// RUN: glow-import %t.onnx | FileCheck %s

// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xui8> {glow.name = "img"}) -> (tensor<2x2xf32> {glow.name = "y"})
// CHECK: %[[B:.*]] = tensor.bitcast %arg0 : tensor<2x3xui8> to tensor<2x3xi8>
// CHECK: %[[S:.*]] = quant.scast %[[B]] : tensor<2x3xi8> to tensor<2x3x!quant.uniform<u8:f32, 0.05000000074505806:128>>
// CHECK: %[[X:.*]] = glow.quant.dequantize %[[S]] : tensor<2x3x!quant.uniform<u8:f32, 0.05000000074505806:128>> -> tensor<2x3xf32>
// CHECK: %[[Q:.*]] = glow.quant.quantize %[[X]] : tensor<2x3xf32> -> tensor<2x3x!quant.uniform<u8:f32, 0.05000000074505806:128>>
// CHECK: %[[D:.*]] = glow.quant.dequantize %[[Q]]
// Per-channel weights (scales 0.5, 0.25 along axis 1) folded to floats.
// CHECK: %[[W:.*]] = glow.graph.constant dense<{{\[}}[5.000000e-01, -5.000000e-01], [1.500000e+00, 1.000000e+00], [-2.500000e+00, 1.500000e+00]]> : tensor<3x2xf32>
// CHECK: glow.graph.matmul %[[D]], %[[W]]

// The QDQ model runs (glow.quant ops lowered on the storage integers); onnxruntime
// gives the same values on this input (to 2e-6).
// RUN: %python -c "import numpy as np; np.save('%t.img.npy', np.array([[0, 100, 255], [128, 7, 200]], np.uint8))"
// RUN: glow-run %t.onnx --input img=%t.img.npy --output-dir %t.out
// RUN: %python -c "import numpy as np; print([[round(float(v), 3) for v in row] for row in np.load('%t.out/y.npy')])" | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[}}[-21.175, 11.325], [-18.075, -0.65]]
