"""An embedding lookup as an ONNX model: Gather of a constant 50 x WIDTH table by int64
ids [3, 7], times 2. Usage: embedding.py OUT.onnx WIDTH"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

path, width = sys.argv[1], int(sys.argv[2])
table = np.random.default_rng(0).standard_normal((50, width)).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("Gather", ["table", "ids"], ["rows"], axis=0),
     helper.make_node("Add", ["rows", "rows"], ["y"])],
    "embedding",
    [helper.make_tensor_value_info("ids", TensorProto.INT64, [3, 7])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 7, width])],
    [numpy_helper.from_array(table, "table")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, path)
