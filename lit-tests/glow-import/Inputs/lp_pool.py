"""An ONNX model with LpPool: p = 2 with pads, p = 1 with strides, p = 3 with a
dilated window (as torch.nn.LPPool2d and hand-written graphs use it).

Usage: lp_pool.py OUTPUT.onnx
"""
import sys

import onnx
from onnx import TensorProto, helper

F = TensorProto.FLOAT
nodes = [helper.make_node("LpPool", ["x"], ["p2"], name="p2", kernel_shape=[3, 3], pads=[1, 1, 1, 1], p=2),
         helper.make_node("LpPool", ["x"], ["p1"], name="p1", kernel_shape=[2, 2], strides=[2, 2], p=1),
         helper.make_node("LpPool", ["x"], ["p3"], name="p3", kernel_shape=[2, 2], dilations=[2, 2], p=3)]
graph = helper.make_graph(nodes, "lp_pool", [helper.make_tensor_value_info("x", F, [2, 3, 8, 7])],
                          [helper.make_tensor_value_info(n, F, None) for n in ("p2", "p1", "p3")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8), sys.argv[1])
