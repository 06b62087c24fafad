"""Imports every ONNX backend node test case whose ops glow-import supports, and prints
`imported N / M` per op and overall.

Usage: import_node_tests.py [--glow-import PATH] [--failures] [--jobs N]

Also imports the real architectures the wheel ships with constant weights
(onnx/backend/test/data/light/*.onnx) and prints `light models: imported N / M`.

A case is in scope when its opset is supported and every node of its graph has a
supported op type; its graph inputs are pinned to the shapes of its first data set (as
a user would with --input-shape). A case counts as imported when glow-import exits 0
(its output verified and read back bit for bit from text, generic text and bytecode:
`--verify-roundtrip`) and the function's result shapes equal the shapes of the case's
expected outputs. A case that fails with glow-import's own word that a feature is
not supported (a parameter given as a runtime input where Glow's static shapes need a
constant, a training-only output, ...) is listed as such; any other failure is a bug,
and makes the script exit 1.
"""
import argparse
import concurrent.futures
import pathlib
import re
import subprocess
import sys

import onnx
from onnx import numpy_helper

import onnx_node_cases

ROOT = pathlib.Path(__file__).resolve().parent.parent

# glow-import's messages for features it declines (as opposed to bugs). A result
# shape that differs from the case's expected output counts as a bug.
UNSUPPORTED_FEATURE = re.compile(
    r"must be a constant or computable from static shapes|is not supported|"
    r"are not supported|unsupported element type|supported for float32 inputs only")


def primary_op(name, ops):
    """The op a case is about: the op type whose lowercase name the case name starts with."""
    stem = name[len("test_"):].replace("_", "")
    matches = [op for op in ops if stem.startswith(op.lower())]
    return max(matches, key=len) if matches else sorted(ops)[0]


def input_data(folder, model):
    """{input name: (path of its first data set's tensor, dims)} of the graph inputs."""
    initializers = {t.name for t in model.graph.initializer}
    data = {}
    for i, value in enumerate(model.graph.input):
        path = folder / "test_data_set_0" / f"input_{i}.pb"
        if value.name in initializers or not path.exists():
            continue
        tensor = onnx.TensorProto()
        tensor.ParseFromString(path.read_bytes())
        data[value.name] = (path, list(tensor.dims))
    return data


def is_integer(model, name):
    value = next(v for v in model.graph.input if v.name == name)
    return value.type.tensor_type.elem_type in (
        onnx.TensorProto.INT64, onnx.TensorProto.INT32, onnx.TensorProto.INT16,
        onnx.TensorProto.INT8, onnx.TensorProto.UINT8)


# glow-import names the input a shape parameter needs as a compile-time constant.
NEEDS_CONSTANT = re.compile(r"\(input #\d+, '([^']*)'\) must be a constant")


SIGNATURE = re.compile(r"^\s*func\.func @main\(.*\) -> (.*) \{$", re.M)
TENSOR = re.compile(r"tensor<([^>]*)>")


def check_output_shapes(folder, text):
    """None if the imported function's result shapes equal the case's expected
    outputs, else a message naming the first mismatch."""
    signature = SIGNATURE.search(text)
    if not signature:
        return "no func.func @main in the output"
    results = TENSOR.findall(signature.group(1))
    for i, spec in enumerate(results):
        path = folder / "test_data_set_0" / f"output_{i}.pb"
        if not path.exists():
            continue
        tensor = onnx.TensorProto()
        tensor.ParseFromString(path.read_bytes())
        dims = [int(d) for d in spec.split("x")[:-1]] if "x" in spec else []
        if dims != list(tensor.dims):
            return f"output {i} has shape {dims}, expected {list(tensor.dims)}"
    return None


def run_case(glow_import, folder):
    """(imported, first error line, frozen inputs): pins input shapes; when a shape
    parameter arrives as a runtime input, freezes it to the case's data and retries
    (as a user of a static compiler would with --freeze-input)."""
    model = onnx.load(folder / "model.onnx", load_external_data=False)
    data = input_data(folder, model)
    frozen = []
    while True:
        command = [glow_import, str(folder / "model.onnx"), "--verify-roundtrip"]
        for name, (path, dims) in data.items():
            if name in frozen:
                command += ["--freeze-input", f"{name}={path}"]
            else:
                command += ["--input-shape", f"{name}={'x'.join(map(str, dims))}"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        lines = result.stderr.strip().splitlines()
        message = lines[0] if lines else f"exit code {result.returncode}"
        if result.returncode == 0:
            mismatch = check_output_shapes(folder, result.stdout)
            if mismatch:
                return False, mismatch, frozen
        needed = NEEDS_CONSTANT.search(message)
        if result.returncode != 0 and needed:
            name = needed.group(1)
            if name in data and name not in frozen:
                frozen.append(name)
                continue
            # Computed from runtime inputs: freeze the integer inputs it may come from.
            integers = [n for n in data if n not in frozen and is_integer(model, n)]
            if name not in data and integers:
                frozen.extend(integers)
                continue
        return result.returncode == 0, message, frozen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--glow-import", default=str(ROOT / "target" / "debug" / "glow-import"))
    parser.add_argument("--failures", action="store_true", help="print each failure's error")
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()

    listing = subprocess.run([arguments.glow_import, "--list-supported"], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    low, high = (int(v) for v in listing[0].split()[1].split("-"))
    supported = set(listing[1:])
    in_scope, out_of_scope = [], {}
    for folder in onnx_node_cases.cases():
        model = onnx.load(folder / "model.onnx", load_external_data=False)
        opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
        if not low <= opset <= high:
            key = f"(opset {opset})"
            out_of_scope[key] = out_of_scope.get(key, 0) + 1
            continue
        ops = {n.op_type for n in model.graph.node if n.domain in ("", "ai.onnx")}
        foreign = {n.op_type for n in model.graph.node} - ops
        missing = (ops - supported) | foreign
        if missing or not ops or any(folder.glob("test_data_set_0/*.unsupported")):
            for op in missing or {"(non-tensor data)"}:
                out_of_scope[op] = out_of_scope.get(op, 0) + 1
            continue
        in_scope.append((folder, primary_op(folder.name, ops)))

    results = {}
    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        futures = {pool.submit(run_case, arguments.glow_import, f): (f, op) for f, op in in_scope}
        for future in concurrent.futures.as_completed(futures):
            folder, op = futures[future]
            results[folder.name] = (op, *future.result())
    frozen_cases = sum(1 for _, ok, _, frozen in results.values() if ok and frozen)

    per_op = {}
    unsupported_features, bugs = [], []
    for name, (op, ok, message, _) in sorted(results.items()):
        imported, total = per_op.get(op, (0, 0))
        per_op[op] = (imported + ok, total + 1)
        if ok:
            continue
        if UNSUPPORTED_FEATURE.search(message):
            unsupported_features.append((name, message))
        else:
            bugs.append((name, message))
    if arguments.failures:
        for name, message in unsupported_features:
            print(f"UNSUPPORTED {name}: {message}")
    for name, message in bugs:
        print(f"FAIL {name}: {message}")
    for op, (imported, total) in sorted(per_op.items()):
        print(f"{op}: imported {imported} / {total}")
    imported = sum(i for i, _ in per_op.values())
    total = sum(t for _, t in per_op.values())
    skipped = len(onnx_node_cases.cases()) - total
    print(f"cases with unsupported ops: {skipped} (by op: "
          + ", ".join(f"{op} {n}" for op, n in sorted(out_of_scope.items(), key=lambda x: -x[1])[:15])
          + (", ..." if len(out_of_scope) > 15 else "") + ")")
    print(f"imported with shape parameters frozen to the case's data (--freeze-input): "
          f"{frozen_cases}")
    light = sorted((pathlib.Path(onnx.__file__).parent / "backend" / "test" / "data" / "light").glob("*.onnx"))
    light_ok = 0
    for path in light:
        result = subprocess.run([arguments.glow_import, str(path), "--verify-roundtrip"],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, timeout=600)
        if result.returncode == 0:
            light_ok += 1
        else:
            bugs.append((path.name, result.stderr.strip().splitlines()[0]))
            print(f"FAIL {path.name}: {bugs[-1][1]}")
    print(f"light models: imported {light_ok} / {len(light)} ({', '.join(p.stem for p in light)})")
    print(f"overall: imported {imported} / {total} cases of {len(per_op)} supported op types; "
          f"{len(unsupported_features)} use features glow-import reports as unsupported, "
          f"{len(bugs)} failed otherwise")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
