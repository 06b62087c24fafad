"""An ONNX model with RotaryEmbedding (opset 23) as a Llama-style export writes it:
3-D hidden states split into heads, cos / sin caches gathered at position ids; the
rotation over part of each head (rotary_embedding_dim), halves and interleaved pairs;
and a malformed one.

Usage: rotary.py KIND OUTPUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def caches(positions, half):
    angles = np.arange(positions)[:, None] / (10000 ** (np.arange(half)[None, :] / half))
    return (numpy_helper.from_array(np.cos(angles).astype(np.float32), "cos"),
            numpy_helper.from_array(np.sin(angles).astype(np.float32), "sin"))


def rotary(path, bad=False):
    cos, sin = caches(16, 4)
    nodes = [helper.make_node("RotaryEmbedding", ["x", "cos", "sin", "positions"], ["halves"], name="halves",
                              num_heads=2, rotary_embedding_dim=8),
             helper.make_node("RotaryEmbedding", ["x", "cos", "sin", "positions"], ["pairs"], name="pairs",
                              num_heads=5 if bad else 2, rotary_embedding_dim=8, interleaved=1)]
    inputs = [helper.make_tensor_value_info("x", F, [2, 5, 24]),
              helper.make_tensor_value_info("positions", I64, [2, 5])]
    outputs = [helper.make_tensor_value_info(n, F, None) for n in ("halves", "pairs")]
    graph = helper.make_graph(nodes, "rotary", inputs, outputs, [cos, sin])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)], ir_version=10), path)


rotary(sys.argv[2], bad=sys.argv[1] == "bad")
