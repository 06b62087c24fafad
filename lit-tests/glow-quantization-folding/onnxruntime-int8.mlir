// A small CNN (conv + ReLU, depthwise conv, residual add, max / global average pool,
// Gemm) quantized by onnxruntime's quantize_static (QDQ, per-channel int8 weights,
// int32 biases, uint8 activations) imports, folds into integer ops only, and runs
// with glow-run to onnxruntime's int8 result: same top-1, within 2% of max |ort|.
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t.onnx
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-quantization-folding))' | FileCheck %s --check-prefix=FOLDED
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=1x3x16x16 --bin %glow_bin --tolerance 2e-2 --check-top1 --seed 7 | FileCheck %s

// FOLDED: glow.quant.quantize %arg0
// FOLDED-COUNT-3: glow.quant.conv2d
// FOLDED: glow.quant.add
// FOLDED: glow.graph.max_pool {{.*}}!quant.uniform
// FOLDED: glow.quant.avg_pool
// FOLDED: glow.quant.fully_connected
// FOLDED: glow.quant.dequantize
// FOLDED-NOT: glow.graph.conv2d
// FOLDED-NOT: glow.graph.fully_connected

// CHECK: output y: top-1 equal
// CHECK: PASS
