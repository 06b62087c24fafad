"""Softmax through glow-run against onnxruntime on rows of special values: NaN, +inf,
all -inf, all NaN, signed zeros, +-1e30. Usage: softmax_special.py GLOW_BIN_DIR WORKDIR"""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

glow_bin, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(0)
cases = [
    # Chains on one and two threads (at least 16 MB, rows of 1500 with a masked tail).
    ("chain", (6, 1024, 1024)),
    ("chain, rows of 1500", (3, 1500, 1500)),
    # A chain on one thread, op by op on two (below 16 MB).
    ("rows of 300", (4, 300, 300)),
    ("op by op", (12, 128, 128)),
    # Below the chains' 1 MB: long rows in pieces (and a masked tail) op by op.
    ("op by op, rows of 1500", (2, 50, 1500)),
    ("op by op, rows of 448", (2, 32, 448)),
]
for label, shape in cases:
    x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))
    y_info = helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))
    graph = helper.make_graph([helper.make_node("Softmax", ["x"], ["y"], axis=-1)], "g", [x_info], [y_info])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = os.path.join(work, "softmax.onnx")
    onnx.save(model, path)
    x = rng.standard_normal(shape, dtype=np.float32)
    x[0, 0, 5] = np.nan
    x[0, 1, :] = -np.inf
    x[0, 2, 7] = np.inf
    x[0, 3, :] = np.nan
    x[0, 4, 3] = -0.0
    x[0, 5, :] = 0.0
    x[0, 5, 9] = -0.0
    x[1, 0, 100] = 1e30
    x[1, 1, :] = -1e30
    np.save(os.path.join(work, "x.npy"), x)
    expected = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    for threads in (1, 2):
        out = os.path.join(work, "out")
        subprocess.run(
            [os.path.join(glow_bin, "glow-run"), path, "--input", "x=" + os.path.join(work, "x.npy"),
             "--threads", str(threads), "--output-dir", out],
            check=True, capture_output=True)
        got = np.load(os.path.join(out, "y.npy"))
        nan_same = (np.isnan(got) == np.isnan(expected)).all()
        close = np.isclose(got, expected, rtol=1e-5, atol=1e-7, equal_nan=True).all()
        verdict = "same as onnxruntime" if nan_same and close else "DIFFERENT"
        print(f"{label} {threads} thread{'s' if threads > 1 else ''}: {verdict}")
