"""Models for the glow-winograd tests.

convs.py onnx OUT.onnx: a model of 3x3 stride-1 convolutions with random weights
(float16-exact values) that glow-winograd takes: 12x26 -> 32 channels with ReLU
(even output; rows of 13 tiles: a group of 12 and one of 1), 9x25 -> 48 channels
without ReLU (odd output, three 16-channel blocks), and a 1x1 convolution in between
(left alone); writes OUT.onnx.x.npy too.
convs.py check OUT.onnx X.npy Y.npy: Y against a float64 direct convolution;
prints the normalized max error and ok / FAIL (bound 1e-6).
"""
import sys

import numpy as np


def weights(rng, shape):
    return rng.standard_normal(shape).astype(np.float16).astype(np.float32) * 0.25


def build(path):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(7)
    w1, b1 = weights(rng, (32, 16, 3, 3)), weights(rng, (32,))
    w2 = weights(rng, (16, 32, 1, 1))
    w3, b3 = weights(rng, (48, 16, 3, 3)), weights(rng, (48,))
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"]),
        helper.make_node("Slice", ["c2", "starts", "ends", "axes"], ["s2"]),
        helper.make_node("Conv", ["s2", "w3", "b3"], ["y"], pads=[0, 1, 0, 1]),
    ]
    initializers = [
        numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
        numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(w3, "w3"),
        numpy_helper.from_array(b3, "b3"),
        numpy_helper.from_array(np.array([1, 0], np.int64), "starts"),
        numpy_helper.from_array(np.array([12, 25], np.int64), "ends"),
        numpy_helper.from_array(np.array([2, 3], np.int64), "axes"),
    ]
    graph = helper.make_graph(
        nodes, "convs",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 16, 12, 26])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 48, 9, 25])],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model)
    onnx.save(model, path)
    np.save(path + ".x.npy", weights(rng, (2, 16, 12, 26)) * 4)


def conv(x, w, b, pads):
    top, left, bottom, right = pads
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, _, h, width = x.shape
    f = w.shape[0]
    kh, kw = w.shape[2:]
    y = np.zeros((n, f, h - kh + 1, width - kw + 1))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + y.shape[2], j:j + y.shape[3]]
            y += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return y + (0 if b is None else b[None, :, None, None])


def check(model_path, x_path, y_path):
    import onnx
    from onnx import numpy_helper

    model = onnx.load(model_path)
    t = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in model.graph.initializer}
    x = np.load(x_path).astype(np.float64)
    r1 = np.maximum(conv(x, t["w1"], t["b1"], (1, 1, 1, 1)), 0)
    s2 = conv(r1, t["w2"], None, (0, 0, 0, 0))[:, :, 1:12, 0:25]
    reference = conv(s2, t["w3"], t["b3"], (0, 1, 0, 1))
    y = np.load(y_path)
    error = float(np.abs(y - reference).max() / np.abs(reference).max())
    print(f"normalized max error {error:.2e}: {'ok' if error < 1e-6 else 'FAIL'}")


if __name__ == "__main__":
    if sys.argv[1] == "onnx":
        build(sys.argv[2])
    else:
        check(*sys.argv[2:5])
