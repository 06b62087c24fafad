"""ONNX models with the loss ops: SoftmaxCrossEntropyLoss (class weights,
ignore_index, mean, with the log-probabilities as a second output) and
NegativeLogLikelihoodLoss (no reduction, sum) on the same scores and targets; and a
malformed one.

Usage: losses.py KIND OUTPUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def save(nodes, inputs, outputs, initializers, path):
    graph = helper.make_graph(nodes, "losses", inputs, outputs, initializers)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8), path)


def losses(path):
    weight = numpy_helper.from_array(np.array([0.5, 1.0, 2.0, 1.5, 0.25], np.float32), "weight")
    nodes = [
        helper.make_node("SoftmaxCrossEntropyLoss", ["x", "target", "weight"], ["sce", "log_prob"],
                         name="sce", reduction="mean", ignore_index=2),
        helper.make_node("NegativeLogLikelihoodLoss", ["log_prob", "target"], ["nll"], name="nll",
                         reduction="none"),
        helper.make_node("NegativeLogLikelihoodLoss", ["x", "target", "weight"], ["nll_sum"],
                         name="nll_sum", reduction="sum", ignore_index=4),
    ]
    inputs = [helper.make_tensor_value_info("x", F, [3, 5, 4]),
              helper.make_tensor_value_info("target", I64, [3, 4])]
    outputs = [helper.make_tensor_value_info(name, F, None) for name in ("sce", "log_prob", "nll", "nll_sum")]
    save(nodes, inputs, outputs, [weight], path)


def bad(path):
    nodes = [helper.make_node("NegativeLogLikelihoodLoss", ["x", "target"], ["y"], name="nll")]
    inputs = [helper.make_tensor_value_info("x", F, [3, 5, 4]),
              helper.make_tensor_value_info("target", I64, [3, 5])]
    save(nodes, inputs, [helper.make_tensor_value_info("y", F, None)], [], path)


kind, out = sys.argv[1], sys.argv[2]
losses(out) if kind == "losses" else bad(out)
