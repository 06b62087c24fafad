"""ONNX models with GridSample (opset 16, as torch.onnx writes F.grid_sample): one
output per interpolation mode / padding mode / align_corners combination, on an
image and a grid given as inputs; and malformed ones.

Usage: grid_sample.py KIND OUTPUT.onnx
"""
import sys

import onnx
from onnx import TensorProto, helper

F = TensorProto.FLOAT
COMBINATIONS = [("bilinear", "zeros", 0), ("bilinear", "border", 1), ("bilinear", "reflection", 0),
                ("nearest", "zeros", 1), ("nearest", "reflection", 1), ("bicubic", "zeros", 0),
                ("bicubic", "border", 1), ("bicubic", "reflection", 0)]


def value(name, shape):
    return helper.make_tensor_value_info(name, F, shape)


def save(nodes, inputs, outputs, path, opset=16):
    graph = helper.make_graph(nodes, "grid_sample", inputs, outputs)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8), path)


def modes(path):
    nodes, outputs = [], []
    for mode, padding, align in COMBINATIONS:
        name = f"{mode}_{padding}_{align}"
        nodes.append(helper.make_node("GridSample", ["x", "grid"], [name], name=name, mode=mode,
                                      padding_mode=padding, align_corners=align))
        outputs.append(value(name, None))
    save(nodes, [value("x", [2, 3, 5, 7]), value("grid", [2, 4, 6, 2])], outputs, path)


def transformer(path):
    """A spatial transformer's sampling (opset 20): AffineGrid from theta for a 2 x 3 x
    6 x 5 output, then GridSample of the image with it, for both align_corners."""
    import numpy as np
    from onnx import numpy_helper
    size = numpy_helper.from_array(np.array([2, 3, 6, 5], np.int64), "size")
    nodes, outputs = [], []
    for align in (0, 1):
        nodes += [helper.make_node("AffineGrid", ["theta", "size"], [f"grid{align}"], name=f"grid{align}",
                                   align_corners=align),
                  helper.make_node("GridSample", ["x", f"grid{align}"], [f"y{align}"], name=f"sample{align}",
                                   mode="linear", align_corners=align)]
        outputs += [value(f"grid{align}", None), value(f"y{align}", None)]
    graph = helper.make_graph(nodes, "transformer", [value("x", [2, 3, 5, 7]), value("theta", [2, 2, 3])],
                              outputs, [size])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=9), path)


def bad(path, kind):
    x_shape, grid_shape, mode = [1, 1, 4, 4], [1, 3, 3, 2], "bilinear"
    if kind == "grid-shape":
        grid_shape = [1, 3, 3, 3]
    if kind == "mode":
        mode = "area"
    node = helper.make_node("GridSample", ["x", "grid"], ["y"], name="sample", mode=mode)
    save([node], [value("x", x_shape), value("grid", grid_shape)], [value("y", None)], path)


def hostile(folder):
    """An image and a grid holding NaN, infinities and a huge coordinate (.npy files)."""
    import numpy as np
    rng = np.random.default_rng(0)
    grid = rng.standard_normal((2, 4, 6, 2)).astype(np.float32)
    grid[0, 0, 0, 0], grid[0, 1, 1, 1], grid[1, 2, 2, 0], grid[1, 3, 3, 1] = np.nan, np.inf, -np.inf, 1e30
    np.save(f"{folder}/grid.npy", grid)
    np.save(f"{folder}/x.npy", rng.standard_normal((2, 3, 5, 7)).astype(np.float32))


kind, out = sys.argv[1], sys.argv[2]
if kind == "modes":
    modes(out)
elif kind == "hostile":
    hostile(out)
elif kind == "transformer":
    transformer(out)
else:
    bad(out, kind)
