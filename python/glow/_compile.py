"""glow.compile: ONNX (or glow.graph .mlir) -> a loaded bundle, optionally int8 from
calibration arrays."""
from __future__ import annotations

import atexit
import pathlib
import shutil
import tempfile
from typing import Any, Mapping, Sequence

import numpy as np

from ._bundle import Bundle
from ._dynamic import DynamicModel, parse_signature
from ._errors import GlowError
from ._tools import run, tool

_SCHEMAS = ("asymmetric", "symmetric", "symmetric_uint8", "symmetric_pow2")
_CALIBRATIONS = ("minmax", "kl", "percentile")


def _shape_flags(input_shapes: Mapping[str, Sequence[int]] | None) -> list[str]:
    flags = []
    for name, dims in (input_shapes or {}).items():
        if len(dims) == 0:
            # A scalar has no dimension to pin (and --input-shape cannot spell rank 0).
            continue
        if not all(isinstance(d, (int, np.integer)) and d >= 0 for d in dims):
            raise ValueError(f"input_shapes['{name}']: {list(dims)} is not a list of "
                             "non-negative integers")
        flags += ["--input-shape", f"{name}={'x'.join(str(int(d)) for d in dims)}"]
    return flags


def compile(model: str | pathlib.Path, input_shapes: Mapping[str, Sequence[int]] | None = None,
            quantize: Mapping[str, Any] | None = None, threads: int = 1,
            schema: str = "asymmetric", calibration: str = "minmax",
            keep_float: Sequence[str] = (), name: str | None = None,
            function: str = "main", max_shapes: int = 8,
            freeze_inputs: Mapping[str, Any] | None = None) -> Bundle | DynamicModel:
    """Compiles `model` (.onnx or .mlir) for this CPU and loads it.

    input_shapes pins symbolic input dimensions ({"input": (1, 3, 224, 224)}). An ONNX
    model whose inputs keep symbolic dimensions that input_shapes does not pin comes
    back as a `DynamicModel`, compiled for each new combination of input shapes at its
    first call (at most max_shapes compilations kept).
    quantize, a mapping from each input name to calibration samples (an array whose
    first axis counts samples), profiles the model on them (glow-run --calibration)
    and compiles it to int8 with `schema` and `calibration` (minmax, kl, percentile),
    keeping the op kinds in keep_float in float. function: the function of a .mlir
    module to compile. threads: the OpenMP threads each call runs the kernels on (1,
    the default: sequential code on the caller's thread); more links the bundle with
    LLVM's OpenMP runtime (glow-compile --threads). freeze_inputs binds ONNX inputs to
    constant arrays (glow-compile --freeze-input): they stop being inputs of the compiled
    model, and shapes or branches that depend on them become static.
    """
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) \
            or not 1 <= threads <= 1024:
        raise ValueError(f"threads={threads!r}: a thread count from 1 to 1024")
    if schema not in _SCHEMAS:
        raise ValueError(f"schema '{schema}' is not one of {', '.join(_SCHEMAS)}")
    if calibration not in _CALIBRATIONS:
        raise ValueError(f"calibration '{calibration}' is not one of {', '.join(_CALIBRATIONS)}")
    model = pathlib.Path(model)
    if not model.exists():
        raise GlowError(f"cannot read '{model}': No such file or directory")
    frozen = {str(n): np.asarray(a) for n, a in (freeze_inputs or {}).items()}
    if frozen and model.suffix == ".mlir":
        raise ValueError("freeze_inputs binds ONNX inputs; a .mlir module has none to freeze")
    options = dict(quantize=quantize, threads=threads, schema=schema, calibration=calibration,
                   keep_float=keep_float, name=name, function=function, frozen=frozen)
    _shape_flags(input_shapes)
    if model.suffix != ".mlir":
        inputs, outputs = parse_signature(run([tool("glow-import"), str(model), "--print-signature"]))
        unknown = sorted(set(frozen) - {p.name for p in inputs})
        if unknown:
            raise ValueError(f"freeze_inputs names {', '.join(unknown)}, not inputs of the model "
                             f"(inputs: {', '.join(p.name for p in inputs)})")
        inputs = [p for p in inputs if p.name not in frozen]
        pinned = dict(input_shapes or {})
        open_inputs = [p.name for p in inputs if p.dynamic and p.name not in pinned]
        # An input without a declared shape needs input_shapes: glow-compile says so.
        shapeless = any(p.dims is None and p.name not in pinned for p in inputs)
        if open_inputs and not shapeless:
            if quantize is not None:
                raise ValueError(f"quantize needs static input shapes: pin "
                                 f"{', '.join(open_inputs)} with input_shapes")

            def compile_shapes(shapes):
                return _compile_static(model, shapes, **options)
            dynamic = DynamicModel(inputs, outputs, compile_shapes, int(threads), max_shapes)
            dynamic.pin(pinned)
            if dynamic.open:
                return dynamic
            # The pins fixed every symbol: one static bundle.
            return _compile_static(model, dynamic.declared_shapes(), **options)
    return _compile_static(model, input_shapes, **options)


def _compile_static(model: pathlib.Path, input_shapes, quantize, threads, schema, calibration,
                    keep_float, name, function, frozen) -> Bundle:
    shapes = _shape_flags(input_shapes)
    work = pathlib.Path(tempfile.mkdtemp(prefix="glow-"))
    atexit.register(shutil.rmtree, work, True)
    for index, (input_name, array) in enumerate(frozen.items()):
        path = work / f"frozen{index}.npy"
        np.save(path, array)
        shapes += ["--freeze-input", f"{input_name}={path}"]
    bundle_name = name or "model"
    command = [tool("glow-compile"), str(model), "--output-dir", str(work), "--name",
               bundle_name, "--threads", str(int(threads)), *shapes]
    if model.suffix == ".mlir":
        command += ["--function", function]
    if quantize is not None:
        samples = {}
        for input_name, array in quantize.items():
            array = np.asarray(array)
            if array.ndim < 1 or array.shape[0] == 0:
                raise ValueError(f"quantize['{input_name}']: calibration arrays need a "
                                 "first axis of samples")
            samples[input_name] = array
        calibration_file, profile = work / "calibration.npz", work / "profile.yaml"
        np.savez(calibration_file, **samples)
        run([tool("glow-run"), str(model), *shapes, "--calibration", str(calibration_file),
             "--dump-profile", str(profile)])
        command += ["--load-profile", str(profile), "--quantization-schema", schema,
                    "--quantization-calibration", calibration]
        if keep_float:
            command += ["--keep-float", ",".join(keep_float)]
    run(command)
    return Bundle(work, bundle_name)
