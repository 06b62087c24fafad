"""An ONNX model with upsampling ConvTranspose layers (kernel == strides: square with
bias, non-square without), as U-Net decoders chain them, and overlapping ones for the
phase decomposition: kernel 4 / stride 2 / pads 1 (GAN generators), stride 1, kernel 4
/ stride 3 (phases with different tap counts), output_padding, asymmetric pads that
crop the input, SAME_UPPER, output_shape.

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
                          strides=[2, 2], pads=[1, 1, 1, 1]),
         helper.make_node("ConvTranspose", ["x", "w_k3"], ["stride1"], pads=[1, 0, 1, 2]),
         helper.make_node("ConvTranspose", ["x", "w_overlap"], ["uneven"], strides=[3, 2],
                          output_padding=[2, 1]),
         helper.make_node("ConvTranspose", ["x", "w_k3"], ["cropped"], strides=[2, 2],
                          pads=[3, 2, 0, 4]),
         helper.make_node("ConvTranspose", ["x", "w_k3", "b_overlap"], ["same"], strides=[2, 3],
                          auto_pad="SAME_UPPER"),
         helper.make_node("ConvTranspose", ["x", "w_overlap"], ["shaped"], strides=[2, 2],
                          output_shape=[11, 15])]
initializers = [weight("w_up", 8, 6, 2, 2), weight("b_up", 6), weight("w_wide", 6, 4, 3, 2),
                weight("w_overlap", 8, 4, 4, 4), weight("b_overlap", 4), weight("w_k3", 8, 4, 3, 3)]
graph = helper.make_graph(nodes, "conv_transpose",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8, 5, 7])],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                           for n in ("up", "wide", "overlap", "stride1", "uneven", "cropped",
                                     "same", "shaped")],
                          initializers)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8),
          sys.argv[1])
