"""Times ResNet-50's convolution shapes one at a time through Glow (glow-run) and
onnxruntime in the same run, single-threaded, to show which layers lose the most.

Usage: benchmark_conv_layers.py [--repeat N] [--bin DIR]

Each layer is a one-node ONNX model (Conv with constant random weights and bias, NCHW
input) built with onnx's helper API into .cache/conv-layers/, run by both engines.
Both pay layout conversions at the model's boundary (Glow: NCHW <-> NHWC transposes
of the activations; onnxruntime: its NCHWc reorders), which a whole network pays once
for all its layers; so Glow also runs the same layer as `glow.graph.conv2d ...
channels_last` on NHWC tensors (the form every inner layer of a network takes after
glow-channels-last), column "glow NHWC". Timing is benchmark.py's: the median of
--repeat runs after a warm-up.
"""
import argparse
import pathlib
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import benchmark  # noqa: E402

# (input channels, output channels, input size, kernel, stride) of ResNet-50's
# distinct convolutions.
LAYERS = [
    (3, 64, 224, 7, 2),
    (64, 64, 56, 1, 1), (64, 64, 56, 3, 1), (64, 256, 56, 1, 1), (256, 64, 56, 1, 1),
    (256, 128, 56, 1, 2), (128, 128, 28, 3, 1), (128, 512, 28, 1, 1), (512, 128, 28, 1, 1),
    (512, 256, 28, 1, 2), (256, 256, 14, 3, 1), (256, 1024, 14, 1, 1),
    (1024, 256, 14, 1, 1), (1024, 512, 14, 1, 2), (512, 512, 7, 3, 1),
    (512, 2048, 7, 1, 1), (2048, 512, 7, 1, 1),
]


def conv_model(path, channels, filters, size, kernel, stride, rng):
    pad = kernel // 2
    weights = (rng.standard_normal((filters, channels, kernel, kernel)) * 0.05).astype(np.float32)
    bias = rng.standard_normal(filters).astype(np.float32)
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], strides=[stride, stride],
                            pads=[pad] * 4, kernel_shape=[kernel, kernel])
    graph = helper.make_graph(
        [node], "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, size, size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(weights, "w"), numpy_helper.from_array(bias, "b")])
    # IR version 9 so onnxruntime 1.23 reads it.
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    onnx.save(model, path)


def nhwc_module(path, model):
    """The layer of `model` as glow.graph on NHWC tensors, with the same weights."""
    weights, bias = (numpy_helper.to_array(t) for t in model.graph.initializer)
    filters, channels, kernel, _ = weights.shape
    node = model.graph.node[0]
    stride = next(a.ints[0] for a in node.attribute if a.name == "strides")
    pad = kernel // 2
    size = model.graph.input[0].type.tensor_type.shape.dim[2].dim_value
    out = (size + 2 * pad - kernel) // stride + 1
    x = f"tensor<1x{size}x{size}x{channels}xf32>"
    y = f"tensor<1x{out}x{out}x{filters}xf32>"
    w = f"tensor<{filters}x{channels}x{kernel}x{kernel}xf32>"
    path.write_text(f"""func.func @main(%x: {x}) -> {y} {{
  %w = glow.graph.constant dense<"0x{weights.tobytes().hex()}"> : {w}
  %b = glow.graph.constant dense<"0x{bias.tobytes().hex()}"> : tensor<{filters}xf32>
  %y = glow.graph.conv2d %x, %w, %b strides [{stride}, {stride}] pads [{pad}, {pad}, {pad}, {pad}] channels_last : ({x}, {w}, tensor<{filters}xf32>) -> {y}
  return %y : {y}
}}
""")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--bin", default=str(benchmark.ROOT / "target" / "release"))
    arguments = parser.parse_args()
    folder = benchmark.ROOT / ".cache" / "conv-layers"
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    print(f"{'layer (C->F, size, k, stride)':<32} {'GFLOP':>6} {'glow ms':>8} "
          f"{'glow NHWC':>9} {'ort ms':>8} {'NHWC GF/s':>9} {'ort GF/s':>9} "
          f"{'glow/ort':>8} {'NHWC/ort':>8}")
    total_glow = total_nhwc = total_ort = 0.0
    for channels, filters, size, kernel, stride in LAYERS:
        name = f"conv_{channels}_{filters}_{size}_{kernel}_{stride}"
        path = folder / f"{name}.onnx"
        conv_model(path, channels, filters, size, kernel, stride, rng)
        out = (size + 2 * (kernel // 2) - kernel) // stride + 1
        gflop = 2 * out * out * filters * channels * kernel * kernel / 1e9
        shapes = {"x": [1, channels, size, size]}
        glow_ms, _ = benchmark.time_glow(pathlib.Path(arguments.bin), path, shapes,
                                         arguments.repeat)
        nhwc = folder / f"{name}.nhwc.mlir"
        nhwc_module(nhwc, onnx.load(path))
        nhwc_ms, _ = benchmark.time_glow(pathlib.Path(arguments.bin), nhwc, {}, arguments.repeat)
        feeds = {"x": rng.standard_normal(shapes["x"]).astype(np.float32)}
        ort_ms, _ = benchmark.time_onnxruntime(path, feeds, arguments.repeat)
        total_glow += glow_ms
        total_nhwc += nhwc_ms
        total_ort += ort_ms
        label = f"{channels}->{filters}, {size}x{size}, {kernel}x{kernel}, s{stride}"
        print(f"{label:<32} {gflop:6.3f} {glow_ms:8.3f} {nhwc_ms:9.3f} {ort_ms:8.3f} "
              f"{gflop / nhwc_ms * 1e3:9.1f} {gflop / ort_ms * 1e3:9.1f} "
              f"{glow_ms / ort_ms:8.2f} {nhwc_ms / ort_ms:8.2f}")
    print(f"{'sum (one of each layer)':<32} {'':>6} {total_glow:8.3f} {total_nhwc:9.3f} "
          f"{total_ort:8.3f} {'':>9} {'':>9} {total_glow / total_ort:8.2f} "
          f"{total_nhwc / total_ort:8.2f}")
    print("ratios are glow time / onnxruntime time: below 1 means Glow is faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
