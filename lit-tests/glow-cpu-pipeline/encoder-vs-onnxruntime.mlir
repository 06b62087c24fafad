// A transformer-encoder slice (int64 token ids, attention mask through Cast/Unsqueeze/
// Where, embedding Gather, LayerNormalization, batched MatMul, Softmax, Erf-based Gelu)
// through glow-run (glow-import, --glow-cpu-pipeline, ExecutionEngine) agrees with
// onnxruntime on the same inputs.
// RUN: %python %S/../glow-import/Inputs/models.py encoder %t.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape ids=2x8 --input-shape mask=2x8 --bin %glow_bin | FileCheck %s
// CHECK: output out: 256 values
// CHECK: PASS: worst ratio
