// --emit-bytecode writes MLIR bytecode that reads back into the same module (op names,
// properties, dense_resource weights and node-name locations), through glow-opt and
// glow-run, and through upstream mlir-opt with unregistered dialects allowed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/models.py cnn %t/cnn.onnx
// RUN: glow-import %t/cnn.onnx --input-shape x=1x3x16x16 --emit-bytecode -o %t/cnn.mlirbc
// RUN: glow-import %t/cnn.onnx --input-shape x=1x3x16x16 --no-locations -o %t/cnn.mlir
// RUN: head -c 4 %t/cnn.mlirbc | od -An -c | FileCheck %s --check-prefix=MAGIC
// MAGIC: M L 357 R
// RUN: glow-opt %t/cnn.mlirbc -o %t/from-bytecode.mlir
// RUN: diff %t/cnn.mlir %t/from-bytecode.mlir
// RUN: glow-opt %t/cnn.mlirbc --mlir-print-debuginfo | FileCheck %s
// CHECK: glow.graph.conv2d %arg0, %{{.*}}, %{{.*}} strides [2, 2] pads [1, 1, 1, 1] {{.*}} loc(#[[CONV:.*]])
// CHECK: glow.graph.batch_norm
// CHECK: #[[CONV]] = loc("conv1"(#{{.*}}))
// CHECK: dialect_resources
// RUN: mlir-opt --allow-unregistered-dialect %t/cnn.mlirbc | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: "glow.graph.conv2d"(%arg0, %{{.*}}, %{{.*}}) {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.random.default_rng(3).standard_normal((1, 3, 16, 16)).astype(np.float32))"
// The ports keep their ONNX names (x, prob) through text and bytecode.
// RUN: glow-run %t/cnn.mlirbc --input x=%t/x.npy --output-dir %t/bc
// RUN: glow-run %t/cnn.mlir --input x=%t/x.npy --output-dir %t/text
// RUN: cmp %t/bc/prob.npy %t/text/prob.npy

// Truncated bytecode: a located error, exit code 1, no outputs.
// RUN: head -c 3000 %t/cnn.mlirbc > %t/truncated.mlirbc
// RUN: not glow-run %t/truncated.mlirbc --output-dir %t/truncated 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not test -e %t/truncated
// TRUNCATED: error: attempting to parse {{[0-9]+}} bytes when only {{[0-9]+}} remain
// TRUNCATED: glow-run: error: '{{.*}}truncated.mlirbc' does not parse as MLIR
