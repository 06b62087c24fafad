"""Glow on MLIR from Python.

    import glow
    model = glow.compile("model.onnx", input_shapes={"input": (1, 3, 224, 224)})
    logits = model(x)                         # or model.run({"input": x}) -> {name: array}
    dynamic = glow.compile("bert.onnx")       # symbolic dims left open: one compilation per shape
    model.save_bundle("bundle/")              # NAME.o / .so / .weights / .h / .json

`compile` runs glow's own tools (glow-run for calibration, glow-compile for the bundle)
and loads the bundle with ctypes; docs/python.md says why.
"""
from ._bundle import Bundle, load_bundle
from ._compile import compile
from ._dynamic import DynamicModel
from ._errors import GlowError

__all__ = ["Bundle", "DynamicModel", "GlowError", "compile", "load_bundle"]
