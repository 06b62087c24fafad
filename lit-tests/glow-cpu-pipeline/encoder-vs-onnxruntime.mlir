// A transformer-encoder slice (int64 token ids, attention mask through Cast/Unsqueeze/
// Where, embedding Gather, LayerNormalization, batched MatMul, Softmax, Erf-based Gelu)
// through glow-import, --glow-cpu-pipeline and mlir-runner agrees with onnxruntime.
// RUN: %python %S/../glow-import/Inputs/models.py encoder %t.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape ids=2x8 --input-shape mask=2x8 --bin %glow_bin | FileCheck %s
// CHECK: output 0: 256 values
// CHECK: PASS: worst ratio
