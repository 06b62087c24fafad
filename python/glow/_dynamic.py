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

from ._bundle import Bundle
from ._errors import GlowError

# `glow-import --print-signature` lines: `input NAME: TYPE [DIMS]` (or `unknown shape`).
_PORT = re.compile(r"^(input|output) (.*): (.+?) (?:\[(.*)\]|unknown shape)$")


class Port:
    """A declared input: its name, element type name and dimensions (an int when
    fixed, the symbol's name, or None when unnamed)."""

    def __init__(self, name: str, element: str, dims: list[int | str | None] | None):
        self.name, self.element, self.dims = name, element, dims

    def describe(self) -> str:
        return f"{self.element} [{', '.join('?' if d is None else str(d) for d in self.dims)}]"

    @property
    def dynamic(self) -> bool:
        return self.dims is None or any(not isinstance(d, int) for d in self.dims)


def parse_signature(text: str) -> tuple[list[Port], list[str]]:
    """The inputs (with shapes; None when the model declares none) and the output
    names `glow-import --print-signature` printed."""
    inputs, outputs = [], []
    for line in text.splitlines():
        match = _PORT.match(line.strip())
        if not match:
            continue
        kind, name, element, dims = match.groups()
        if kind == "output":
            outputs.append(name)
            continue
        if dims is None:
            inputs.append(Port(name, element, None))
            continue
        parsed: list[int | str | None] = []
        for dim in (d.strip() for d in dims.split(",") if d.strip()):
            parsed.append(int(dim) if dim.isdigit() else (None if dim == "?" else dim))
        inputs.append(Port(name, element, parsed))
    return inputs, outputs


class DynamicModel:
    """A model whose inputs have symbolic dimensions (a batch, a sequence length):
    `glow.compile` returns one when `input_shapes` leaves some of them open. Calls
    work as a `Bundle`'s (`model(x)`, `model.run({"x": x})`); each new combination of
    input shapes compiles a bundle first (seconds), later calls with those shapes run
    it directly. `specialize(shapes)` compiles one ahead and returns its `Bundle`
    (which `save_bundle` can write: bundles have static shapes)."""

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
        self._lock = threading.Lock()

    @property
    def input_names(self) -> list[str]:
        return [p.name for p in self._inputs]

    @property
    def output_names(self) -> list[str]:
        return list(self._outputs)

    @property
    def compiled_shapes(self) -> list[dict[str, tuple[int, ...]]]:
        """The input shapes compiled so far (least recently used first)."""
        return [dict(zip(self.input_names, key)) for key in self._bundles]

    def _shapes_of(self, inputs: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
        unknown = [n for n in inputs if n not in self.input_names]
        if unknown:
            raise ValueError(f"'{unknown[0]}' is not an input (inputs: {', '.join(self.input_names)})")
        missing = [n for n in self.input_names if n not in inputs]
        if missing:
            raise ValueError(f"input '{missing[0]}' is missing (inputs: {', '.join(self.input_names)})")
        shapes: dict[str, tuple[int, ...]] = {}
        bound: dict[str, tuple[int, str]] = {}
        for port in self._inputs:
            shape = tuple(int(d) for d in np.shape(inputs[port.name]))
            fits = len(shape) == len(port.dims) and all(
                not isinstance(d, int) or d == s for d, s in zip(port.dims, shape))
            if not fits:
                raise ValueError(f"input '{port.name}': the array has shape {list(shape)}, "
                                 f"the model expects {port.describe()}")
            for dim, size in zip(port.dims, shape):
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
            bundle = self._compile(shapes)
            self._bundles[key] = bundle
            while len(self._bundles) > self.max_shapes:
                self._bundles.popitem(last=False)
            return bundle

    def run(self, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Runs the model on `inputs` (every input by name); returns outputs by name."""
        shapes = self._shapes_of(inputs)
        return self.specialize(shapes).run(inputs)

    def __call__(self, *arrays: Any) -> np.ndarray | list[np.ndarray]:
        """Runs the model on arrays given in input order."""
        if len(arrays) != len(self._inputs):
            raise ValueError(f"the model takes {len(self._inputs)} input(s) "
                             f"({', '.join(self.input_names)}), got {len(arrays)}")
        outputs = self.run(dict(zip(self.input_names, arrays)))
        values = [outputs[name] for name in self.output_names]
        return values[0] if len(values) == 1 else values

    def save_bundle(self, directory) -> None:
        raise GlowError("a bundle has static input shapes: save one with "
                        "model.specialize({...}).save_bundle(directory)")

    def __repr__(self) -> str:
        ports = ", ".join(f"{p.name}: {p.describe()}" for p in self._inputs)
        return f"<glow.DynamicModel ({ports}), {len(self._bundles)} shape(s) compiled>"
