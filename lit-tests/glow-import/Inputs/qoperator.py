"""Builds models in onnxruntime's QOperator format for lit-tests/glow-import/qoperator.mlir.

Usage: qoperator.py KIND OUT.onnx

KIND:
  contrib    a small network of every com.microsoft quantized op glow-import rewrites
             (QLinearLeakyRelu, QLinearSigmoid, QLinearMul, QLinearAdd,
             QLinearAveragePool, QLinearConcat, QLinearGlobalAveragePool, also
             channels-last, QGemm with and without an output scale,
             QLinearSoftmax, QLinearWhere) around QLinearConv, with MaxPool, Transpose
             and Reshape running directly on quantized integers, and a Gather from a
             uint8 table (a dense_resource constant) at run-time indices
  quantized  a float CNN + attention-style block quantized by onnxruntime's own
             quantize_static(quant_format=QOperator), per-channel, uint8 activations
  short      contrib's QLinearAdd without its output scale (too few inputs)
  softmax11  a QLinearSoftmax of opset 11 (rows flattened at axis 1) in an opset-13 model
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
MS = "com.microsoft"


def scalar(name, value, dtype):
    return numpy_helper.from_array(np.array(value, dtype=dtype), name)


def scale(name, value):
    """A scale near `value`, off round numbers: requantizing between round scales
    (0.05 -> 0.06) lands on exact rounding ties, which f32 and f64 resolve apart."""
    return scalar(name, value * (1 + 0.1 * rng.random()), np.float32)


def contrib(short=False):
    inits = [
        scale("sx", 0.05), scalar("zx", 120, np.uint8),
        numpy_helper.from_array(rng.integers(-60, 60, (8, 4, 3, 3)).astype(np.int8), "w"),
        numpy_helper.from_array((rng.uniform(1, 3, 8) * 1e-3).astype(np.float32), "sw"),
        numpy_helper.from_array(np.zeros(8, np.int8), "zw"),
        numpy_helper.from_array(rng.integers(-500, 500, 8).astype(np.int32), "b"),
        scale("sc", 0.04), scalar("zc", 110, np.uint8),
        scale("sl", 0.03), scalar("zl", 60, np.uint8),
        scale("ss", 1 / 256), scalar("zs", 0, np.uint8),
        scale("sm", 0.02), scalar("zm", 40, np.uint8),
        scale("sa", 0.05), scalar("za", 100, np.uint8),
        scale("sg", 0.03), scalar("zg", 70, np.uint8),
        numpy_helper.from_array(np.array([1, 16], np.int64), "shape"),
        numpy_helper.from_array(rng.integers(-100, 100, (10, 16)).astype(np.int8), "fw"),
        numpy_helper.from_array((rng.uniform(1, 2, 10) * 4e-3).astype(np.float32), "sfw"),
        numpy_helper.from_array(np.zeros(10, np.int8), "zfw"),
        numpy_helper.from_array(rng.integers(-3000, 3000, 10).astype(np.int32), "fb"),
        scale("sf", 0.1), scalar("zf", 128, np.uint8),
        scale("so", 1 / 256), scalar("zo", 0, np.uint8),
        # A uint8 table large enough to be a dense_resource blob, gathered at run time.
        numpy_helper.from_array(rng.integers(0, 256, (64, 10)).astype(np.uint8), "table"),
        scale("st", 0.02), scalar("zt", 128, np.uint8),
    ]
    add_inputs = ["l", "sl", "zl", "c", "sc"] + ([] if short else ["zc", "sa", "za"])
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], "quantize_x"),
        helper.make_node("QLinearConv", ["xq", "sx", "zx", "w", "sw", "zw", "sc", "zc", "b"], ["c"],
                         "conv", pads=[1, 1, 1, 1]),
        helper.make_node("QLinearLeakyRelu", ["c", "sc", "zc", "sl", "zl"], ["l"], "leaky", domain=MS,
                         alpha=0.1),
        helper.make_node("QLinearSigmoid", ["l", "sl", "zl", "ss", "zs"], ["s"], "sigmoid", domain=MS),
        helper.make_node("QLinearMul", ["l", "sl", "zl", "s", "ss", "zs", "sm", "zm"], ["m"], "mul",
                         domain=MS),
        helper.make_node("QLinearAdd", add_inputs, ["a"], "add", domain=MS),
        helper.make_node("QLinearAdd", ["a", "sa", "za", "m", "sm", "zm", "sa", "za"], ["a2"], "add2",
                         domain=MS),
        helper.make_node("MaxPool", ["a2"], ["p"], "maxpool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("QLinearAveragePool", ["p", "sa", "za", "sa", "za"], ["ap"], "avgpool",
                         domain=MS, kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1),
        helper.make_node("QLinearConcat", ["sa", "za", "p", "sa", "za", "ap", "sa", "za"], ["cat"],
                         "concat", domain=MS, axis=1),
        helper.make_node("QLinearGlobalAveragePool", ["cat", "sa", "za", "sg", "zg"], ["g"], "gap",
                         domain=MS, channels_last=0),
        helper.make_node("Transpose", ["cat"], ["nhwc"], "to_nhwc", perm=[0, 2, 3, 1]),
        helper.make_node("QLinearGlobalAveragePool", ["nhwc", "sa", "za", "sg", "zg"], ["gl"], "gap_nhwc",
                         domain=MS, channels_last=1),
        helper.make_node("Reshape", ["g", "shape"], ["r"], "flatten"),
        helper.make_node("QGemm", ["r", "sg", "zg", "fw", "sfw", "zfw", "fb", "sf", "zf"], ["f"], "fc",
                         domain=MS, transB=1),
        helper.make_node("QGemm", ["r", "sg", "zg", "fw", "sfw", "zfw", "fb"], ["float_logits"], "fc_float",
                         domain=MS, transB=1, alpha=0.5),
        helper.make_node("QLinearSoftmax", ["f", "sf", "zf", "so", "zo"], ["sm_q"], "softmax", domain=MS,
                         axis=-1, opset=13),
        helper.make_node("QLinearWhere", ["keep", "sm_q", "so", "zo", "f", "sf", "zf", "so", "zo"], ["wh"],
                         "where", domain=MS),
        helper.make_node("DequantizeLinear", ["wh", "so", "zo"], ["probs"], "dequantize_probs"),
        helper.make_node("Gather", ["table", "ids"], ["row"], "embedding"),
        helper.make_node("QLinearAdd", ["f", "sf", "zf", "row", "st", "zt", "sf", "zf"], ["shifted"], "shift",
                         domain=MS),
        helper.make_node("DequantizeLinear", ["shifted", "sf", "zf"], ["shifted_logits"], "dequantize_shifted"),
        helper.make_node("DequantizeLinear", ["gl", "sg", "zg"], ["pooled_nhwc"], "dequantize_pooled"),
    ]
    graph = helper.make_graph(
        nodes, "qoperator",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6, 6]),
         helper.make_tensor_value_info("keep", TensorProto.BOOL, [1, 10]),
         helper.make_tensor_value_info("ids", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10]),
         helper.make_tensor_value_info("float_logits", TensorProto.FLOAT, [1, 10]),
         helper.make_tensor_value_info("pooled_nhwc", TensorProto.FLOAT, [1, 1, 1, 16]),
         helper.make_tensor_value_info("shifted_logits", TensorProto.FLOAT, [1, 10])],
        inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(MS, 1)], ir_version=9)


def softmax11():
    inits = [scale("s", 0.1), scalar("z", 128, np.uint8),
             scale("so", 1 / 256), scalar("zo", 0, np.uint8)]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], "quantize_x"),
        helper.make_node("QLinearSoftmax", ["xq", "s", "z", "so", "zo"], ["y"], "softmax", domain=MS,
                         axis=1, opset=11),
        helper.make_node("DequantizeLinear", ["y", "so", "zo"], ["probs"], "dequantize"),
    ]
    graph = helper.make_graph(
        nodes, "softmax11", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [2, 3, 4])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(MS, 1)], ir_version=9)


def quantized(path):
    """A float model quantized by onnxruntime's quantize_static in QOperator format."""
    import os
    import tempfile

    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    def const(name, shape, scale=0.3):
        return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)

    inits = [const("w1", (16, 3, 3, 3)), const("b1", (16,), 0.1), const("w2", (16, 16, 1, 1)),
             const("b2", (16,), 0.1), const("wq", (16, 16)), const("wk", (16, 16)),
             const("fw", (16, 5)), const("fb", (5,), 0.1),
             numpy_helper.from_array(np.array([1, 16, 16], np.int64), "tokens")]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], "conv1", pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"], "relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], "conv2"),
        helper.make_node("Sigmoid", ["c2"], ["g"], "gate"),
        helper.make_node("Mul", ["c2", "g"], ["silu"], "silu"),
        helper.make_node("Add", ["silu", "r1"], ["res"], "residual"),
        helper.make_node("MaxPool", ["res"], ["p"], "pool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Reshape", ["p", "tokens"], ["t"], "to_tokens"),
        helper.make_node("Transpose", ["t"], ["tt"], "tokens_last", perm=[0, 2, 1]),
        helper.make_node("MatMul", ["tt", "wq"], ["q"], "query"),
        helper.make_node("MatMul", ["tt", "wk"], ["k"], "key"),
        helper.make_node("Transpose", ["k"], ["kt"], "key_t", perm=[0, 2, 1]),
        helper.make_node("MatMul", ["q", "kt"], ["scores"], "scores"),
        helper.make_node("Softmax", ["scores"], ["attn"], "softmax", axis=-1),
        helper.make_node("MatMul", ["attn", "tt"], ["ctx"], "context"),
        helper.make_node("ReduceMean", ["ctx"], ["pooled"], "mean", axes=[1], keepdims=0),
        helper.make_node("Gemm", ["pooled", "fw", "fb"], ["logits"], "fc"),
    ]
    graph = helper.make_graph(
        nodes, "quantized", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 5])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=9)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.samples = iter({"x": rng.standard_normal((1, 3, 16, 16)).astype(np.float32)}
                                for _ in range(8))

        def get_next(self):
            return next(self.samples, None)

    with tempfile.TemporaryDirectory() as folder:
        float_path = os.path.join(folder, "float.onnx")
        import onnx
        onnx.save(model, float_path)
        quantize_static(float_path, path, Reader(), quant_format=QuantFormat.QOperator, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)


def main():
    import onnx
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "quantized":
        quantized(out)
        return
    model = {"contrib": contrib, "short": lambda: contrib(short=True), "softmax11": softmax11}[kind]()
    onnx.save(model, out)


if __name__ == "__main__":
    main()
