"""A model with symbolic input dimensions: compiled once per distinct set of input
shapes, at the first call with those shapes, and kept (the least recently used
compilation goes when `max_shapes` are held)."""
from __future__ import annotations

import collections
import re
import threading
import types
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ._bundle import Bundle, _ArrayModel, _describe
from ._errors import GlowError

# numpy's dtypes under the element names glow-import prints.
_ELEMENTS = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
             "int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8", "uint64": "u64",
             "uint32": "u32", "uint16": "u16", "uint8": "u8", "bool": "bool"}

# `glow-import --print-signature` lines: `input NAME: TYPE [DIMS]` (or `unknown shape`).
_PORT = re.compile(r"^(input|output) (.*): (.+?) (?:\[(.*)\]|unknown shape)$")


class Port:
    """A declared input: its name, element type name and dimensions (an int when
    fixed, the symbol's name, or None when unnamed)."""

    def __init__(self, name: str, element: str, dims: list[int | str | None] | None):
        self.name, self.element, self.dims = name, element, dims

    def describe(self, element: str | None = None) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.dims or [])
        return f"{element or self.element} [{dims}]"

    @property
    def dynamic(self) -> bool:
        return self.dims is None or any(not isinstance(d, int) for d in self.dims)


def parse_signature(text: str) -> tuple[list[Port], list[str]]:
    """The inputs (with shapes; None when the model declares none) and the output
    names `glow-import --print-signature` printed."""
    inputs, outputs = [], []
    for line in text.splitlines():
        if not line.strip():
            continue
        match = _PORT.match(line.strip())
        if not match:
            raise GlowError(f"glow-import --print-signature printed an unexpected line: {line!r}")
        kind, name, element, dims = match.groups()
        if kind == "output":
            outputs.append(name)
            continue
        if dims is None:
            inputs.append(Port(name, element, None))
            continue
        parsed: list[int | str | None] = []
        for dim in (d.strip() for d in dims.split(",") if d.strip()):
            parsed.append(int(dim) if re.fullmatch(r"[0-9]+", dim) else (None if dim == "?" else dim))
        inputs.append(Port(name, element, parsed))
    return inputs, outputs


class DynamicModel(_ArrayModel):
    """A model whose inputs have symbolic dimensions (a batch, a sequence length):
    `glow.compile` returns one when `input_shapes` leaves some of them open. Calls
    work as a `Bundle`'s (`model(x)`, `model.run({"x": x})`); each new combination of
    input shapes compiles a bundle first (seconds), later calls with those shapes run
    it directly. `specialize(shapes)` compiles one ahead and returns its `Bundle`
    (which `save_bundle` can write: bundles have static shapes). An evicted bundle's
    buffers go with the last reference to it; its code stays loaded (a shared
    library cannot be unloaded safely) and its files stay until the process exits."""

    def __init__(self, inputs: Sequence[Port], outputs: Sequence[str],
                 compile_shapes: Callable[[dict[str, tuple[int, ...]]], Bundle],
                 threads: int, max_shapes: int = 8):
        if isinstance(max_shapes, bool) or not isinstance(max_shapes, (int, np.integer)) \
                or max_shapes < 1:
            raise ValueError(f"max_shapes={max_shapes!r}: keep at least one compilation")
        self._inputs = list(inputs)
        self._outputs = list(outputs)
        self._compile = compile_shapes
        self.threads = threads
        self.max_shapes = int(max_shapes)
        self._bundles: collections.OrderedDict[tuple, Bundle] = collections.OrderedDict()
        self._compiling: dict[tuple, threading.Lock] = {}
        self._lock = threading.Lock()

    def pin(self, input_shapes: Mapping[str, Sequence[int]]) -> None:
        """Fixes the shapes of some inputs (glow.compile's input_shapes): each is
        checked against the declared dimensions, and the sizes it gives symbols hold
        for the other inputs too."""
        unknown = [n for n in input_shapes if n not in self.input_names]
        if unknown:
            raise ValueError(f"input_shapes names '{unknown[0]}', which is not an input "
                             f"(inputs: {', '.join(self.input_names)})")
        shapes = self._shapes_of({n: types.SimpleNamespace(shape=tuple(int(d) for d in input_shapes[n]))
                                  if n in input_shapes else None for n in self.input_names},
                                 partial=True)
        sizes = {d: shapes[p.name][i] for p in self._inputs if p.name in shapes
                 for i, d in enumerate(p.dims) if isinstance(d, str)}
        for port in self._inputs:
            if port.name in shapes:
                port.dims = list(shapes[port.name])
            else:
                port.dims = [sizes.get(d, d) if isinstance(d, str) else d for d in port.dims]

    @property
    def open(self) -> bool:
        """Whether some input dimension is still symbolic."""
        return any(p.dynamic for p in self._inputs)

    def declared_shapes(self) -> dict[str, list[int | str | None]]:
        """Each input's dimensions as declared (after `pin`)."""
        return {p.name: list(p.dims or []) for p in self._inputs}

    @property
    def input_names(self) -> list[str]:
        return [p.name for p in self._inputs]

    @property
    def output_names(self) -> list[str]:
        return list(self._outputs)

    @property
    def compiled_shapes(self) -> list[dict[str, tuple[int, ...]]]:
        """The input shapes compiled so far (least recently used first)."""
        with self._lock:
            keys = list(self._bundles)
        return [dict(zip(self.input_names, key)) for key in keys]

    def _shapes_of(self, inputs: Mapping[str, Any], partial: bool = False
                   ) -> dict[str, tuple[int, ...]]:
        """Every input's shape, checked against the declared dimensions (and the
        element type, for arrays) and the symbols' sizes across inputs; with
        `partial`, inputs given as None are skipped."""
        self._check_names(inputs)
        shapes: dict[str, tuple[int, ...]] = {}
        bound: dict[str, tuple[int, str]] = {}
        for port in self._inputs:
            value = inputs[port.name]
            if value is None and partial:
                continue
            shape = tuple(int(d) for d in np.shape(value))
            fits = port.dims is None or len(shape) == len(port.dims) and all(
                not isinstance(d, int) or d == s for d, s in zip(port.dims, shape))
            if not fits:
                raise ValueError(f"input '{port.name}': the array has shape {list(shape)}, "
                                 f"the model expects {port.describe()}")
            dtype = getattr(value, "dtype", None)
            if dtype is None and not isinstance(value, types.SimpleNamespace):
                dtype = np.asarray(value).dtype
            if dtype is not None and _ELEMENTS.get(np.dtype(dtype).name) != port.element:
                raise ValueError(f"input '{port.name}': the array holds "
                                 f"{_describe(np.dtype(dtype), shape)}, the model expects "
                                 f"{port.describe(port.element.upper())}")
            for dim, size in zip(port.dims or [], shape):
                if isinstance(dim, str):
                    # One symbol, one size across the inputs (batch, sequence, ...).
                    if dim in bound and bound[dim][0] != size:
                        raise ValueError(f"input '{port.name}': '{dim}' is {size} here but "
                                         f"{bound[dim][0]} in input '{bound[dim][1]}'")
                    bound.setdefault(dim, (size, port.name))
            shapes[port.name] = shape
        return shapes

    def specialize(self, input_shapes: Mapping[str, Sequence[int]]) -> Bundle:
        """The bundle for these input shapes (every input's full shape), compiled now
        if it was not yet."""
        shapes = self._shapes_of({n: types.SimpleNamespace(shape=tuple(s))
                                  for n, s in input_shapes.items()})
        key = tuple(shapes[n] for n in self.input_names)
        with self._lock:
            bundle = self._bundles.get(key)
            if bundle is not None:
                self._bundles.move_to_end(key)
                return bundle
            # One compilation per shape at a time; calls with other shapes go on.
            compiling = self._compiling.setdefault(key, threading.Lock())
        with compiling:
            with self._lock:
                bundle = self._bundles.get(key)
            if bundle is None:
                bundle = self._compile(shapes)
            with self._lock:
                self._bundles[key] = bundle
                self._bundles.move_to_end(key)
                self._compiling.pop(key, None)
                while len(self._bundles) > self.max_shapes:
                    self._bundles.popitem(last=False)
            return bundle

    def run(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Runs the model on `inputs` (every input by name); returns outputs by name."""
        shapes = self._shapes_of(inputs)
        return self.specialize(shapes).run(inputs)

    def save_bundle(self, directory) -> None:
        raise GlowError("a bundle has static input shapes: save one with "
                        "model.specialize({...}).save_bundle(directory)")

    def __repr__(self) -> str:
        ports = ", ".join(f"{p.name}: {p.describe()}" for p in self._inputs)
        return f"<glow.DynamicModel ({ports}), {len(self._bundles)} shape(s) compiled>"
