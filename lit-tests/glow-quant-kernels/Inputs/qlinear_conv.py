"""Writes one ONNX QLinearConv layer with seeded int8 weights and int32 bias (the layer
shapes the AMX kernel tests cover): qlinear_conv.py OUT.onnx C F H W K STRIDE PAD u|s
(u: uint8 activations, s: int8)."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out, c, f, h, w, k, stride, pad, sign = sys.argv[1:]
c, f, h, w, k, stride, pad = (int(v) for v in (c, f, h, w, k, stride, pad))
signed = sign == "s"
rng = np.random.default_rng(c * 1000 + f + h + k)
storage = np.int8 if signed else np.uint8
element = TensorProto.INT8 if signed else TensorProto.UINT8
initializers = [
    numpy_helper.from_array(np.array(0.02, np.float32), "xs"),
    numpy_helper.from_array(np.array(3 if signed else 120, storage), "xz"),
    numpy_helper.from_array(rng.integers(-127, 128, (f, c, k, k)).astype(np.int8), "w"),
    numpy_helper.from_array((rng.random(f) * 0.01 + 0.001).astype(np.float32), "ws"),
    numpy_helper.from_array(np.zeros(f, np.int8), "wz"),
    numpy_helper.from_array(rng.integers(-5000, 5000, f).astype(np.int32), "b"),
    numpy_helper.from_array(np.array(0.5, np.float32), "ys"),
    numpy_helper.from_array(np.array(-5 if signed else 100, storage), "yz"),
]
node = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"],
                        pads=[pad] * 4, strides=[stride, stride], name="conv")
graph = helper.make_graph([node], "layer", [helper.make_tensor_value_info("x", element, [1, c, h, w])],
                          [helper.make_tensor_value_info("y", element, None)], initializers)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9), out)
