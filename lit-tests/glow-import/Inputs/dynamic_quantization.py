"""Builds dynamically quantized models for lit-tests/glow-import/dynamic-quantization.mlir.

Usage: dynamic_quantization.py KIND OUT.onnx

KIND:
  ops        DynamicQuantizeLinear of a 3-D activation (its uint8 values, scale and zero
             point are outputs too) feeding MatMulInteger with int8 weights (zero point
             0) and with uint8 weights (a zero point per column), each dequantized by
             Cast and Mul and biased as onnxruntime's quantize_dynamic writes them; and
             DynamicQuantizeLinear of an all-zero tensor (an empty range: scale 1/255)
  quantized  a float two-layer MLP on 3-D activations quantized by onnxruntime's own
             quantize_dynamic (int8 weights)
  conv-uint8 ConvInteger layers with a run-time input zero point (onnxruntime's
             quantize_dynamic of a CNN) and uint8 weights: dense, strided, 1x1, uneven
             pads, depthwise (3x3, 5x5 stride 2) and grouped
  conv-int8  the same layers with int8 weights
  conv-runtime-filter  a run-time input zero point and a filter given at run time
             (refused)
  conv-huge-pads  pads that make the result too large (refused)
  conv-zero-point-per-channel, conv-zero-point-int8  a run-time input zero point per
             channel, or int8 for a uint8 input (refused)

Usage: dynamic_quantization.py check-reference MODEL.onnx GLOW_BIN SEED
  runs MODEL through glow-run and ONNX's reference evaluator, every output compared;
  SEED: a number (random input), positive or negative (an all-positive or
  all-negative input: zero point 0 or 255)
"""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(3)


def init(name, array):
    return numpy_helper.from_array(array, name)


def model(nodes, inputs, outputs, inits):
    graph = helper.make_graph(nodes, "dynamic", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=9)


def ops():
    inits = [
        init("w8", rng.integers(-127, 128, (8, 6)).astype(np.int8)),
        init("w8_zero", np.array(0, np.int8)),
        init("w8_scale", np.array(0.02, np.float32)),
        init("wu", rng.integers(0, 256, (8, 6)).astype(np.uint8)),
        init("wu_zero", rng.integers(100, 156, 6).astype(np.uint8)),
        init("wu_scale", np.array(0.03, np.float32)),
        init("bias", rng.standard_normal(6).astype(np.float32)),
        init("nothing", np.array(0.0, np.float32)),
    ]
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "x_scale", "x_zero"], "quantize_x"),
        helper.make_node("MatMulInteger", ["xq", "w8", "x_zero", "w8_zero"], ["acc8"], "matmul_int8"),
        helper.make_node("Cast", ["acc8"], ["acc8_f"], "cast8", to=TensorProto.FLOAT),
        helper.make_node("Mul", ["x_scale", "w8_scale"], ["scale8"], "scale8"),
        helper.make_node("Mul", ["acc8_f", "scale8"], ["y8"], "dequantize8"),
        helper.make_node("Add", ["y8", "bias"], ["hidden"], "bias8"),
        helper.make_node("MatMulInteger", ["xq", "wu", "x_zero", "wu_zero"], ["accu"], "matmul_uint8"),
        helper.make_node("Cast", ["accu"], ["accu_f"], "castu", to=TensorProto.FLOAT),
        helper.make_node("Mul", ["x_scale", "wu_scale"], ["scaleu"], "scaleu"),
        helper.make_node("Mul", ["accu_f", "scaleu"], ["hidden_u"], "dequantizeu"),
        helper.make_node("Mul", ["x", "nothing"], ["zeros"], "zeros"),
        helper.make_node("DynamicQuantizeLinear", ["zeros"], ["zq", "z_scale", "z_zero"], "quantize_zeros"),
    ]
    f = TensorProto.FLOAT
    return model(
        nodes, [helper.make_tensor_value_info("x", f, [2, 5, 8])],
        [helper.make_tensor_value_info("hidden", f, [2, 5, 6]),
         helper.make_tensor_value_info("hidden_u", f, [2, 5, 6]),
         helper.make_tensor_value_info("acc8", TensorProto.INT32, [2, 5, 6]),
         helper.make_tensor_value_info("xq", TensorProto.UINT8, [2, 5, 8]),
         helper.make_tensor_value_info("x_scale", f, []),
         helper.make_tensor_value_info("x_zero", TensorProto.UINT8, []),
         helper.make_tensor_value_info("zq", TensorProto.UINT8, [2, 5, 8]),
         helper.make_tensor_value_info("z_scale", f, []),
         helper.make_tensor_value_info("z_zero", TensorProto.UINT8, [])],
        inits)


def quantized(path):
    from onnxruntime.quantization import QuantType, quantize_dynamic

    inits = [init("w1", (rng.standard_normal((16, 32)) * 0.3).astype(np.float32)),
             init("b1", (rng.standard_normal(32) * 0.1).astype(np.float32)),
             init("w2", (rng.standard_normal((32, 8)) * 0.3).astype(np.float32)),
             init("b2", (rng.standard_normal(8) * 0.1).astype(np.float32))]
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"], "fc1"),
             helper.make_node("Add", ["h", "b1"], ["hb"], "bias1"),
             helper.make_node("Relu", ["hb"], ["r"], "relu"),
             helper.make_node("MatMul", ["r", "w2"], ["o"], "fc2"),
             helper.make_node("Add", ["o", "b2"], ["y"], "bias2")]
    f = TensorProto.FLOAT
    float_model = model(nodes, [helper.make_tensor_value_info("x", f, [2, 7, 16])],
                        [helper.make_tensor_value_info("y", f, [2, 7, 8])], inits)
    with tempfile.TemporaryDirectory() as folder:
        float_path = os.path.join(folder, "float.onnx")
        onnx.save(float_model, float_path)
        quantize_dynamic(float_path, path, weight_type=QuantType.QInt8)


# ConvInteger layers over one DynamicQuantizeLinear output: (name, filters, kernel,
# strides, pads, group). Channel counts that are multiples of 16 take the int8
# micro-kernels (dense and depthwise); the grouped one, glow-graph-to-linalg's lowering.
CONVS = [
    ("dense", 24, 3, 1, [1, 1, 1, 1], 1),
    ("strided", 16, 3, 2, [1, 1, 1, 1], 1),
    ("pointwise", 16, 1, 1, [0, 0, 0, 0], 1),
    ("uneven", 16, 3, 1, [0, 1, 2, 1], 1),
    ("depthwise", 32, 3, 1, [1, 1, 1, 1], 32),
    ("depthwise_s2", 32, 5, 2, [2, 2, 2, 2], 32),
    ("grouped", 8, 3, 1, [1, 1, 1, 1], 4),
]


def convs(weights):
    """`weights`: uint8 (zero points around 128, as onnxruntime runs them) or int8."""
    channels, inits, nodes, outputs = 32, [], [], []
    nodes.append(helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "x_scale", "x_zero"], "quantize_x"))
    for name, filters, kernel, stride, pads, group in CONVS:
        shape = (filters, channels // group, kernel, kernel)
        if weights == "uint8":
            w = rng.integers(0, 256, shape).astype(np.uint8)
            zero = np.array(rng.integers(100, 156), np.uint8)
        else:
            w = rng.integers(-128, 128, shape).astype(np.int8)
            zero = np.array(0, np.int8)
        inits += [init(f"{name}_w", w), init(f"{name}_wz", zero)]
        nodes.append(helper.make_node(
            "ConvInteger", ["xq", f"{name}_w", "x_zero", f"{name}_wz"], [name], name,
            kernel_shape=[kernel, kernel], strides=[stride, stride], pads=pads, group=group))
        outputs.append(helper.make_tensor_value_info(name, TensorProto.INT32, None))
    return model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, 10, 9])],
                 outputs, inits)


def conv_huge_pads():
    """Pads of 100,000 on an 8 x 8 input: a result over --max-tensor-bytes (refused)."""
    inits = [init("w", rng.integers(0, 256, (4, 3, 3, 3)).astype(np.uint8))]
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "x_scale", "x_zero"], "quantize_x"),
        helper.make_node("ConvInteger", ["xq", "w", "x_zero"], ["y"], "conv", pads=[100000] * 4),
    ]
    return model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                 [helper.make_tensor_value_info("y", TensorProto.INT32, None)], inits)


def conv_runtime_filter():
    """A run-time input zero point with a filter that is a graph input (refused)."""
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "x_scale", "x_zero"], "quantize_x"),
        helper.make_node("ConvInteger", ["xq", "w", "x_zero"], ["y"], "conv"),
    ]
    return model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
                         helper.make_tensor_value_info("w", TensorProto.UINT8, [4, 3, 3, 3])],
                 [helper.make_tensor_value_info("y", TensorProto.INT32, [1, 4, 6, 6])], [])


def conv_bad_zero_point(shape, element):
    """ConvInteger whose input zero point is a graph input of `shape` and `element`
    (refused unless one uint8 value per tensor)."""
    inits = [init("w", rng.integers(0, 256, (4, 3, 3, 3)).astype(np.uint8))]
    nodes = [helper.make_node("ConvInteger", ["xq", "w", "x_zero"], ["y"], "conv")]
    return model(nodes, [helper.make_tensor_value_info("xq", TensorProto.UINT8, [1, 3, 8, 8]),
                         helper.make_tensor_value_info("x_zero", element, shape)],
                 [helper.make_tensor_value_info("y", TensorProto.INT32, None)], inits)


def check_reference(path, glow_bin, seed):
    """Runs `path` through glow-run and ONNX's reference evaluator (onnxruntime has no
    ConvInteger for int8 weights); prints the largest difference of each output."""
    import subprocess

    from onnx.reference import ReferenceEvaluator

    m = onnx.load(path)
    x = np.random.default_rng(0).standard_normal((1, 32, 10, 9)).astype(np.float32)
    if seed == "positive":
        x = np.abs(x)
    elif seed == "negative":
        x = -np.abs(x)
    else:
        x = np.random.default_rng(int(seed)).standard_normal(x.shape).astype(np.float32) * 3 + 1
    expected = dict(zip([o.name for o in m.graph.output], ReferenceEvaluator(m).run(None, {"x": x})))
    with tempfile.TemporaryDirectory() as folder:
        np.save(os.path.join(folder, "x.npy"), x)
        subprocess.run([os.path.join(glow_bin, "glow-run"), path, "--input", f"x={folder}/x.npy",
                        "--output-dir", folder], check=True, capture_output=True)
        for name, want in expected.items():
            got = np.load(os.path.join(folder, f"{name}.npy"))
            assert got.shape == want.shape, (name, got.shape, want.shape)
            diff = np.abs(got.astype(np.int64) - want.astype(np.int64)).max()
            print(f"output {name}: {want.size} values, max |glow - reference| = {diff}")


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "quantized":
        quantized(out)
        return
    if kind == "check-reference":
        check_reference(out, sys.argv[3], sys.argv[4])
        return
    builders = {"ops": ops, "conv-uint8": lambda: convs("uint8"), "conv-int8": lambda: convs("int8"),
                "conv-runtime-filter": conv_runtime_filter, "conv-huge-pads": conv_huge_pads,
                "conv-zero-point-per-channel": lambda: conv_bad_zero_point([3], TensorProto.UINT8),
                "conv-zero-point-int8": lambda: conv_bad_zero_point([], TensorProto.INT8)}
    onnx.save(builders[kind](), out)


if __name__ == "__main__":
    main()
