"""Writes an ONNX model of LAYERS identical dense layers (MatMul, Add, Relu on 8 x 64,
each with its own random weights) to the path given, for glow-outline-kernels' tests."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

LAYERS = 3
rng = np.random.default_rng(0)
nodes, weights = [], []
value = "x"
for layer in range(LAYERS):
    w, b = f"w{layer}", f"b{layer}"
    weights += [numpy_helper.from_array(rng.standard_normal((64, 64)).astype(np.float32) / 8, w),
                numpy_helper.from_array(rng.standard_normal(64).astype(np.float32), b)]
    nodes += [helper.make_node("MatMul", [value, w], [f"m{layer}"]),
              helper.make_node("Add", [f"m{layer}", b], [f"a{layer}"]),
              helper.make_node("Relu", [f"a{layer}"], [f"y{layer}" if layer < LAYERS - 1 else "y"])]
    value = f"y{layer}"
graph = helper.make_graph(nodes, "repeated", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 64])], weights)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), sys.argv[1])
