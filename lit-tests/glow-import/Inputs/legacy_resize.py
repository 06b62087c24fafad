"""ONNX models with the resampling ops of opsets 7-10: Upsample with its scales as an
attribute (opset 7-8) or as input #1 (opset 9), and Resize-10 (scales as input #1),
nearest and linear, integer and fractional scales, growing and shrinking.

Usage: legacy_resize.py {upsample7,upsample9,resize10,mixed} OUTPUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def scales(name, values):
    return numpy_helper.from_array(np.array(values, np.float32), name)


def save(nodes, outputs, opset, path, initializers=()):
    graph = helper.make_graph(nodes, f"legacy_resize_{opset}",
                              [helper.make_tensor_value_info("x", F, [2, 3, 5, 7])],
                              [helper.make_tensor_value_info(n, F, None) for n in outputs],
                              list(initializers))
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7), path)


kind, path = sys.argv[1], sys.argv[2]
if kind == "upsample7":
    save([helper.make_node("Upsample", ["x"], ["nearest2x"], name="nearest2x", scales=[1.0, 1.0, 2.0, 2.0]),
          helper.make_node("Upsample", ["x"], ["nearest_frac"], name="nearest_frac", scales=[1.0, 1.0, 1.5, 2.5]),
          helper.make_node("Upsample", ["x"], ["linear"], name="linear", mode="linear", scales=[1.0, 1.0, 2.0, 1.75])],
         ["nearest2x", "nearest_frac", "linear"], 7, path)
elif kind == "upsample9":
    save([helper.make_node("Upsample", ["x", "s1"], ["nearest"], name="nearest"),
          helper.make_node("Upsample", ["x", "s2"], ["linear"], name="linear", mode="linear")],
         ["nearest", "linear"], 9, path, [scales("s1", [1, 1, 3, 2]), scales("s2", [1, 1, 2.5, 1.5])])
elif kind == "resize10":
    save([helper.make_node("Resize", ["x", "up"], ["nearest_up"], name="nearest_up"),
          helper.make_node("Resize", ["x", "down"], ["nearest_down"], name="nearest_down"),
          helper.make_node("Resize", ["x", "up"], ["linear_up"], name="linear_up", mode="linear"),
          helper.make_node("Resize", ["x", "down"], ["linear_down"], name="linear_down", mode="linear")],
         ["nearest_up", "nearest_down", "linear_up", "linear_down"], 10, path,
         [scales("up", [1, 1, 1.6, 2]), scales("down", [1, 1, 0.6, 0.45])])
elif kind == "mixed":
    save([helper.make_node("Resize", ["x", "s"], ["y"], name="mixed")], ["y"], 10, path,
         [scales("s", [1, 1, 0.5, 2])])
elif kind == "shrinking-upsample":
    save([helper.make_node("Upsample", ["x", "s"], ["y"], name="shrink")], ["y"], 9, path,
         [scales("s", [1, 1, 0.5, 1])])
else:
    raise SystemExit(f"unknown kind {kind}")
