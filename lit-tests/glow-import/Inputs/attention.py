"""ONNX models with the Attention op (opset 23), in the forms a transformer exporter
writes it: 3-D inputs split into heads with grouped-query attention, a causal mask
after past keys / values and a boolean padding mask shorter than the keys; 4-D inputs
with a float mask, softcap and the softmax probabilities as a second output; and
malformed ones.

Usage: attention.py KIND OUTPUT.onnx
"""
import sys

import onnx
from onnx import TensorProto, helper

F, B = TensorProto.FLOAT, TensorProto.BOOL


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def save(nodes, inputs, outputs, path):
    graph = helper.make_graph(nodes, "attention", inputs, outputs)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)], ir_version=10), path)


def decoder(path):
    """Batch 2, 4 query heads over 2 key / value heads (head size 8), 3 new tokens after
    5 cached ones, causal, and a boolean padding mask over the 8 keys (onnxruntime
    refuses a mask shorter than the keys, which ONNX pads; the node suite's padded_kv
    cases check that against the reference)."""
    node = helper.make_node("Attention", ["q", "k", "v", "mask", "past_k", "past_v"],
                            ["y", "present_k", "present_v"], name="attention",
                            q_num_heads=4, kv_num_heads=2, is_causal=1)
    inputs = [value("q", F, [2, 3, 32]), value("k", F, [2, 3, 16]), value("v", F, [2, 3, 16]),
              value("mask", B, [2, 1, 3, 8]), value("past_k", F, [2, 2, 5, 8]),
              value("past_v", F, [2, 2, 5, 8])]
    outputs = [value("y", F, None), value("present_k", F, None), value("present_v", F, None)]
    save([node], inputs, outputs, path)


def scores(path):
    """4-D inputs, a float mask broadcast over the heads, an explicit scale, and the
    probabilities (qk_matmul_output_mode 3) as a second output. (No softcap here:
    onnxruntime 1.23 applies it after the mask, ONNX's reference and glow before; the
    node suite's softcap cases check glow against the reference.)"""
    node = helper.make_node("Attention", ["q", "k", "v", "mask"], ["y", "", "", "p"], name="attention",
                            scale=0.25, qk_matmul_output_mode=3)
    inputs = [value("q", F, [1, 2, 4, 8]), value("k", F, [1, 2, 6, 8]), value("v", F, [1, 2, 6, 5]),
              value("mask", F, [4, 6])]
    save([node], inputs, [value("y", F, None), value("p", F, None)], path)


def bad(path, kind):
    attributes = {} if kind == "no-heads" else dict(q_num_heads=3, kv_num_heads=2)
    node = helper.make_node("Attention", ["q", "k", "v"], ["y"], name="attention", **attributes)
    inputs = [value("q", F, [1, 4, 24]), value("k", F, [1, 4, 16]), value("v", F, [1, 4, 16])]
    save([node], inputs, [value("y", F, None)], path)


kind, out = sys.argv[1], sys.argv[2]
if kind == "decoder":
    decoder(out)
elif kind == "scores":
    scores(out)
else:
    bad(out, kind)
