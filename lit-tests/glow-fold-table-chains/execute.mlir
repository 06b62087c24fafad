// A GELU MLP quantized by onnxruntime (QDQ): the GELU's chain of erf, add, mul and
// quantizes between the two integer MatMuls becomes one table, and the result equals
// onnxruntime's (which runs the chain op by op).
// RUN: %python %S/../glow-import/Inputs/models.py gelu-mlp-int8 %t.onnx
// RUN: glow-import %t.onnx | glow-opt --glow-cpu-pipeline -o /dev/null --mlir-print-ir-after=glow-fold-table-chains 2>&1 | FileCheck %s
// CHECK: glow.quant.fully_connected
// CHECK-NOT: glow.graph.erf
// CHECK-NOT: glow.quant.mul
// CHECK: glow.quant.lookup_table
// CHECK-NOT: glow.graph.erf
// CHECK: glow.quant.fully_connected
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape x=2x16x32 --bin %glow_bin --tolerance 2e-2 | FileCheck %s --check-prefix=ORT
// ORT: PASS
