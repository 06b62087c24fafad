"""Writes an ONNX model of a 1x1 convolution to 24 channels followed by two inverted
residual blocks (1x1 expansion to 72, ReLU, 3x3 depthwise, ReLU, 1x1 projection back to
24, residual add; MNASNet's 56 x 56 stage), random weights, to the path given: every
24-channel result is computed widened to 32 and sliced back, and the residual adds read
two such slices, for glow-stack's widened-slice tests."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SIZE, INPUT, WIDTH, EXPANDED = 28, 16, 24, 72
rng = np.random.default_rng(0)
weights, nodes = [], []


def conv(source, name, filters, channels, kernel=1, group=1):
    weight = rng.standard_normal((filters, channels // group, kernel, kernel)) / np.sqrt(
        channels // group * kernel * kernel)
    weights.append(numpy_helper.from_array(weight.astype(np.float32), f"{name}.w"))
    weights.append(numpy_helper.from_array(
        rng.uniform(-0.1, 0.1, filters).astype(np.float32), f"{name}.b"))
    nodes.append(helper.make_node("Conv", [source, f"{name}.w", f"{name}.b"], [name],
                                  group=group, pads=[kernel // 2] * 4))
    return name


def relu(source):
    nodes.append(helper.make_node("Relu", [source], [f"{source}.relu"]))
    return f"{source}.relu"


x = conv("x", "stem", WIDTH, INPUT)
for block in range(2):
    expanded = relu(conv(x, f"b{block}.expand", EXPANDED, WIDTH))
    spatial = relu(conv(expanded, f"b{block}.dw", EXPANDED, EXPANDED, kernel=3, group=EXPANDED))
    projected = conv(spatial, f"b{block}.project", WIDTH, EXPANDED)
    nodes.append(helper.make_node("Add", [projected, x], [f"b{block}.sum"]))
    x = f"b{block}.sum"
nodes.append(helper.make_node("Identity", [x], ["y"]))
graph = helper.make_graph(
    nodes, "residual_24",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, INPUT, SIZE, SIZE])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, WIDTH, SIZE, SIZE])], weights)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8),
          sys.argv[1])
