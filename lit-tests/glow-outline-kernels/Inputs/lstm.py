"""Writes an ONNX model of one LSTM (input 32, hidden 64, STEPS steps, batch 1, random
weights) to the path given, for glow-outline-kernels' straight-line run tests."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

STEPS, INPUT, HIDDEN = 16, 32, 64
rng = np.random.default_rng(0)
weights = [
    numpy_helper.from_array(rng.standard_normal((1, 4 * HIDDEN, INPUT)).astype(np.float32) / 6, "W"),
    numpy_helper.from_array(rng.standard_normal((1, 4 * HIDDEN, HIDDEN)).astype(np.float32) / 8, "R"),
    numpy_helper.from_array(rng.standard_normal((1, 8 * HIDDEN)).astype(np.float32) / 4, "B"),
]
node = helper.make_node("LSTM", ["x", "W", "R", "B"], ["y", "h"], hidden_size=HIDDEN)
graph = helper.make_graph(
    [node], "lstm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [STEPS, 1, INPUT])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [STEPS, 1, 1, HIDDEN]),
     helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, 1, HIDDEN])], weights)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), sys.argv[1])
