"""An ONNX model with upsampling ConvTranspose layers (kernel == strides: square with
bias, non-square without) and an overlapping one (kernel 4, stride 2, pads 1) after
them, as U-Net and GAN decoders chain them.

Usage: conv_transpose.py OUTPUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(0)


def weight(name, *shape):
    return numpy_helper.from_array((RNG.standard_normal(shape) * 0.3).astype(np.float32), name)


nodes = [helper.make_node("ConvTranspose", ["x", "w_up", "b_up"], ["up"], strides=[2, 2]),
         helper.make_node("Relu", ["up"], ["up_relu"]),
         helper.make_node("ConvTranspose", ["up_relu", "w_wide"], ["wide"], strides=[3, 2]),
         helper.make_node("ConvTranspose", ["x", "w_overlap", "b_overlap"], ["overlap"],
                          strides=[2, 2], pads=[1, 1, 1, 1])]
initializers = [weight("w_up", 8, 6, 2, 2), weight("b_up", 6), weight("w_wide", 6, 4, 3, 2),
                weight("w_overlap", 8, 4, 4, 4), weight("b_overlap", 4)]
graph = helper.make_graph(nodes, "conv_transpose",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8, 5, 7])],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                           for n in ("up", "wide", "overlap")],
                          initializers)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8),
          sys.argv[1])
