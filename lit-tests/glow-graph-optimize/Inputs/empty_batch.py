"""A small CNN with a dynamic batch (strided convolution, max pool, global pool,
Gemm), for runs with a batch of 0: empty_batch.py OUT.onnx"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

rng = np.random.default_rng(0)


def weight(name, shape):
    return helper.make_tensor(name, TensorProto.FLOAT, shape, rng.standard_normal(shape).astype(np.float32).ravel())


nodes = [
    helper.make_node("Conv", ["x", "w", "b"], ["c"], strides=[2, 2], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[3, 3], strides=[2, 2]),
    helper.make_node("GlobalAveragePool", ["p"], ["g"]),
    helper.make_node("Flatten", ["g"], ["f"]),
    helper.make_node("Gemm", ["f", "fc", "fb"], ["y"], transB=1),
]
graph = helper.make_graph(
    nodes, "empty_batch",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 16, 16])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 10])],
    [weight("w", [8, 3, 3, 3]), weight("b", [8]), weight("fc", [10, 8]), weight("fb", [10])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), sys.argv[1])
