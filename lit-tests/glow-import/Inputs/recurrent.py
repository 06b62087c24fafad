"""ONNX models with the recurrent layers LSTM, GRU and RNN in the forms exporters and
hand-written graphs use them: bidirectional with biases and initial states, peepholes
and clip, batch-major layout, runtime sequence lengths, GRU's linear_before_reset and
activation lists with alpha / beta; and malformed ones.

Usage: recurrent.py KIND OUTPUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I32 = TensorProto.FLOAT, TensorProto.INT32
rng = np.random.default_rng(0)


def weights(name, shape):
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.4).astype(np.float32), name)


def save(nodes, inputs, outputs, initializers, path, opset=14):
    graph = helper.make_graph(nodes, "recurrent", inputs, outputs, initializers)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8), path)


def lstm(path, steps=6, **extra):
    """A bidirectional LSTM (batch 3, input 5, hidden 4) with biases, initial states,
    peepholes, clip and runtime sequence lengths; Y, Y_h and Y_c are outputs."""
    d, h, i, b = 2, 4, 5, 3
    init = [weights("W", [d, 4 * h, i]), weights("R", [d, 4 * h, h]), weights("B", [d, 8 * h]),
            weights("h0", [d, b, h]), weights("c0", [d, b, h]), weights("P", [d, 3 * h])]
    attributes = dict(hidden_size=h, direction="bidirectional", clip=2.5)
    attributes.update(extra)
    nodes = [helper.make_node("LSTM", ["x", "W", "R", "B", "lens", "h0", "c0", "P"], ["y", "y_h", "y_c"],
                              name="lstm", **attributes)]
    inputs = [helper.make_tensor_value_info("x", F, [steps, b, i]),
              helper.make_tensor_value_info("lens", I32, [b])]
    outputs = [helper.make_tensor_value_info(n, F, None) for n in ("y", "y_h", "y_c")]
    save(nodes, inputs, outputs, init, path)


def gru(path):
    """A reverse GRU with linear_before_reset, a bias and no initial state; then a
    forward RNN with a listed activation (ScaledTanh alpha / beta) on its Y.
    (onnxruntime refuses layout = 1, which the node suite's *_batchwise cases check.)"""
    h, i, b, t = 6, 5, 2, 7
    init = [weights("W", [1, 3 * h, i]), weights("R", [1, 3 * h, h]), weights("B", [1, 6 * h]),
            weights("Wr", [1, h, h]), weights("Rr", [1, h, h])]
    nodes = [helper.make_node("GRU", ["x", "W", "R", "B"], ["y", "y_h"], name="gru", hidden_size=h,
                              direction="reverse", linear_before_reset=1),
             helper.make_node("Reshape", ["y", "flat_shape"], ["y_flat"], name="flatten"),
             helper.make_node("RNN", ["y_flat", "Wr", "Rr"], ["z", ""], name="rnn", hidden_size=h,
                              activations=["ScaledTanh"], activation_alpha=[1.5],
                              activation_beta=[0.5])]
    init.append(numpy_helper.from_array(np.array([t, b, h], np.int64), "flat_shape"))
    inputs = [helper.make_tensor_value_info("x", F, [t, b, i])]
    outputs = [helper.make_tensor_value_info("y_h", F, None), helper.make_tensor_value_info("z", F, None)]
    save(nodes, inputs, outputs, init, path)


def bad(path, kind):
    h, i, b = 4, 5, 3
    w_rows = 4 * h if kind != "w-shape" else 3 * h
    init = [weights("W", [1, w_rows, i]), weights("R", [1, 4 * h, h])]
    attributes = dict(hidden_size=h)
    if kind == "input-forget":
        attributes["input_forget"] = 1
    if kind == "activation":
        attributes["activations"] = ["Sigmoid", "Gelu", "Tanh"]
    steps = 5000 if kind == "steps" else 4
    nodes = [helper.make_node("LSTM", ["x", "W", "R"], ["y"], name="lstm", **attributes)]
    save(nodes, [helper.make_tensor_value_info("x", F, [steps, b, i])],
         [helper.make_tensor_value_info("y", F, None)], init, path)


kind, out = sys.argv[1], sys.argv[2]
if kind == "lstm":
    lstm(out)
elif kind == "gru":
    gru(out)
else:
    bad(out, kind)
