"""Builds the small ONNX models the glow-import lit tests import (deterministic
weights, onnx's helper API).

Usage: models.py KIND OUTPUT.onnx
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def weight(name, *shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "test", inputs, outputs, list(initializers))
    # IR version 9 so onnxruntime 1.23 can run the same files.
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=9)


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def cnn():
    """Conv/BN/ReLU/MaxPool, a Shape->Gather->Unsqueeze->Concat->Reshape chain, Gemm."""
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("BatchNormalization", ["c", "s", "bb", "m", "v"], ["n"], name="bn1", epsilon=1e-3),
        helper.make_node("Relu", ["n"], ["r"], name="relu1"),
        helper.make_node("MaxPool", ["r"], ["p"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Shape", ["p"], ["shape"], name="shape"),
        helper.make_node("Gather", ["shape", "zero"], ["batch"], name="batch", axis=0),
        helper.make_node("Unsqueeze", ["batch", "axes0"], ["batch1"], name="unsqueeze"),
        helper.make_node("Concat", ["batch1", "minus1"], ["target"], name="target", axis=0),
        helper.make_node("Reshape", ["p", "target"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc", "fcb"], ["y"], name="fc", transB=1),
        helper.make_node("Softmax", ["y"], ["prob"], name="softmax"),
    ]
    init = [weight("w", 8, 3, 3, 3), weight("b", 8), weight("s", 8), weight("bb", 8), weight("m", 8),
            numpy_helper.from_array(np.abs(rng.standard_normal(8)).astype(np.float32) + 0.5, "v"),
            weight("fc", 10, 128), weight("fcb", 10),
            ints("zero", 0), ints("axes0", [0]), ints("minus1", [-1])]
    return model(nodes, [value("x", TensorProto.FLOAT, ["N", 3, 16, 16])],
                 [value("prob", TensorProto.FLOAT, ["N", 10])], init)


def encoder(fill=-1e4):
    """A transformer-encoder slice: embedding Gather, 3-D MatMul, LayerNormalization,
    exact Gelu via Erf, attention-mask Where (masked scores set to `fill`), Softmax
    over the last axis."""
    hidden, seq, vocab = 16, 8, 50
    nodes = [
        helper.make_node("Gather", ["table", "ids"], ["emb"], name="embed", axis=0),
        helper.make_node("LayerNormalization", ["emb", "g", "beta"], ["ln"], name="ln", axis=-1, epsilon=1e-12),
        helper.make_node("MatMul", ["ln", "wq"], ["q"], name="query"),
        helper.make_node("Transpose", ["q"], ["kt"], name="keys_t", perm=[0, 2, 1]),
        helper.make_node("MatMul", ["q", "kt"], ["scores"], name="scores"),
        helper.make_node("Cast", ["mask"], ["mask_b"], name="mask_bool", to=TensorProto.BOOL),
        helper.make_node("Unsqueeze", ["mask_b", "axes1"], ["mask_3"], name="mask_3d"),
        helper.make_node("Where", ["mask_3", "scores", "neg"], ["masked"], name="mask"),
        helper.make_node("Softmax", ["masked"], ["attn"], name="attn", axis=-1),
        helper.make_node("MatMul", ["attn", "q"], ["ctx"], name="context"),
        helper.make_node("Div", ["ctx", "sqrt2"], ["half"], name="gelu_div"),
        helper.make_node("Erf", ["half"], ["erf"], name="gelu_erf"),
        helper.make_node("Add", ["erf", "one"], ["erf1"], name="gelu_add"),
        helper.make_node("Mul", ["ctx", "erf1"], ["gx"], name="gelu_mul"),
        helper.make_node("Mul", ["gx", "halfc"], ["out"], name="gelu_half"),
    ]
    init = [weight("table", vocab, hidden), weight("g", hidden), weight("beta", hidden),
            weight("wq", hidden, hidden), ints("axes1", [1]),
            numpy_helper.from_array(np.array(fill, dtype=np.float32), "neg"),
            numpy_helper.from_array(np.array(np.sqrt(2), dtype=np.float32), "sqrt2"),
            numpy_helper.from_array(np.array(1, dtype=np.float32), "one"),
            numpy_helper.from_array(np.array(0.5, dtype=np.float32), "halfc")]
    return model(nodes, [value("ids", TensorProto.INT64, ["batch", "seq"]),
                         value("mask", TensorProto.INT64, ["batch", "seq"])],
                 [value("out", TensorProto.FLOAT, ["batch", "seq", hidden])], init)


def small_cnn():
    """Conv + ReLU, a depthwise conv, a residual Add, MaxPool, GlobalAveragePool, Gemm:
    the layer kinds of ResNet / MobileNet, for quantization tests."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="depthwise", pads=[1, 1, 1, 1], group=16),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], name="pointwise"),
        helper.make_node("Add", ["c3", "r1"], ["s"], name="residual"),
        helper.make_node("Relu", ["s"], ["r3"], name="relu3"),
        helper.make_node("MaxPool", ["r3"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["p"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc", "fcb"], ["y"], name="fc", transB=1),
    ]
    init = [weight("w1", 16, 3, 3, 3), weight("b1", 16), weight("w2", 16, 1, 3, 3), weight("b2", 16),
            weight("w3", 16, 16, 1, 1), weight("b3", 16), weight("fc", 10, 16), weight("fcb", 10)]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                 [value("y", TensorProto.FLOAT, [1, 10])], init)


def grouped_cnn():
    """Conv + ReLU, a grouped conv (4 groups of 8 channels, as RegNet / ResNeXt), ReLU,
    GlobalAveragePool, Gemm: grouped int8 convolutions."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="grouped", pads=[1, 1, 1, 1],
                         strides=[2, 2], group=4),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc", "fcb"], ["y"], name="fc", transB=1),
    ]
    init = [weight("w1", 32, 3, 3, 3), weight("b1", 32), weight("w2", 24, 8, 3, 3), weight("b2", 24),
            weight("fc", 10, 24), weight("fcb", 10)]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                 [value("y", TensorProto.FLOAT, [1, 10])], init)


def wide_cnn():
    """Conv 3 -> 72 (3x3, pads), ReLU, a depthwise 72-channel 3x3 (16 does not divide
    72, as in MobileNetV3), Conv 72 -> 40 (3x3, stride 2), ReLU, Conv 40 -> 64 (1x1),
    GlobalAveragePool, Gemm: channel counts of 64 and more (the kernels' 64-byte steps
    and their tails), for the uint8-weight kernels' input window sums."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "wd", "bd"], ["d1"], name="depthwise", pads=[1, 1, 1, 1],
                         group=72),
        helper.make_node("Conv", ["d1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1],
                         strides=[2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], name="conv3"),
        helper.make_node("GlobalAveragePool", ["c3"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc", "fcb"], ["y"], name="fc", transB=1),
    ]
    init = [weight("w1", 72, 3, 3, 3), weight("b1", 72), weight("wd", 72, 1, 3, 3),
            weight("bd", 72), weight("w2", 40, 72, 3, 3),
            weight("b2", 40), weight("w3", 64, 40, 1, 1), weight("b3", 64),
            weight("fc", 10, 64), weight("fcb", 10)]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                 [value("y", TensorProto.FLOAT, [1, 10])], init)


def silu_cnn():
    """Conv 3 -> 8 (3x3) on 1 x 3 x 10 x 10, SiLU (Sigmoid, Mul), GlobalAveragePool: an
    int8 lookup table over 800 elements (64 does not divide them)."""
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Sigmoid", ["c"], ["s"], name="sigmoid"),
        helper.make_node("Mul", ["c", "s"], ["silu"], name="silu"),
        helper.make_node("GlobalAveragePool", ["silu"], ["y"], name="gap"),
    ]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 3, 10, 10])],
                 [value("y", TensorProto.FLOAT, [1, 8, 1, 1])],
                 [weight("w", 8, 3, 3, 3), weight("b", 8)])


def atrous_convs():
    """DeepLabV3's ASPP on a 1 x 8 x 6 x 6 map: 3x3 convs 8 -> 4 with dilation and
    padding 2 (every tap live), 4 (the outer taps read rows 0-1 and 4-5) and 8 (only
    the centre tap reads the map), a stride-2 one with dilation 6 on the height only,
    their outputs concatenated, and a bilinear upsampling to 24 x 24."""
    nodes = []
    outputs = []
    for k, (dilations, pads, strides) in enumerate([([2, 2], [2] * 4, [1, 1]), ([4, 4], [4] * 4, [1, 1]),
                                                   ([8, 8], [8] * 4, [1, 1]),
                                                   ([6, 1], [6, 1, 6, 1], [2, 1])]):
        nodes.append(helper.make_node("Conv", ["x", f"w{k}", f"b{k}"], [f"c{k}"], name=f"aspp{k}",
                                      dilations=dilations, pads=pads, strides=strides))
        outputs.append(f"c{k}")
    nodes.append(helper.make_node("Concat", outputs[:3], ["cat"], axis=1, name="cat"))
    nodes.append(helper.make_node("Resize", ["cat", "", "scales"], ["y"], name="up", mode="linear"))
    scales = numpy_helper.from_array(np.array([1, 1, 4, 4], dtype=np.float32), "scales")
    weights = [w for k in range(4) for w in (weight(f"w{k}", 4, 8, 3, 3), weight(f"b{k}", 4))]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 8, 6, 6])],
                 [value("y", TensorProto.FLOAT, [1, 12, 24, 24]),
                  value("c3", TensorProto.FLOAT, [1, 4, 3, 6])], weights + [scales])


def dense_concats():
    """DenseNet's pattern on 1 x 8 x 6 x 6: two convs (8 -> 4, 8 -> 12), then every
    feature so far concatenated twice ([x, a] and [x, a, b]): five copies of three
    shapes into slices of two results."""
    nodes = [
        helper.make_node("Conv", ["x", "wa", "ba"], ["a"], name="conv_a", pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["x", "wb", "bb"], ["b"], name="conv_b"),
        helper.make_node("Concat", ["x", "a"], ["first"], axis=1, name="concat_first"),
        helper.make_node("Concat", ["x", "a", "b"], ["second"], axis=1, name="concat_second"),
    ]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 8, 6, 6])],
                 [value("first", TensorProto.FLOAT, [1, 12, 6, 6]),
                  value("second", TensorProto.FLOAT, [1, 24, 6, 6])],
                 [weight("wa", 4, 8, 3, 3), weight("ba", 4), weight("wb", 12, 8, 1, 1), weight("bb", 12)])


def odd_rows():
    """MobileNetV2's inverted residual on rows of 19 (a 300 x 300 input's 19 x 19
    stage): a 1x1 expansion 8 -> 48 with ReLU6, a 3x3 depthwise (pads 1) with ReLU6, a
    1x1 projection 48 -> 8, and a 3x3 stride-2 conv 8 -> 24 (pads 1): every row is
    computed wider (no tile width divides 19) and the depthwise and stride-2 convs read
    the widened results through their padding."""
    def clip(source, name):
        return helper.make_node("Clip", [source, "lo", "hi"], [name], name=name)
    nodes = [
        helper.make_node("Conv", ["x", "we", "be"], ["e"], name="expand"), clip("e", "e6"),
        helper.make_node("Conv", ["e6", "wd", "bd"], ["d"], name="depthwise", group=48,
                         pads=[1, 1, 1, 1]), clip("d", "d6"),
        helper.make_node("Conv", ["d6", "wp", "bp"], ["p"], name="project"),
        helper.make_node("Conv", ["p", "ws", "bs"], ["y"], name="stride2", strides=[2, 2],
                         pads=[1, 1, 1, 1]),
    ]
    limits = [numpy_helper.from_array(np.array(0, np.float32), "lo"),
              numpy_helper.from_array(np.array(6, np.float32), "hi")]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 8, 19, 19])],
                 [value("y", TensorProto.FLOAT, [1, 24, 10, 10])],
                 [weight("we", 48, 8, 1, 1), weight("be", 48), weight("wd", 48, 1, 3, 3),
                  weight("bd", 48), weight("wp", 8, 48, 1, 1), weight("bp", 8),
                  weight("ws", 24, 8, 3, 3), weight("bs", 24)] + limits)


def gelu_mlp():
    """MatMul, GELU as torch.onnx exports it (x * (1 + erf(x / sqrt 2)) * 0.5), MatMul:
    the chain onnxruntime's QDQ quantization leaves between quantizes."""
    def scalar(name, v):
        return numpy_helper.from_array(np.array(v, dtype=np.float32), name)
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
        helper.make_node("Div", ["h", "sqrt2"], ["hs"], name="div"),
        helper.make_node("Erf", ["hs"], ["e"], name="erf"),
        helper.make_node("Add", ["e", "one"], ["e1"], name="add"),
        helper.make_node("Mul", ["h", "e1"], ["g"], name="mul"),
        helper.make_node("Mul", ["g", "half"], ["gelu"], name="mul_half"),
        helper.make_node("MatMul", ["gelu", "w2"], ["y"], name="fc2"),
    ]
    init = [weight("w1", 32, 64), weight("w2", 64, 16), scalar("sqrt2", np.sqrt(2.0)),
            scalar("one", 1.0), scalar("half", 0.5)]
    return model(nodes, [value("x", TensorProto.FLOAT, [2, 16, 32])],
                 [value("y", TensorProto.FLOAT, [2, 16, 16])], init)


def quantized_with_onnxruntime(float_model, path, seed=1, uint8_weights=False,
                               per_channel=None, int8_activations=False):
    """`float_model` through onnxruntime's quantize_static (QDQ, uint8 activations or
    int8 ones, per-channel int8 weights, or uint8 weights with a zero point, per tensor
    unless `per_channel`) with 8 random calibration samples."""
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)

    class Samples(CalibrationDataReader):
        def __init__(self):
            generator = np.random.default_rng(seed)
            shape = [d.dim_value for d in float_model.graph.input[0].type.tensor_type.shape.dim]
            name = float_model.graph.input[0].name
            self.samples = iter([{name: generator.standard_normal(shape).astype(np.float32)}
                                 for _ in range(8)])

        def get_next(self):
            return next(self.samples, None)

    float_path = path + ".float.onnx"
    onnx.save(float_model, float_path)
    if per_channel is None:
        per_channel = not uint8_weights
    quantize_static(float_path, path, Samples(), quant_format=QuantFormat.QDQ,
                    per_channel=per_channel,
                    activation_type=QuantType.QInt8 if int8_activations else QuantType.QUInt8,
                    weight_type=QuantType.QUInt8 if uint8_weights else QuantType.QInt8)


def integer_ops():
    """ONNX's integer operators (onnxruntime's QOperator format): QLinearConv with
    per-channel int8 weights and an int32 bias, QLinearMatMul, ConvInteger and
    MatMulInteger with zero points, on uint8 inputs (onnxruntime's ConvInteger takes
    uint8 weights only)."""
    def const(name, values, dtype):
        return numpy_helper.from_array(np.array(values, dtype=dtype), name)

    w = rng.integers(-128, 128, (4, 3, 3, 3)).astype(np.int8)
    b = rng.integers(-2000, 2000, 4).astype(np.int32)
    m_weights = rng.integers(-128, 128, (6, 5)).astype(np.int8)
    initializers = [
        const("xs", 0.02, np.float32), const("xz", 120, np.uint8),
        numpy_helper.from_array(w, "w"), const("ws", [0.01, 0.02, 0.005, 0.03], np.float32),
        const("wz", [0, 0, 0, 0], np.int8), numpy_helper.from_array(b, "b"),
        const("ys", 0.15, np.float32), const("yz", 100, np.uint8),
        numpy_helper.from_array(m_weights, "mw"), const("ms", 0.01, np.float32),
        const("mz", 3, np.int8), const("os", 0.3, np.float32), const("oz", 7, np.uint8),
        numpy_helper.from_array(rng.integers(0, 256, (4, 3, 3, 3)).astype(np.uint8), "wu"),
        const("wzi", 130, np.uint8),
    ]
    nodes = [
        helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["conv"],
                         pads=[1, 1, 1, 1], strides=[1, 2], name="qconv"),
        helper.make_node("QLinearMatMul", ["a", "xs", "xz", "mw", "ms", "mz", "os", "oz"], ["matmul"],
                         name="qmatmul"),
        helper.make_node("ConvInteger", ["x", "wu", "xz", "wzi"], ["conv_int"], name="iconv",
                         dilations=[2, 1]),
        helper.make_node("MatMulInteger", ["a", "mw", "xz", "mz"], ["matmul_int"], name="imatmul"),
    ]
    inputs = [value("x", TensorProto.UINT8, [1, 3, 6, 7]), value("a", TensorProto.UINT8, [2, 6])]
    outputs = [value("conv", TensorProto.UINT8, None), value("matmul", TensorProto.UINT8, None),
               value("conv_int", TensorProto.INT32, None), value("matmul_int", TensorProto.INT32, None)]
    return model(nodes, inputs, outputs, initializers, opset=19)


def signed_activations_uint8_weights():
    """Two QLinearConvs on int8 activations with uint8 weights (valid ONNX, which
    onnxruntime's quantizer does not produce): 6 -> 80 channels (3x3, pads; the
    kernel pads the channels to 8 with the signed zero point), then 80 -> 24 (3x3,
    pads, stride 2; one 64-byte step and a tail) with per-channel weight zero points."""
    def const(name, values, dtype):
        return numpy_helper.from_array(np.array(values, dtype=dtype), name)

    initializers = [
        const("xs", 0.05, np.float32), const("xz", -7, np.int8),
        numpy_helper.from_array(rng.integers(0, 256, (80, 6, 3, 3)).astype(np.uint8), "w1"),
        const("w1s", 0.004, np.float32), const("w1z", 37, np.uint8),
        const("h1s", 0.4, np.float32), const("h1z", 5, np.int8),
        numpy_helper.from_array(rng.integers(0, 256, (24, 80, 3, 3)).astype(np.uint8), "w2"),
        const("w2s", rng.uniform(0.0002, 0.001, 24), np.float32),
        const("w2z", rng.integers(0, 256, 24), np.uint8),
        const("h2s", 0.5, np.float32), const("h2z", -3, np.int8),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"], name="quantize"),
        helper.make_node("QLinearConv", ["xq", "xs", "xz", "w1", "w1s", "w1z", "h1s", "h1z"],
                         ["h1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("QLinearConv", ["h1", "h1s", "h1z", "w2", "w2s", "w2z", "h2s", "h2z"],
                         ["h2"], pads=[1, 1, 1, 1], strides=[2, 2], name="conv2"),
        helper.make_node("DequantizeLinear", ["h2", "h2s", "h2z"], ["y"], name="dequantize"),
    ]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 6, 9, 9])],
                 [value("y", TensorProto.FLOAT, [1, 24, 5, 5])], initializers, opset=19)


def shuffle_units():
    """A 1x1 conv stem, two ShuffleNetV2 units and a 1x1 conv head on 1 x 8 x 6 x 6, as
    torch.onnx writes the units: split the
    channels in halves (Split), 1x1 conv + ReLU, depthwise 3x3, 1x1 conv + ReLU on one
    half, Concat, then the channel shuffle (Reshape [1, 2, 4, 6, 6], Transpose
    [0, 2, 1, 3, 4], Reshape [1, 8, 6, 6]); the second unit splits the shuffled tensor."""
    nodes = [helper.make_node("Conv", ["x", "stem"], ["stem_c"]),
             helper.make_node("Relu", ["stem_c"], ["stem_r"])]
    inits = [weight("stem", 8, 8, 1, 1), weight("head", 8, 8, 1, 1)]
    current = "stem_r"
    for u in range(2):
        p = f"u{u}_"
        inits += [ints(p + "halves", [4, 4]), weight(p + "w1", 4, 4, 1, 1), weight(p + "dw", 4, 1, 3, 3),
                  weight(p + "w2", 4, 4, 1, 1), ints(p + "split_shape", [1, 2, 4, 6, 6]),
                  ints(p + "merge_shape", [1, 8, 6, 6])]
        nodes += [
            helper.make_node("Split", [current, p + "halves"], [p + "a", p + "b"], axis=1),
            helper.make_node("Conv", [p + "b", p + "w1"], [p + "c1"]),
            helper.make_node("Relu", [p + "c1"], [p + "r1"]),
            helper.make_node("Conv", [p + "r1", p + "dw"], [p + "c2"], group=4, pads=[1, 1, 1, 1]),
            helper.make_node("Conv", [p + "c2", p + "w2"], [p + "c3"]),
            helper.make_node("Relu", [p + "c3"], [p + "r3"]),
            helper.make_node("Concat", [p + "a", p + "r3"], [p + "cat"], axis=1),
            helper.make_node("Reshape", [p + "cat", p + "split_shape"], [p + "s"]),
            helper.make_node("Transpose", [p + "s"], [p + "t"], perm=[0, 2, 1, 3, 4]),
            helper.make_node("Reshape", [p + "t", p + "merge_shape"], [p + "out"]),
        ]
        current = p + "out"
    nodes.append(helper.make_node("Conv", [current, "head"], ["y"]))
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 8, 6, 6])],
                 [value("y", TensorProto.FLOAT, [1, 8, 6, 6])], inits)


def depthwise_projections():
    """Three depthwise -> projection pairs of MobileNetV2's shapes on 1 x 16 x 112 x 112,
    each depthwise result larger than half the L2 cache: a 3x3 depthwise (ReLU6) and a
    1x1 projection 16 -> 16 with no epilogue; an expansion 16 -> 32, depthwise, and a
    projection 32 -> 16 whose residual add reads the first pair's result; an expansion
    16 -> 48, a stride-2 depthwise and a projection 48 -> 24."""
    def clip(source, name):
        return helper.make_node("Clip", [source, "lo", "hi"], [name], name=name)

    def depthwise(source, name, channels, stride=1):
        return helper.make_node("Conv", [source, name + "_w", name + "_b"], [name], name=name,
                                group=channels, pads=[1, 1, 1, 1], strides=[stride, stride])

    def conv(source, name):
        return helper.make_node("Conv", [source, name + "_w", name + "_b"], [name], name=name)

    nodes = [depthwise("x", "d1", 16), clip("d1", "d1r"), conv("d1r", "p1"),
             conv("p1", "e2"), clip("e2", "e2r"), depthwise("e2r", "d2", 32), clip("d2", "d2r"),
             conv("d2r", "p2"), helper.make_node("Add", ["p2", "p1"], ["a2"], name="residual"),
             conv("a2", "e3"), clip("e3", "e3r"), depthwise("e3r", "d3", 48, 2), clip("d3", "d3r"),
             conv("d3r", "y")]
    shapes = {"d1_w": (16, 1, 3, 3), "p1_w": (16, 16, 1, 1), "e2_w": (32, 16, 1, 1),
              "d2_w": (32, 1, 3, 3), "p2_w": (16, 32, 1, 1), "e3_w": (48, 16, 1, 1),
              "d3_w": (48, 1, 3, 3), "y_w": (24, 48, 1, 1)}
    inits = [weight(name, *shape) for name, shape in shapes.items()]
    inits += [weight(name[:-2] + "_b", shape[0]) for name, shape in shapes.items()]
    inits += [numpy_helper.from_array(np.array(0, np.float32), "lo"),
              numpy_helper.from_array(np.array(6, np.float32), "hi")]
    return model(nodes, [value("x", TensorProto.FLOAT, [1, 16, 112, 112])],
                 [value("y", TensorProto.FLOAT, [1, 24, 56, 56])], inits)


def external(location):
    """One initializer stored as external data at `location`."""
    tensor = weight("w", 4)
    tensor.ClearField("raw_data")
    tensor.data_location = TensorProto.EXTERNAL
    for key, val in (("location", location), ("offset", "0"), ("length", "16")):
        entry = tensor.external_data.add()
        entry.key, entry.value = key, val
    return model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                 [value("x", TensorProto.FLOAT, [4])], [value("y", TensorProto.FLOAT, [4])], [tensor])


def _varint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def deep_graph_bytes(depth):
    """ModelProto bytes whose graph nests `depth` If-node graph attributes."""
    graph = b""
    for _ in range(depth):
        attribute = _field(1, b"then_branch") + _varint(20 << 3) + _varint(5) + _field(6, graph)
        node = _field(4, b"If") + _field(5, attribute)
        graph = _field(1, node)
    opset = _varint(2 << 3) + _varint(17)
    return _varint(1 << 3) + _varint(8) + _field(8, opset) + _field(7, graph)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    folder = os.path.dirname(os.path.abspath(path))
    if kind == "cnn":
        m = cnn()
    elif kind == "encoder":
        m = encoder()
    elif kind == "encoder-inf":
        # Masked scores set to -inf, as Hugging Face exports do: the text form must
        # keep the value exactly (it prints as the hex float 0xFF800000).
        m = encoder(fill=-np.inf)
    elif kind == "small-cnn":
        m = small_cnn()
    elif kind == "dense-concats":
        m = dense_concats()
    elif kind == "atrous-convs":
        m = atrous_convs()
    elif kind == "odd-rows":
        m = odd_rows()
    elif kind == "small-cnn-int8-u8-weights":
        quantized_with_onnxruntime(small_cnn(), path, uint8_weights=True)
        return
    elif kind == "small-cnn-int8":
        quantized_with_onnxruntime(small_cnn(), path)
        return
    elif kind == "grouped-cnn-int8":
        quantized_with_onnxruntime(grouped_cnn(), path)
        return
    elif kind == "grouped-cnn-int8-u8-weights":
        quantized_with_onnxruntime(grouped_cnn(), path, uint8_weights=True)
        return
    elif kind == "silu-cnn-int8":
        quantized_with_onnxruntime(silu_cnn(), path)
        return
    elif kind == "silu-cnn-s8-activations":
        quantized_with_onnxruntime(silu_cnn(), path, int8_activations=True)
        return
    elif kind == "gelu-mlp-int8":
        quantized_with_onnxruntime(gelu_mlp(), path, per_channel=False)
        return
    elif kind == "wide-cnn-int8":
        quantized_with_onnxruntime(wide_cnn(), path)
        return
    elif kind == "wide-cnn-int8-u8-weights":
        quantized_with_onnxruntime(wide_cnn(), path, uint8_weights=True)
        return
    elif kind == "wide-cnn-int8-u8-weights-per-channel":
        quantized_with_onnxruntime(wide_cnn(), path, uint8_weights=True, per_channel=True)
        return
    elif kind == "s8-activations-u8-weights":
        m = signed_activations_uint8_weights()
    elif kind == "qdq":
        # onnxruntime-quantizer style: activations through Q/DQ, int8 weights with
        # per-channel DequantizeLinear, and a uint8 image input dequantized directly.
        scale = numpy_helper.from_array(np.array(0.05, dtype=np.float32), "s")
        zp = numpy_helper.from_array(np.array(128, dtype=np.uint8), "zp")
        wq = numpy_helper.from_array(np.array([[1, -2], [3, 4], [-5, 6]], dtype=np.int8), "wq")
        ws = numpy_helper.from_array(np.array([0.5, 0.25], dtype=np.float32), "ws")
        wz = numpy_helper.from_array(np.array([0, 0], dtype=np.int8), "wz")
        nodes = [
            helper.make_node("DequantizeLinear", ["img", "s", "zp"], ["x"], name="dq_input"),
            helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["xq"], name="q_act"),
            helper.make_node("DequantizeLinear", ["xq", "s", "zp"], ["xd"], name="dq_act"),
            helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["w"], name="dq_weights", axis=1),
            helper.make_node("MatMul", ["xd", "w"], ["y"], name="mm"),
        ]
        m = model(nodes, [value("img", TensorProto.UINT8, [2, 3])], [value("y", TensorProto.FLOAT, [2, 2])],
                  [scale, zp, wq, ws, wz], opset=19)
    elif kind == "embedding":
        # A Gather on runtime token ids: the embedding lookup of every language model.
        table = numpy_helper.from_array(np.arange(40, dtype=np.float32).reshape(10, 4), "table")
        m = model([helper.make_node("Gather", ["table", "ids"], ["y"], axis=0, name="embed")],
                  [value("ids", TensorProto.INT64, [2, 3])], [value("y", TensorProto.FLOAT, [2, 3, 4])],
                  [table])
    elif kind in ("constant-index-gather", "constant-index-elements", "constant-index-scatter"):
        # Constant indices outside the indexed dimension (3 in a dimension of 3).
        bad = numpy_helper.from_array(np.array([[0, 3]], dtype=np.int64), "bad")
        updates = numpy_helper.from_array(np.ones((1, 2), dtype=np.float32), "updates")
        node = {
            "constant-index-gather": helper.make_node("Gather", ["x", "bad"], ["y"], axis=1, name="g"),
            "constant-index-elements": helper.make_node("GatherElements", ["x", "bad"], ["y"], axis=1,
                                                        name="ge"),
            "constant-index-scatter": helper.make_node("ScatterElements", ["x", "bad", "updates"], ["y"],
                                                       axis=1, name="se"),
        }[kind]
        m = model([node], [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, None)],
                  [bad, updates])
    elif kind == "huge-intermediate":
        # A shape computed at import time makes a 4 TiB tensor (ConstantOfShape), added
        # to the input.
        shape = numpy_helper.from_array(np.array([1 << 20, 1 << 20], dtype=np.int64), "shape")
        m = model([helper.make_node("ConstantOfShape", ["shape"], ["big"], name="fill"),
                   helper.make_node("Add", ["x", "big"], ["y"], name="add")],
                  [value("x", TensorProto.FLOAT, [1, 1])], [value("y", TensorProto.FLOAT, None)], [shape])
    elif kind == "integer-ops":
        m = integer_ops()
    elif kind == "integer-zero-scale":
        m = integer_ops()
        next(t for t in m.graph.initializer if t.name == "ms").CopyFrom(
            numpy_helper.from_array(np.array(0.0, dtype=np.float32), "ms"))
    elif kind == "unsupported":
        m = model([helper.make_node("Det", ["x"], ["y"], name="det1"),
                   helper.make_node("MaxRoiPool", ["x4", "rois"], ["z"], name="pool", pooled_shape=[1, 1]),
                   helper.make_node("Det", ["x"], ["o"], name="det2")],
                  [value("x", TensorProto.FLOAT, [2, 2]), value("x4", TensorProto.FLOAT, [1, 1, 2, 2]),
                   value("rois", TensorProto.FLOAT, [1, 5])],
                  [value("o", TensorProto.FLOAT, []), value("z", TensorProto.FLOAT, [1, 1, 1, 1])])
    elif kind == "pad-modes":
        # Copying pad modes and a strided Slice on runtime tensors (gathers of constant
        # positions).
        pads = numpy_helper.from_array(np.array([0, 2, 0, 1], dtype=np.int64), "pads")
        starts = numpy_helper.from_array(np.array([0], dtype=np.int64), "starts")
        ends = numpy_helper.from_array(np.array([5], dtype=np.int64), "ends")
        axes = numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")
        steps = numpy_helper.from_array(np.array([2], dtype=np.int64), "steps")
        nodes = [helper.make_node("Pad", ["x", "pads"], [f"{mode}"], mode=mode, name=mode)
                 for mode in ("reflect", "edge", "wrap")]
        nodes.append(helper.make_node("Slice", ["reflect", "starts", "ends", "axes", "steps"],
                                      ["strided"], name="strided_slice"))
        m = model(nodes, [value("x", TensorProto.FLOAT, [2, 3])],
                  [value(n, TensorProto.FLOAT, None) for n in ("reflect", "edge", "wrap", "strided")],
                  [pads, starts, ends, axes, steps], opset=19)
    elif kind == "trilu":
        # Upper triangle from the first superdiagonal of a batch of 3x4 matrices, the
        # lower one from the main diagonal, and Mod / BitShift.
        k = numpy_helper.from_array(np.array(1, dtype=np.int64), "k")
        nodes = [
            helper.make_node("Trilu", ["x", "k"], ["upper"], name="upper"),
            helper.make_node("Trilu", ["x"], ["lower"], name="lower", upper=0),
            helper.make_node("Mod", ["i", "j"], ["mod"], name="mod"),
            helper.make_node("BitShift", ["u", "s"], ["shift"], name="shift", direction="LEFT"),
        ]
        m = model(nodes, [value("x", TensorProto.FLOAT, [2, 3, 4]), value("i", TensorProto.INT32, [4]),
                          value("j", TensorProto.INT32, [4]), value("u", TensorProto.UINT8, [3]),
                          value("s", TensorProto.UINT8, [3])],
                  [value(n, TensorProto.UNDEFINED, None) for n in ("upper", "lower", "mod", "shift")], [k])
    elif kind == "pool3d":
        # 3-D pooling (two 2-D pools) and an average counting explicit pads with
        # ceil_mode (the pads become a zero Pad).
        nodes = [
            helper.make_node("MaxPool", ["x"], ["max"], kernel_shape=[2, 3, 2], strides=[1, 2, 2],
                             pads=[1, 0, 1, 0, 1, 0], dilations=[2, 1, 1], name="max3d"),
            helper.make_node("AveragePool", ["x"], ["avg"], kernel_shape=[3, 2, 2], strides=[2, 2, 2],
                             pads=[1, 1, 0, 1, 0, 1], ceil_mode=1, count_include_pad=1, name="avg3d"),
        ]
        m = model(nodes, [value("x", TensorProto.FLOAT, [1, 2, 5, 7, 7])],
                  [value("max", TensorProto.FLOAT, None), value("avg", TensorProto.FLOAT, None)])
    elif kind == "training-dropout":
        ratio = numpy_helper.from_array(np.array(0.5, dtype=np.float32), "r")
        train = numpy_helper.from_array(np.array(True), "t")
        m = model([helper.make_node("Dropout", ["x", "r", "t"], ["y"], name="drop")],
                  [value("x", TensorProto.FLOAT, [2, 2])], [value("y", TensorProto.FLOAT, [2, 2])],
                  [ratio, train])
    elif kind == "conv-transpose-pads":
        # Pads that remove the whole output (found by fuzzing: the op's inference
        # failed inside a builder).
        m = model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", pads=[9, 0, 9, 0])],
                  [value("x", TensorProto.FLOAT, [1, 2, 3, 3])], [value("y", TensorProto.FLOAT, None)],
                  [weight("w", 2, 1, 3, 3)])
    elif kind == "conv-transpose-kernel":
        m = model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", kernel_shape=[2, 2])],
                  [value("x", TensorProto.FLOAT, [1, 2, 3, 3])], [value("y", TensorProto.FLOAT, None)],
                  [weight("w", 2, 1, 3, 3)])
    elif kind == "trilu-too-large":
        m = model([helper.make_node("Trilu", ["x"], ["y"], name="tri")],
                  [value("x", TensorProto.FLOAT, [5000, 5000])], [value("y", TensorProto.FLOAT, None)])
    elif kind == "bitshift-direction":
        m = model([helper.make_node("BitShift", ["u", "u"], ["y"], name="shift", direction="UP")],
                  [value("u", TensorProto.UINT8, [3])], [value("y", TensorProto.UINT8, None)])
    elif kind == "transpose-perm":
        m = model([helper.make_node("Transpose", ["x"], ["y"], name="t", perm=[0, 0, 1])],
                  [value("x", TensorProto.FLOAT, [2, 3, 4])], [value("y", TensorProto.FLOAT, None)])
    elif kind == "split-sizes":
        m = model([helper.make_node("Split", ["x", "s"], ["a", "b"], name="sp", axis=0)],
                  [value("x", TensorProto.FLOAT, [4])],
                  [value("a", TensorProto.FLOAT, None), value("b", TensorProto.FLOAT, None)],
                  [ints("s", [6, -2])])
    elif kind == "flag-attribute":
        m = model([helper.make_node("ReduceMean", ["x"], ["y"], name="mean", keepdims=2)],
                  [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, None)])
    elif kind == "resize-nan-scale":
        scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1.0, 1.0, float("nan"), 2.0])
        m = model([helper.make_node("Resize", ["x", "", "scales"], ["y"], name="up")],
                  [value("x", TensorProto.FLOAT, [1, 1, 2, 2])], [value("y", TensorProto.FLOAT, None)],
                  [scales])
    elif kind == "gemm-mismatch":
        m = model([helper.make_node("Gemm", ["x", "w"], ["y"], name="fc", transB=1)],
                  [value("x", TensorProto.FLOAT, [1, 72])], [value("y", TensorProto.FLOAT, None)],
                  [weight("w", 10, 128)])
    elif kind == "newline-names":
        m = model([helper.make_node("Relu\nInjected", ["x"], ["y"], name="bad\nname")],
                  [value("x", TensorProto.FLOAT, [2])], [value("y", TensorProto.FLOAT, [2])])
    elif kind == "old-opset":
        m = model([helper.make_node("Relu", ["x"], ["y"])], [value("x", TensorProto.FLOAT, [2])],
                  [value("y", TensorProto.FLOAT, [2])], opset=6)
    elif kind == "shape-mismatch":
        m = model([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
                  [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, [2, 4])],
                  [weight("w", 5, 4)])
    elif kind == "concat-mismatch":
        m = model([helper.make_node("Concat", ["x", "w"], ["y"], name="cat", axis=0)],
                  [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, [7, 3])],
                  [weight("w", 5, 4)])
    elif kind == "concat-rank":
        m = model([helper.make_node("Concat", ["x", "w"], ["y"], name="cat", axis=1)],
                  [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, [2, 7])],
                  [weight("w", 4)])
    elif kind == "concat-all-empty":
        m = model([helper.make_node("Concat", ["x", "z"], ["y"], name="cat", axis=1)],
                  [value("x", TensorProto.FLOAT, [2, 0]), value("z", TensorProto.FLOAT, [2, 0])],
                  [value("y", TensorProto.FLOAT, [2, 0])])
    elif kind == "tile-repeats":
        m = model([helper.make_node("Tile", ["x", "r"], ["y"], name="tile")],
                  [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, None)],
                  [ints("r", [2, 2, 2])])
    elif kind == "concat-overflow":
        m = model([helper.make_node("Concat", ["x", "x"], ["y"], name="cat", axis=1)],
                  [value("x", TensorProto.FLOAT, [0, 1 << 62])], [value("y", TensorProto.FLOAT, None)])
    elif kind == "tile-zero":
        m = model([helper.make_node("Tile", ["x", "r"], ["y"], name="tile")],
                  [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, None)],
                  [ints("r", [2, 0])])
    elif kind == "topk-too-large":
        m = model([helper.make_node("TopK", ["x", "k"], ["v", "i"], name="top")],
                  [value("x", TensorProto.FLOAT, [2, 3])],
                  [value("v", TensorProto.FLOAT, None), value("i", TensorProto.INT64, None)],
                  [ints("k", [5])])
    elif kind == "conv-rank-2":
        m = model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
                  [value("x", TensorProto.FLOAT, [2, 3])], [value("y", TensorProto.FLOAT, None)],
                  [weight("w", 5, 3)])
    elif kind == "global-pool-empty":
        m = model([helper.make_node("GlobalAveragePool", ["x"], ["y"], name="gap")],
                  [value("x", TensorProto.FLOAT, [1, 2, 0, 3])], [value("y", TensorProto.FLOAT, None)])
    elif kind == "reshape-overflow":
        m = model([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
                  [value("x", TensorProto.FLOAT, [1, 4])], [value("y", TensorProto.FLOAT, None)],
                  [ints("s", [1 << 40, 1 << 40])])
    elif kind == "bad-raw-data":
        tensor = weight("w", 4)
        tensor.raw_data = tensor.raw_data[:8]
        m = model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                  [value("x", TensorProto.FLOAT, [4])], [value("y", TensorProto.FLOAT, [4])], [tensor])
    elif kind == "huge-dims":
        tensor = weight("w", 4)
        del tensor.dims[:]
        tensor.dims.extend([1 << 20, 1 << 20])
        m = model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                  [value("x", TensorProto.FLOAT, [4])], [value("y", TensorProto.FLOAT, [4])], [tensor])
    elif kind == "overflow-dims":
        tensor = weight("w", 4)
        del tensor.dims[:]
        tensor.dims.extend([1 << 40, 1 << 40])
        m = model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                  [value("x", TensorProto.FLOAT, [4])], [value("y", TensorProto.FLOAT, [4])], [tensor])
    elif kind.startswith("external:"):
        m = external(kind.split(":", 1)[1])
        with open(os.path.join(folder, "weights.bin"), "wb") as f:
            f.write(np.arange(4, dtype=np.float32).tobytes())
    elif kind == "shuffle-units":
        m = shuffle_units()
    elif kind == "depthwise-projections":
        m = depthwise_projections()
    elif kind.startswith("dft:"):
        # DFT (opset 20) of x [2, N, C] along axis 1: dft:N:C:LENGTH:INVERSE:ONESIDED.
        n, c, length, inverse, onesided = (int(v) for v in kind.split(":")[1:])
        m = model([helper.make_node("DFT", ["x", "length", "axis"], ["y"], name="dft",
                                    inverse=inverse, onesided=onesided)],
                  [value("x", TensorProto.FLOAT, [2, n, c])], [value("y", TensorProto.FLOAT, None)],
                  [ints("length", length), ints("axis", 1)], opset=20)
        m.graph.initializer[0].dims[:] = []
        m.graph.initializer[1].dims[:] = []
    elif kind.startswith("stft:"):
        # STFT (opset 17) of a real x [2, N, 1] with a Hann window: stft:N:STEP:FRAME.
        n, step, frame = (int(v) for v in kind.split(":")[1:])
        window = numpy_helper.from_array(np.hanning(frame).astype(np.float32), "window")
        m = model([helper.make_node("STFT", ["x", "step", "window", "frame"], ["y"], name="stft")],
                  [value("x", TensorProto.FLOAT, [2, n, 1])], [value("y", TensorProto.FLOAT, None)],
                  [ints("step", step), window, ints("frame", frame)], opset=17)
        m.graph.initializer[0].dims[:] = []
        m.graph.initializer[2].dims[:] = []
    elif kind in ("linear-attention", "linear-attention-no-decay", "linear-attention-short-decay"):
        # LinearAttention (opset 27), Gated DeltaNet's rule with grouped heads (8 query
        # heads on 4 key / value heads of 8), per-head decay, beta and a past state over
        # 3 tokens; the -no-decay variant leaves out the decay its rule needs.
        decay = "" if kind.endswith("no-decay") else "decay"
        decay_steps = 2 if kind.endswith("short-decay") else 3
        m = model([helper.make_node("LinearAttention", ["q", "k", "v", "past", decay, "beta"],
                                    ["y", "state"], name="gdn", q_num_heads=8, kv_num_heads=4)],
                  [value("q", TensorProto.FLOAT, [2, 3, 64]), value("k", TensorProto.FLOAT, [2, 3, 32]),
                   value("v", TensorProto.FLOAT, [2, 3, 32]), value("past", TensorProto.FLOAT, [2, 4, 8, 8]),
                   value("decay", TensorProto.FLOAT, [2, decay_steps, 4]), value("beta", TensorProto.FLOAT, [2, 3, 4])],
                  [value("y", TensorProto.FLOAT, [2, 3, 64]), value("state", TensorProto.FLOAT, [2, 4, 8, 8])],
                  opset=27)
    elif kind in ("if-shape", "if-runtime", "if-unsupported-else"):
        # If on a condition computed from the input's static shape (dimension 1 > 3):
        # the then branch doubles x and adds its own initializer, with a nested If on a
        # constant that picks x + the outer weight; the else branch negates x. The
        # -runtime variant takes the condition from a boolean input.
        inner = helper.make_graph(
            [helper.make_node("Add", ["x", "w"], ["inner_out"])], "inner_then", [],
            [value("inner_out", TensorProto.FLOAT, [2, 4])])
        inner_else = helper.make_graph(
            [helper.make_node("Sub", ["x", "w"], ["inner_else_out"])], "inner_else", [],
            [value("inner_else_out", TensorProto.FLOAT, [2, 4])])
        then = helper.make_graph(
            [helper.make_node("Constant", [], ["yes"], value=helper.make_tensor("c", TensorProto.BOOL, [], [True])),
             helper.make_node("If", ["yes"], ["nested"], then_branch=inner, else_branch=inner_else),
             helper.make_node("Mul", ["nested", "two"], ["doubled"]),
             helper.make_node("Add", ["doubled", "bias"], ["then_out"])],
            "then", [], [value("then_out", TensorProto.FLOAT, [2, 4])],
            [numpy_helper.from_array(np.float32([1, 2, 3, 4]), "bias"),
             numpy_helper.from_array(np.float32(2), "two")])
        # The -unsupported-else variant's untaken branch holds an op glow lacks (Unique).
        otherwise_op = "Unique" if kind == "if-unsupported-else" else "Neg"
        otherwise = helper.make_graph([helper.make_node(otherwise_op, ["x"], ["else_out"], name="never")],
                                      "else", [], [value("else_out", TensorProto.FLOAT, [2, 4])])
        inputs = [value("x", TensorProto.FLOAT, [2, 4])]
        if kind == "if-runtime":
            nodes = [helper.make_node("If", ["flag"], ["y"], name="branch", then_branch=then,
                                      else_branch=otherwise)]
            inputs.append(value("flag", TensorProto.BOOL, []))
        else:
            nodes = [helper.make_node("Shape", ["x"], ["shape"]),
                     helper.make_node("Gather", ["shape", "one"], ["width"], axis=0),
                     helper.make_node("Greater", ["width", "three"], ["wide"]),
                     helper.make_node("If", ["wide"], ["y"], name="branch", then_branch=then,
                                      else_branch=otherwise)]
        m = model(nodes, inputs, [value("y", TensorProto.FLOAT, [2, 4])],
                  [weight("w", 2, 4), ints("one", 1), ints("three", 3)])
        m.graph.initializer[1].dims[:] = []
        m.graph.initializer[2].dims[:] = []
    elif kind == "center-crop-pad":
        # CenterCropPad (opset 18) of x [5, 4, 3] to [3, 7] on axes 0 and -2: a crop
        # starting at row 1, then 1 column of zeros on the left and 2 on the right.
        m = model([helper.make_node("CenterCropPad", ["x", "shape"], ["y"], name="crop", axes=[0, -2])],
                  [value("x", TensorProto.FLOAT, [5, 4, 3])], [value("y", TensorProto.FLOAT, [3, 7, 3])],
                  [ints("shape", [3, 7])], opset=18)
    elif kind in ("causal-conv", "causal-conv-relu"):
        # CausalConvWithState (opset 27): x [2, 3, 5], weight [3, 1, 4], bias, past_state
        # [2, 3, 3], SiLU (the -relu variant asks for an activation the op lacks).
        activation = "relu" if kind.endswith("relu") else "silu"
        m = model([helper.make_node("CausalConvWithState", ["x", "w", "b", "past"], ["y", "state"],
                                    name="short_conv", activation=activation)],
                  [value("x", TensorProto.FLOAT, [2, 3, 5]), value("past", TensorProto.FLOAT, [2, 3, 3])],
                  [value("y", TensorProto.FLOAT, [2, 3, 5]), value("state", TensorProto.FLOAT, [2, 3, 3])],
                  [weight("w", 3, 1, 4), weight("b", 3)], opset=27)
    elif kind in ("bitcast", "bitcast-width"):
        # BitCast (opset 26) of an input and of an initializer (folded at import); the
        # -width variant asks for a type of another width.
        to = TensorProto.INT16 if kind == "bitcast-width" else TensorProto.INT32
        table = numpy_helper.from_array(np.array([1.0, -2.0], np.float32), "table")
        m = model([helper.make_node("BitCast", ["x"], ["y"], name="bits", to=to),
                   helper.make_node("BitCast", ["table"], ["z"], name="table_bits", to=TensorProto.INT32)],
                  [value("x", TensorProto.FLOAT, [3])],
                  [value("y", to, [3]), value("z", TensorProto.INT32, [2])], [table], opset=26)
    elif kind == "signature":
        # Named and unnamed symbolic dimensions, an input an initializer backs (a
        # default, not an input of the compiled model), one without a shape.
        unnamed = helper.make_tensor_value_info("ids", TensorProto.INT64, [None, 3])
        shapeless = helper.make_tensor_value_info("free", TensorProto.FLOAT, None)
        m = model([helper.make_node("Add", ["x", "bias"], ["y"]),
                   helper.make_node("Cast", ["ids"], ["z"], to=TensorProto.FLOAT),
                   helper.make_node("Identity", ["free"], ["w"])],
                  [value("x", TensorProto.FLOAT, ["batch", "sequence", 4]), unnamed, shapeless,
                   value("bias", TensorProto.FLOAT, [4])],
                  [value("y", TensorProto.FLOAT, ["batch", "sequence", 4]),
                   value("z", TensorProto.FLOAT, [None, 3]), value("w", TensorProto.FLOAT, [2])],
                  [weight("bias", 4)])
    elif kind == "deep-graph":
        # 10,000 graphs nested through If attributes, written as raw protobuf (the
        # Python API copies every level and would take quadratic memory).
        with open(path, "wb") as f:
            f.write(deep_graph_bytes(10000))
        return
    else:
        raise SystemExit(f"unknown model kind {kind}")
    onnx.save(m, path)


main()
