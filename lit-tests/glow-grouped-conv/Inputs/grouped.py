"""Grouped convolutions as torch exports them (NCHW, OIHW filters with C/G input
channels), for glow-grouped-conv's tests: small groups merged four at a time, large
groups one at a time, stride, dilation, asymmetric padding, a runtime filter.

Usage: grouped.py OUTPUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(5)


def weight(name, *shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


nodes = [
    # 32 channels in 8 groups of 4 (ResNeXt's layer1 shape): merged 4 at a time.
    helper.make_node("Conv", ["x", "w1", "b1"], ["y1"], group=8, pads=[1, 1, 1, 1], name="small_groups"),
    helper.make_node("Relu", ["y1"], ["r1"], name="relu"),
    # 2 groups of 16 in, 24 out, stride 2, dilation 2, asymmetric padding.
    helper.make_node("Conv", ["r1", "w2"], ["y2"], group=2, strides=[2, 2], dilations=[2, 2],
                     pads=[2, 1, 1, 2], name="large_groups"),
    # A runtime filter keeps the NCHW grouped convolution.
    helper.make_node("Conv", ["x", "wr"], ["y3"], group=8, pads=[1, 1, 1, 1], name="runtime_filter"),
]
graph = helper.make_graph(
    nodes, "grouped",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 32, 12, 12]),
     helper.make_tensor_value_info("wr", TensorProto.FLOAT, [16, 4, 3, 3])],
    [helper.make_tensor_value_info("y2", TensorProto.FLOAT, None),
     helper.make_tensor_value_info("y3", TensorProto.FLOAT, None)],
    [weight("w1", 32, 4, 3, 3), weight("b1", 32), weight("w2", 48, 16, 3, 3)])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9), sys.argv[1])
