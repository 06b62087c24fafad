"""CumProd (opset 26; onnxruntime 1.23 does not run it): a model with the four
exclusive / reverse forms on a float input and one on int32, an input, and a check
of glow-run's outputs against numpy's cumprod.

Usage: cumprod.py model OUTPUT.onnx INPUT_DIR   (writes x.npy and i.npy there)
       cumprod.py check INPUT_DIR OUTPUT_DIR
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FORMS = [(0, 0), (1, 0), (0, 1), (1, 1)]


def reference(x, exclusive, reverse, axis=1):
    if reverse:
        x = np.flip(x, axis)
    y = np.cumprod(x, axis=axis, dtype=x.dtype)
    if exclusive:
        y = np.concatenate([np.ones_like(np.take(y, [0], axis)), np.delete(y, -1, axis)], axis)
    return np.flip(y, axis) if reverse else y


def model(path, folder):
    axis = numpy_helper.from_array(np.array(1, np.int64), "axis")
    nodes = [helper.make_node("CumProd", ["x", "axis"], [f"y{e}{r}"], name=f"y{e}{r}", exclusive=e, reverse=r)
             for e, r in FORMS]
    nodes.append(helper.make_node("CumProd", ["i", "axis"], ["j"], name="j"))
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 6]),
              helper.make_tensor_value_info("i", TensorProto.INT32, [2, 5])]
    outputs = [helper.make_tensor_value_info(n.output[0], 0, None) for n in nodes]
    graph = helper.make_graph(nodes, "cumprod", inputs, outputs, [axis])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 26)], ir_version=11), path)
    rng = np.random.default_rng(0)
    np.save(f"{folder}/x.npy", rng.uniform(0.5, 1.5, (3, 6)).astype(np.float32))
    np.save(f"{folder}/i.npy", rng.integers(-3, 4, (2, 5)).astype(np.int32))


def check(inputs, outputs):
    x, i = np.load(f"{inputs}/x.npy"), np.load(f"{inputs}/i.npy")
    for e, r in FORMS:
        got = np.load(f"{outputs}/y{e}{r}.npy")
        np.testing.assert_allclose(got, reference(x, e, r), rtol=1e-6)
    np.testing.assert_array_equal(np.load(f"{outputs}/j.npy"), reference(i, 0, 0))
    print("cumprod: 5 outputs equal numpy's")


if sys.argv[1] == "model":
    model(sys.argv[2], sys.argv[3])
else:
    check(sys.argv[2], sys.argv[3])
