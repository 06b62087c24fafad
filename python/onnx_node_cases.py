"""The ONNX backend node test suite, written out from the `onnx` wheel's own case
generators (the wheel ships the generators, not the files).

Each case becomes `<cache>/<name>/model.onnx` plus `test_data_set_<k>/input_<i>.pb` and
`output_<i>.pb`, ONNX's standard layout. `cases()` generates them once per onnx version
into `.cache/onnx-node-cases/<version>/` and returns their folders.
"""
import os
import pathlib
import warnings

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "onnx-node-cases" / onnx.__version__


def _write_case(case, folder):
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(case.model, folder / "model.onnx")
    for k, (inputs, outputs) in enumerate(case.data_sets):
        data = folder / f"test_data_set_{k}"
        data.mkdir(exist_ok=True)
        graph = case.model.graph
        for i, value in enumerate(inputs):
            name = graph.input[i].name if i < len(graph.input) else f"input_{i}"
            _save(value, name, data / f"input_{i}.pb")
        for i, value in enumerate(outputs):
            name = graph.output[i].name if i < len(graph.output) else f"output_{i}"
            _save(value, name, data / f"output_{i}.pb")
    # Tolerances of the case, for the conformance harness.
    (folder / "tolerance.txt").write_text(f"{case.rtol} {case.atol}\n")


def _save(value, name, path):
    if isinstance(value, np.ndarray) or np.isscalar(value):
        tensor = numpy_helper.from_array(np.asarray(value), name)
        path.write_bytes(tensor.SerializeToString())
    else:
        # Sequences, maps and optionals: kept as a marker the harnesses report as unsupported.
        path.with_suffix(".unsupported").write_text(type(value).__name__)


def cases():
    """Folders of every node test case, generated on first use."""
    done = CACHE / ".complete"
    if not done.exists():
        from onnx.backend.test.case import node

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            collected = node.collect_testcases(None)
        for case in collected:
            _write_case(case, CACHE / case.name)
        done.write_text(str(len(collected)))
    return sorted(p for p in CACHE.iterdir() if p.is_dir())


if __name__ == "__main__":
    folders = cases()
    print(f"{len(folders)} ONNX node test cases in {os.path.relpath(CACHE)}")
