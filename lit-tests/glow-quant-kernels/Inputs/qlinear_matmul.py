"""Writes one ONNX QLinearMatMul (uint8 M x K activations, constant int8 K x N weights):
qlinear_matmul.py OUT.onnx M K N."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out, m, k, n = sys.argv[1], *(int(v) for v in sys.argv[2:])
rng = np.random.default_rng(m * k + n)
initializers = [
    numpy_helper.from_array(np.array(0.02, np.float32), "xs"),
    numpy_helper.from_array(np.array(120, np.uint8), "xz"),
    numpy_helper.from_array(rng.integers(-127, 128, (k, n)).astype(np.int8), "w"),
    numpy_helper.from_array(np.array(0.01, np.float32), "ws"),
    numpy_helper.from_array(np.array(0, np.int8), "wz"),
    numpy_helper.from_array(np.array(0.7, np.float32), "ys"),
    numpy_helper.from_array(np.array(100, np.uint8), "yz"),
]
node = helper.make_node("QLinearMatMul", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], name="fc")
graph = helper.make_graph([node], "layer", [helper.make_tensor_value_info("x", TensorProto.UINT8, [m, k])],
                          [helper.make_tensor_value_info("y", TensorProto.UINT8, None)], initializers)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9), out)
