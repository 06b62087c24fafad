"""ONNX models with 3-D convolutions, as video and volumetric networks use them.

Usage: volumetric.py KIND OUTPUT.onnx
  convs       Conv 3-D: a padded 3x3x3 with bias, a depth-strided dilated (3, 1, 1)
              without, a grouped SAME_UPPER (2, 3, 3) with strides 2, a
              depthwise 3x3x3, a pointwise one, a Conv whose filter is a graph input;
              then GlobalAveragePool / GlobalMaxPool over 3-D
  transposed  ConvTranspose 3-D: stride 2 with pads and output_padding and bias, a
              grouped one dilated in depth, one sized by output_shape (SAME_LOWER)
  bad-group   a Conv 3-D whose filter does not fit the input channels with its group
  four-d      a Conv over four spatial dimensions
  deep        a Conv 3-D whose filter has 300 depth taps (each would be a 2-D conv)
  huge-group  a Conv 3-D and a ConvTranspose 3-D with group 2^62 (channels times group
              overflows)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
RNG = np.random.default_rng(0)


def weight(name, *shape):
    return numpy_helper.from_array((RNG.standard_normal(shape) * 0.2).astype(np.float32), name)


def model(nodes, inputs, outputs, initializers):
    graph = helper.make_graph(nodes, "volumetric",
                              [helper.make_tensor_value_info(n, F, s) for n, s in inputs],
                              [helper.make_tensor_value_info(n, F, None) for n in outputs],
                              initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def convs():
    conv = helper.make_node
    nodes = [
        conv("Conv", ["x", "w_a", "b_a"], ["a"], name="padded", kernel_shape=[3, 3, 3],
             pads=[1, 1, 1, 1, 1, 1]),
        conv("Relu", ["a"], ["a_relu"]),
        conv("Conv", ["a_relu", "w_b"], ["b"], name="temporal", strides=[2, 1, 1],
             dilations=[2, 1, 1], pads=[2, 0, 0, 1, 0, 0]),
        conv("Conv", ["x", "w_c", "b_c"], ["c"], name="grouped", group=2, strides=[2, 2, 2],
             auto_pad="SAME_UPPER"),
        conv("Conv", ["x", "w_d"], ["d"], name="depthwise", group=4, pads=[0, 1, 1, 2, 1, 1]),
        conv("Conv", ["x", "w_e", "b_e"], ["e"], name="pointwise"),
        conv("Conv", ["x", "w_input"], ["f"], name="runtime_filter", pads=[1, 0, 0, 1, 0, 0]),
        conv("GlobalAveragePool", ["a"], ["mean"]),
        conv("GlobalMaxPool", ["a"], ["max"]),
    ]
    initializers = [weight("w_a", 8, 4, 3, 3, 3), weight("b_a", 8), weight("w_b", 6, 8, 3, 1, 1),
                    weight("w_c", 6, 2, 2, 3, 3), weight("b_c", 6), weight("w_d", 4, 1, 3, 3, 3),
                    weight("w_e", 5, 4, 1, 1, 1), weight("b_e", 5)]
    inputs = [("x", [2, 4, 5, 6, 7]), ("w_input", [3, 4, 2, 2, 2])]
    return model(nodes, inputs, ["a", "b", "c", "d", "e", "f", "mean", "max"], initializers)


def transposed():
    node = helper.make_node
    nodes = [
        node("ConvTranspose", ["x", "w_a", "b_a"], ["a"], name="upsample", strides=[2, 2, 2],
             pads=[1, 1, 1, 1, 1, 1], output_padding=[1, 1, 1]),
        node("ConvTranspose", ["x", "w_b"], ["b"], name="grouped", group=2, strides=[2, 1, 2],
             dilations=[2, 1, 1]),
        node("ConvTranspose", ["x", "w_c", "b_c"], ["c"], name="sized", strides=[3, 2, 2],
             output_shape=[8, 7, 9], auto_pad="SAME_LOWER"),
    ]
    initializers = [weight("w_a", 4, 3, 3, 3, 3), weight("b_a", 3), weight("w_b", 4, 2, 2, 2, 2),
                    weight("w_c", 4, 2, 3, 3, 3), weight("b_c", 2)]
    return model(nodes, [("x", [1, 4, 3, 4, 5])], ["a", "b", "c"], initializers)


def bad_group():
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="misfit", group=3)]
    return model(nodes, [("x", [1, 4, 3, 3, 3])], ["y"], [weight("w", 6, 2, 1, 1, 1)])


def four_d():
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="hyper")]
    return model(nodes, [("x", [1, 2, 3, 3, 3, 3])], ["y"], [weight("w", 2, 2, 1, 1, 1, 1)])


def deep():
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="deep")]
    return model(nodes, [("x", [1, 1, 300, 2, 2])], ["y"], [weight("w", 1, 1, 300, 2, 2)])


def huge_group():
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="huge", group=2 ** 62),
             helper.make_node("ConvTranspose", ["x", "w"], ["z"], name="huge_t", group=2 ** 62)]
    return model(nodes, [("x", [1, 2, 2, 2, 2])], ["y", "z"], [weight("w", 2, 2, 1, 1, 1)])


def main():
    kinds = {"convs": convs, "transposed": transposed, "bad-group": bad_group, "four-d": four_d,
             "deep": deep, "huge-group": huge_group}
    onnx.save(kinds[sys.argv[1]](), sys.argv[2])


if __name__ == "__main__":
    main()
