// GatherND / ScatterND become gather / scatter_elements on the data flattened to rows;
// a ScatterND of constants (Swin's attention mask) is computed at import time. Results
// match onnxruntime; an index outside its dimension is a located runtime error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/composed_ops.py nd-indexing %t/nd.onnx
// RUN: glow-import %t/nd.onnx | FileCheck %s --check-prefix=IR
// Row numbers: wrapped components, outside ones replaced by the row count (12), dotted
// with the row strides [4, 1].
// IR: %[[DATA:.*]] = glow.graph.reshape %arg0 : tensor<3x4x5xf32> -> tensor<12x5xf32>
// IR: %[[ROWS:.*]] = glow.graph.splat 12 : tensor<2x2xi64>
// IR: %[[SAFE:.*]] = glow.graph.select %{{.*}}, %[[ROWS]], %{{.*}} : tensor<2x2xi1>, tensor<2x2xi64>
// IR: %[[STRIDES:.*]] = glow.graph.constant dense<[4, 1]> : tensor<2xi64>
// IR: %[[NUMBERS:.*]] = glow.graph.reduce_sum %{{.*}} axes [1] : tensor<2x2xi64> -> tensor<2xi64>
// IR: glow.graph.gather %[[DATA]], %[[NUMBERS]] : (tensor<12x5xf32>, tensor<2xi64>) -> tensor<2x5xf32>
// batch_dims = 1 adds each tuple's batch offset (0, 4, 8).
// IR: glow.graph.constant dense<{{\[}}[0], [4], [8]]> : tensor<3x1xi64>
// IR: glow.graph.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} axis 0 : tensor<12x5xf32>, tensor<2x5xi64>, tensor<2x5xf32>
// IR: glow.graph.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} axis 0 reduction "add"
// The constant mask is data, not a scatter.
// IR-NOT: scatter_elements
// IR: %[[MASK:.*]] = glow.graph.constant dense<{{.*}}1.000000e+02{{.*}}> : tensor<3x4x5xf32>
// IR: glow.graph.add %arg0, %[[MASK]] : tensor<3x4x5xf32>
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t/nd.onnx --input-shape data=3x4x5 --input-shape pairs=2x2 --input-shape rows=3x2x1 --input-shape updates=2x5 --int-high 3 --bin %glow_bin | FileCheck %s
// CHECK: PASS
// Negative components count from the end; one outside its dimension (7 of 4) stops
// the run with the node's name.
// RUN: %python -c "import numpy as np; np.save('%t/data.npy', np.arange(60, dtype=np.float32).reshape(3, 4, 5)); np.save('%t/rows.npy', np.zeros((3, 2, 1), np.int64)); np.save('%t/updates.npy', np.ones((2, 5), np.float32)); np.save('%t/negative.npy', np.array([[-1, -4], [2, 3]])); np.save('%t/outside.npy', np.array([[0, 1], [2, 7]]))"
// RUN: glow-run %t/nd.onnx --input data=%t/data.npy --input pairs=%t/negative.npy --input rows=%t/rows.npy --input updates=%t/updates.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; print(np.load('%t/out/gathered.npy').tolist())" | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: {{\[}}[40.0, 41.0, 42.0, 43.0, 44.0], [55.0, 56.0, 57.0, 58.0, 59.0]]
// RUN: not glow-run %t/nd.onnx --input data=%t/data.npy --input pairs=%t/outside.npy --input rows=%t/rows.npy --input updates=%t/updates.npy 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: glow-run: error: the model refused its input: node 'gathered' (gather): an index is outside [-12, 11]
