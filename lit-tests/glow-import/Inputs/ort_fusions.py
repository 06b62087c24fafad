"""Builds models with onnxruntime's transformer fusions for
lit-tests/glow-import/ort-fusions.mlir.

Usage: ort_fusions.py KIND OUT.onnx

KIND:
  fused      a two-block BERT-style encoder in the form onnxruntime's transformer
             optimizer writes: EmbedLayerNormalization (segments, a 0/1 mask) feeding
             Attention its mask index, SkipLayerNormalization with a bias, BiasGelu,
             FastGelu, Gelu, and a second Attention with a raw 2-D mask,
             `unidirectional`, a `scale` and unequal Q/K and V sizes
  dynamic    `fused` quantized by onnxruntime's quantize_dynamic: QAttention and
             QEmbedLayerNormalization with run-time activation scales
  past       an Attention with a `past` input (refused)
  flat-embed an EmbedLayerNormalization whose word embedding table is 1-D (refused)
"""
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

rng = np.random.default_rng(11)
MS = "com.microsoft"
B, S, H, FFN, VOCAB = 2, 8, 16, 32, 30


def weight(name, *shape, scale=0.3):
    return numpy_helper.from_array((scale * rng.standard_normal(shape)).astype(np.float32), name)


def fused():
    inits = [
        weight("word", VOCAB, H), weight("position", S, H), weight("segment", 4, H),
        weight("g0", H, scale=1.0), weight("b0", H),
        weight("qkv0", H, 3 * H), weight("qkv0_bias", 3 * H),
        weight("g1", H, scale=1.0), weight("b1", H), weight("skip_bias", H),
        weight("up", H, FFN), weight("up_bias", FFN), weight("down", FFN, H),
        weight("g2", H, scale=1.0), weight("b2", H), weight("fast_bias", H),
        # Q and K of 16 columns, V of 8: 2 heads of 8, values of 4.
        weight("qkv1", H, 40), weight("qkv1_bias", 40),
    ]
    nodes = [
        helper.make_node("EmbedLayerNormalization",
                         ["ids", "segments", "word", "position", "segment", "g0", "b0", "mask"],
                         ["embedded", "mask_index"], domain=MS, epsilon=1e-12),
        helper.make_node("Attention", ["embedded", "qkv0", "qkv0_bias", "mask_index"],
                         ["attended"], domain=MS, num_heads=2),
        helper.make_node("SkipLayerNormalization",
                         ["attended", "embedded", "g1", "b1", "skip_bias"],
                         ["normed", "", "", "residual"], domain=MS, epsilon=1e-12),
        helper.make_node("MatMul", ["normed", "up"], ["up_out"]),
        helper.make_node("BiasGelu", ["up_out", "up_bias"], ["activated"], domain=MS),
        helper.make_node("MatMul", ["activated", "down"], ["down_out"]),
        helper.make_node("SkipLayerNormalization", ["down_out", "normed", "g2", "b2"],
                         ["block"], domain=MS, epsilon=1e-12),
        helper.make_node("FastGelu", ["block", "fast_bias"], ["fast"], domain=MS),
        helper.make_node("Gelu", ["fast"], ["gelu"], domain=MS),
        helper.make_node("Attention", ["gelu", "qkv1", "qkv1_bias", "mask"], ["causal"],
                         domain=MS, num_heads=2, unidirectional=1, scale=0.25,
                         qkv_hidden_sizes=[16, 16, 8], mask_filter_value=-1000.0),
    ]
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT32, [B, S])
              for name in ("ids", "segments", "mask")]
    outputs = [helper.make_tensor_value_info("block", TensorProto.FLOAT, [B, S, H]),
               helper.make_tensor_value_info("causal", TensorProto.FLOAT, [B, S, 8]),
               helper.make_tensor_value_info("residual", TensorProto.FLOAT, [B, S, H]),
               helper.make_tensor_value_info("mask_index", TensorProto.INT32, [B])]
    graph = helper.make_graph(nodes, "fused", inputs, outputs, inits)
    return helper.make_model(graph, ir_version=8, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])


def dynamic(out):
    from onnxruntime.quantization import QuantType, quantize_dynamic
    with tempfile.NamedTemporaryFile(suffix=".onnx") as float_model:
        save(fused(), float_model.name)
        quantize_dynamic(float_model.name, out, weight_type=QuantType.QInt8,
                         extra_options={"DefaultTensorType": TensorProto.FLOAT})


def past():
    model = fused()
    attention = model.graph.node[1]
    attention.input.append("past")
    model.graph.input.append(
        helper.make_tensor_value_info("past", TensorProto.FLOAT, [2, B, 2, 0, 8]))
    return model


def flat_embed():
    model = fused()
    word = next(t for t in model.graph.initializer if t.name == "word")
    word.dims[:] = [VOCAB * H]
    return model


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "dynamic":
        dynamic(out)
        return
    save({"fused": fused, "past": past, "flat-embed": flat_embed}[kind](), out)


if __name__ == "__main__":
    main()
