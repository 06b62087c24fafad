"""Glow on MLIR from Python.

    import glow
    model = glow.compile("model.onnx", input_shapes={"input": (1, 3, 224, 224)})
    logits = model(x)                         # or model.run({"input": x}) -> {name: array}
    model.save_bundle("bundle/")              # NAME.o / .so / .weights / .h / .json

`compile` runs glow's own tools (glow-run for calibration, glow-compile for the bundle)
and loads the bundle with ctypes; docs/python.md says why.
"""
from ._bundle import Bundle, load_bundle
from ._compile import compile
from ._errors import GlowError

__all__ = ["Bundle", "GlowError", "compile", "load_bundle"]
