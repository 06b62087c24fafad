"""A glow-compile bundle loaded with ctypes: its manifest (NAME.json), weights and
shared library; inputs and outputs checked by name, shape and dtype."""
from __future__ import annotations

import ctypes
import json
import os
import pathlib
import shutil
import threading
from typing import Any, Mapping, Sequence

import numpy as np

from ._errors import GlowError
from ._tools import link_shared

# The spelling glow-run uses for element types in its messages.
_MESSAGE_NAMES = {"f32": "F32", "f64": "F64", "f16": "F16", "bf16": "BF16", "i64": "I64",
                  "i32": "I32", "i16": "I16", "i8": "I8", "ui64": "U64", "ui32": "U32",
                  "ui16": "U16", "ui8": "U8", "i1": "Bool"}


def _numpy_dtype(element_type: str, npy_descr: str) -> np.dtype:
    if element_type == "bf16":
        try:
            import ml_dtypes
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise GlowError("a bf16 port needs the ml_dtypes package (pip install ml_dtypes)") \
                from error
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(npy_descr)


def _describe(dtype: np.dtype, shape: Sequence[int]) -> str:
    names = {np.dtype(np.float32): "F32", np.dtype(np.float64): "F64",
             np.dtype(np.float16): "F16", np.dtype(np.int64): "I64", np.dtype(np.int32): "I32",
             np.dtype(np.int16): "I16", np.dtype(np.int8): "I8", np.dtype(np.uint64): "U64",
             np.dtype(np.uint32): "U32", np.dtype(np.uint16): "U16", np.dtype(np.uint8): "U8",
             np.dtype(np.bool_): "Bool"}
    return f"{names.get(dtype, str(dtype))} {list(shape)}"


def _aligned(size: int, alignment: int) -> np.ndarray:
    """`size` zeroed bytes whose address is a multiple of `alignment`."""
    raw = np.zeros(size + alignment, dtype=np.uint8)
    start = (-raw.ctypes.data) % alignment
    return raw[start:start + size]


class _Port:
    def __init__(self, entry: Mapping[str, Any]):
        self.name: str = entry["name"]
        self.shape = tuple(int(d) for d in entry["shape"])
        self.element_type: str = entry["element_type"]
        self.dtype = _numpy_dtype(entry["element_type"], entry["npy_descr"])
        self.offset = int(entry["offset"])
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * int(entry["element_size"])

    def expected(self) -> str:
        return f"{_MESSAGE_NAMES.get(self.element_type, self.element_type)} {list(self.shape)}"


class _ArrayModel:
    """What every model of the package shares: calls with arrays in input order, and
    the check of the names a `run` is given. Subclasses define `input_names`,
    `output_names` and `run`."""

    input_names: list[str]
    output_names: list[str]

    def run(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def _check_names(self, inputs: Mapping[str, Any]) -> None:
        unknown = [n for n in inputs if n not in self.input_names]
        if unknown:
            raise ValueError(f"'{unknown[0]}' is not an input "
                             f"(inputs: {', '.join(self.input_names)})")
        missing = [n for n in self.input_names if n not in inputs]
        if missing:
            raise ValueError(f"input '{missing[0]}' is missing "
                             f"(inputs: {', '.join(self.input_names)})")

    def __call__(self, *arrays: Any) -> np.ndarray | list[np.ndarray]:
        """Runs the model on arrays given in input order."""
        if len(arrays) != len(self.input_names):
            raise ValueError(f"the model takes {len(self.input_names)} input(s) "
                             f"({', '.join(self.input_names)}), got {len(arrays)}")
        outputs = self.run(dict(zip(self.input_names, arrays)))
        values = [outputs[name] for name in self.output_names]
        return values[0] if len(values) == 1 else values


class Bundle(_ArrayModel):
    """A compiled model: call it with arrays in input order (`model(x)`, outputs as a
    list, or the single output), or `model.run({"name": x})` (outputs by name)."""

    def __init__(self, directory: str | pathlib.Path, name: str | None = None):
        directory = pathlib.Path(directory)
        manifests = [directory / f"{name}.json"] if name else sorted(directory.glob("*.json"))
        manifests = [m for m in manifests if m.exists()]
        if len(manifests) != 1:
            raise GlowError(f"'{directory}' holds no single glow bundle manifest (NAME.json)")
        self._manifest_path = manifests[0]
        manifest = json.loads(manifests[0].read_text())
        if manifest.get("format") != "glow-bundle" or manifest.get("version") != 1:
            raise GlowError(f"'{manifests[0]}' is not a version 1 glow bundle manifest")
        self.directory = directory
        self.name: str = manifest["name"]
        self.inputs = [_Port(p) for p in manifest["inputs"]]
        self.outputs = [_Port(p) for p in manifest["outputs"]]
        self._errors: list[str] = list(manifest["errors"])
        alignment = int(manifest["alignment"])
        self._constant = _aligned(int(manifest["constant_weights_size"]), alignment)
        weights = np.fromfile(directory / manifest["weights"], dtype=np.uint8)
        if weights.size != self._constant.size:
            raise GlowError(f"'{directory / manifest['weights']}' holds {weights.size} bytes, "
                            f"the bundle needs {self._constant.size}")
        self._constant[:] = weights
        self._mutable = _aligned(int(manifest["mutable_weights_size"]), alignment)
        self._activations = _aligned(int(manifest["activations_size"]), alignment)
        # Threads of the bundle's kernels (manifests before threaded bundles: 1).
        self.threads: int = int(manifest.get("threads", 1))
        if self.threads > 1:
            # libomp's idle workers spin 200 ms by default after each call, taking the
            # cores from the rest of the process; 1 ms, as glow-run sets it, unless set.
            os.environ.setdefault("KMP_BLOCKTIME", "1")
        library = directory / f"{self.name}.so"
        if not library.exists():
            link_shared(directory / manifest["object"], library,
                        manifest.get("libraries", ["m"]), manifest.get("library_dirs", []))
        self._library = ctypes.CDLL(str(library))
        self._entry = getattr(self._library, manifest["entry"])
        self._entry.argtypes = [ctypes.c_void_p] * 3
        self._entry.restype = None
        self._status = getattr(self._library, manifest["status"])
        self._status.argtypes = []
        self._status.restype = ctypes.c_int
        self._lock = threading.Lock()

    @property
    def input_names(self) -> list[str]:
        return [p.name for p in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return [p.name for p in self.outputs]

    def _check(self, port: _Port, value: Any) -> np.ndarray:
        array = np.asarray(value)
        if array.dtype != port.dtype or array.shape != port.shape:
            raise ValueError(f"input '{port.name}': the array holds "
                             f"{_describe(array.dtype, array.shape)}, the model expects "
                             f"{port.expected()}")
        return array

    def run(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Runs the model on `inputs` (every input by name); returns outputs by name."""
        self._check_names(inputs)
        arrays = [self._check(port, inputs[port.name]) for port in self.inputs]
        with self._lock:
            for port, array in zip(self.inputs, arrays):
                view = self._mutable[port.offset:port.offset + port.nbytes]
                view[:] = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
            self._entry(self._constant.ctypes.data, self._mutable.ctypes.data,
                        self._activations.ctypes.data)
            status = self._status()
            if status != 0:
                message = self._errors[status - 1] if 0 < status <= len(self._errors) \
                    else f"runtime check {status} failed"
                raise ValueError(f"the model refused its input: {message}")
            return {port.name: self._mutable[port.offset:port.offset + port.nbytes]
                    .view(port.dtype).reshape(port.shape).copy() for port in self.outputs}

    def save_bundle(self, directory: str | pathlib.Path) -> pathlib.Path:
        """Copies the bundle (NAME.o, .so, .weights, .h, .json) into `directory`."""
        target = pathlib.Path(directory)
        target.mkdir(parents=True, exist_ok=True)
        for suffix in ("o", "so", "weights", "h", "json"):
            source = self.directory / f"{self.name}.{suffix}"
            if source.exists():
                shutil.copy2(source, target / source.name)
        return target

    def __repr__(self) -> str:
        ports = ", ".join(f"{p.name}: {p.expected()}" for p in self.inputs)
        return f"<glow.Bundle {self.name}({ports})>"


def load_bundle(directory: str | pathlib.Path, name: str | None = None) -> Bundle:
    """Loads a bundle glow-compile (or `Bundle.save_bundle`) wrote into `directory`."""
    return Bundle(directory, name)
