// Ops that index by data never read or write outside their buffers, and an index
// outside [-extent, extent) is an error, as ONNX says: the compiled code clamps it and
// records the failed check; glow-run reports the node's message, exits 1 and writes
// no output. In range, negative indices count from the end.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/ok.npy', np.array([[0, 3], [-1, -4]], np.int64)); np.save('%t/high.npy', np.array([[0, 4], [1, 2]], np.int64)); np.save('%t/low.npy', np.array([[0, 1], [-5, 2]], np.int64)); np.save('%t/huge.npy', np.array([[0, 1], [2, 1 << 40]], np.int64)); np.save('%t/three.npy', np.array([[0, 2], [-1, -3]], np.int64))"
// RUN: glow-run %s --function gather --input ids=%t/ok.npy --output-dir %t/ok | FileCheck %s --check-prefix=OK
// OK: output0 2x2x2
// RUN: %python -c "import numpy as np; print(np.load('%t/ok/output0.npy').tolist())" | FileCheck %s --check-prefix=OK-VALUES
// OK-VALUES: {{\[\[\[}}0.0, 1.0], [6.0, 7.0]], {{\[\[}}6.0, 7.0], [0.0, 1.0]]]

// RUN: not glow-run %s --function gather --input ids=%t/high.npy --output-dir %t/g1 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not glow-run %s --function gather --input ids=%t/low.npy --output-dir %t/g2 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not glow-run %s --function gather --input ids=%t/huge.npy --output-dir %t/g3 2>&1 | FileCheck %s --check-prefix=GATHER
// GATHER: glow-run: error: the model refused its input: node 'embed' (gather): an index is outside [-4, 3]
// RUN: not ls %t/g1 %t/g2 %t/g3

// RUN: not glow-run %s --function gather_elements --input ids=%t/high.npy 2>&1 | FileCheck %s --check-prefix=ELEMENTS
// ELEMENTS: glow-run: error: the model refused its input: node 'pick' (gather_elements): an index is outside [-3, 2]
// RUN: not glow-run %s --function scatter --input ids=%t/huge.npy 2>&1 | FileCheck %s --check-prefix=SCATTER
// SCATTER: glow-run: error: the model refused its input: node 'put' (scatter_elements): an index is outside [-3, 2]
// RUN: glow-run %s --function scatter --input ids=%t/three.npy --output-dir %t/s 2>&1 | FileCheck %s --check-prefix=SCATTER-OK
// SCATTER-OK: output0 2x3
// RUN: %python -c "import numpy as np; print(np.load('%t/s/output0.npy').tolist())" | FileCheck %s --check-prefix=SCATTER-VALUES
// SCATTER-VALUES: {{\[\[}}1.0, 0.0, 2.0], [4.0, 0.0, 3.0]]

func.func @gather(%ids: tensor<2x2xi64> {glow.name = "ids"}) -> tensor<2x2x2xf32> {
  %table = glow.graph.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]> : tensor<4x2xf32>
  %y = glow.graph.gather %table, %ids axis 0 : (tensor<4x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32> loc("embed")
  return %y : tensor<2x2x2xf32>
}

func.func @gather_elements(%ids: tensor<2x2xi64> {glow.name = "ids"}) -> tensor<2x2xf32> {
  %x = glow.graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = glow.graph.gather_elements %x, %ids axis 1 : tensor<2x3xf32>, tensor<2x2xi64> -> tensor<2x2xf32> loc("pick")
  return %y : tensor<2x2xf32>
}

func.func @scatter(%ids: tensor<2x2xi64> {glow.name = "ids"}) -> tensor<2x3xf32> {
  %x = glow.graph.constant dense<0.0> : tensor<2x3xf32>
  %u = glow.graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %y = glow.graph.scatter_elements %x, %ids, %u axis 1 : tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32> loc("put")
  return %y : tensor<2x3xf32>
}
