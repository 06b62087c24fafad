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
  session    the ops onnxruntime's session optimizer writes into a model it saves:
             FusedConv with each activation (and a Z input), FusedMatMul (transA,
             transB, alpha, batched), MatMulIntegerToFloat, DynamicQuantizeMatMul;
             and the T5 / Llama fusions SimplifiedLayerNormalization (default
             domain), SkipSimplifiedLayerNormalization, QuickGelu
  batch-transpose  a FusedMatMul with transBatchA (refused)
  nbits      MatMulNBits (onnxruntime's weight-only quantized LLM matmul): 4 bits with
             packed zero points and a partial last block, 4 bits with a bias and no
             zero points, 4 bits with float zero points, 8 bits, on a 3-D input
  nbits-3    a MatMulNBits of 3 bits (refused)
  past       an Attention with a `past` input (refused)
  negative-sizes  an Attention whose qkv_hidden_sizes are negative (refused)
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


def session(batch_transpose=False):
    inits = [weight("cw", 16, 4, 3, 3), weight("cb", 16),
             numpy_helper.from_array(rng.integers(-100, 100, (16, 12)).astype(np.int8), "qw"),
             numpy_helper.from_array(np.array([3], np.int8), "qw_zp"),
             numpy_helper.from_array((0.01 + 0.01 * rng.random(12)).astype(np.float32), "qw_scale"),
             numpy_helper.from_array(np.array(0.02, np.float32), "a_scale"),
             numpy_helper.from_array(np.array(131, np.uint8), "a_zp"),
             weight("qb", 12), weight("mw", 16, 12), weight("rms", 12, scale=1.0),
             weight("skip_bias", 12)]
    activations = [("Relu", []), ("Tanh", []), ("Sigmoid", []), ("LeakyRelu", [0.2]),
                   ("HardSigmoid", [0.3, 0.4]), ("Clip", [-0.5, 0.7])]
    nodes, outputs = [], []
    for i, (kind, params) in enumerate(activations):
        inputs = ["image", "cw", "cb"] + (["z"] if i == 0 else [])
        attributes = dict(activation=kind, kernel_shape=[3, 3], pads=[1, 1, 1, 1])
        if params:
            attributes["activation_params"] = params
        nodes.append(helper.make_node("FusedConv", inputs, [f"conv_{kind}"], domain=MS,
                                      **attributes))
        outputs.append(helper.make_tensor_value_info(f"conv_{kind}", TensorProto.FLOAT,
                                                     [1, 16, 6, 6]))
    matmul = dict(transA=1, transB=1, alpha=0.5)
    if batch_transpose:
        matmul["transBatchA"] = 1
    nodes += [
        # x [2, 12, 16] and mw [16, 12], both transposed: 2 x (16 x 12) @ (12 x 16).
        helper.make_node("FusedMatMul", ["x", "mw"], ["fused"], domain=MS, **matmul),
        helper.make_node("DynamicQuantizeMatMul", ["rows", "qw", "qw_scale", "qw_zp", "qb"],
                         ["dynamic"], domain=MS),
        helper.make_node("MatMulIntegerToFloat",
                         ["rows_u8", "qw", "a_scale", "qw_scale", "a_zp", "qw_zp", "qb"],
                         ["integer"], domain=MS),
        helper.make_node("SimplifiedLayerNormalization", ["dynamic", "rms"], ["rms_out"],
                         epsilon=1e-6),
        helper.make_node("SkipSimplifiedLayerNormalization",
                         ["integer", "rms_out", "rms", "skip_bias"], ["skip_rms", "", "", "sum"],
                         domain=MS, epsilon=1e-6),
        helper.make_node("QuickGelu", ["skip_rms"], ["quick"], domain=MS, alpha=1.0),
    ]
    outputs += [helper.make_tensor_value_info("fused", TensorProto.FLOAT, [2, 16, 16]),
                helper.make_tensor_value_info("sum", TensorProto.FLOAT, [5, 12]),
                helper.make_tensor_value_info("quick", TensorProto.FLOAT, [5, 12])]
    inputs = [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 4, 6, 6]),
              helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 16, 6, 6]),
              helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 12, 16]),
              helper.make_tensor_value_info("rows", TensorProto.FLOAT, [5, 16]),
              helper.make_tensor_value_info("rows_u8", TensorProto.UINT8, [5, 16])]
    graph = helper.make_graph(nodes, "session", inputs, outputs, inits)
    return helper.make_model(graph, ir_version=8, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])


def nbits_node(name, k, n, bits, block, zero_points, bias):
    """A MatMulNBits of `x` [2, 3, k] by random quantized weights, and its inits."""
    blocks, per_byte = -(-k // block), 8 // bits
    q = rng.integers(0, 2 ** bits, (n, blocks, block))
    packed = np.zeros((n, blocks, block // per_byte), np.uint8)
    for i in range(per_byte):
        packed |= (q[:, :, i::per_byte] << (i * bits)).astype(np.uint8)
    inits = [numpy_helper.from_array(packed, f"{name}_q"),
             numpy_helper.from_array((0.01 + 0.05 * rng.random(n * blocks)).astype(np.float32),
                                     f"{name}_scales")]
    inputs = ["x", f"{name}_q", f"{name}_scales"]
    if zero_points == "packed":
        row = -(-blocks * bits // 8)
        zp = rng.integers(0, 2 ** bits, (n, row * per_byte))
        packed_zp = np.zeros((n, row), np.uint8)
        for i in range(per_byte):
            packed_zp |= (zp[:, i::per_byte] << (i * bits)).astype(np.uint8)
        inits.append(numpy_helper.from_array(packed_zp.reshape(-1), f"{name}_zp"))
    elif zero_points == "float":
        inits.append(numpy_helper.from_array(
            (2 ** (bits - 1) * rng.random(n * blocks)).astype(np.float32), f"{name}_zp"))
    inputs.append(f"{name}_zp" if zero_points else "")
    if bias:
        inits.append(weight(f"{name}_bias", n))
        inputs += ["", f"{name}_bias"]
    node = helper.make_node("MatMulNBits", inputs, [name], domain=MS, K=k, N=n, bits=bits,
                            block_size=block)
    return node, inits


def nbits():
    nodes, inits, outputs = [], [], []
    for name, n, bits, block, zero_points, bias in [("q4", 24, 4, 16, "packed", False),
                                                    ("q4_bias", 8, 4, 32, None, True),
                                                    ("q4_float_zp", 16, 4, 16, "float", False),
                                                    ("q8", 12, 8, 16, "packed", False)]:
        node, node_inits = nbits_node(name, 40, n, bits, block, zero_points, bias)
        nodes.append(node)
        inits += node_inits
        outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, [2, 3, n]))
    graph = helper.make_graph(nodes, "nbits",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 40])],
                              outputs, inits)
    return helper.make_model(graph, ir_version=8, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])


def nbits_3():
    model = nbits()
    for attribute in model.graph.node[0].attribute:
        if attribute.name == "bits":
            attribute.i = 3
    return model


def past():
    model = fused()
    attention = model.graph.node[1]
    attention.input.append("past")
    model.graph.input.append(
        helper.make_tensor_value_info("past", TensorProto.FLOAT, [2, B, 2, 0, 8]))
    return model


def negative_sizes():
    model = fused()
    attention = model.graph.node[-1]
    for attribute in attention.attribute:
        if attribute.name == "qkv_hidden_sizes":
            attribute.ints[:] = [-8, -8, 56]
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
    builders = {"fused": fused, "session": session, "batch-transpose": lambda: session(True),
                "past": past, "flat-embed": flat_embed, "negative-sizes": negative_sizes, "nbits": nbits, "nbits-3": nbits_3}
    save(builders[kind](), out)


if __name__ == "__main__":
    main()
