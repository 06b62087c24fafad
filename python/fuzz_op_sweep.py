#!/usr/bin/env python3
"""Every supported ONNX op against odd shapes, through the fuzz harness.

Random mutation rarely turns a seed model into, say, a TopK whose K exceeds its axis
or a Tile with one repeat too many: the coverage-guided fuzzer found such bugs one at a
time. This sweep builds them on purpose. For each op type `glow-import
--list-supported` names, it writes one-node models whose inputs are shaped to
disagree (mismatched dimensions, ranks 0 to 4, empty dimensions, int64 data, a
constant whose product overflows, missing optional inputs) and, with --attributes,
the same with out-of-range attributes (axis 9, zero strides, group 0, negative pads,
...); --opsets sweeps other opset versions (default 17), whose converters take some
operands as attributes or inputs. Each model runs through the `onnx_reader` fuzz target built by `cargo fuzz`
(AddressSanitizer; it fails on a crash, on out-of-bounds access and on any panic,
even one the importer caught and turned into an error). A model the importer rejects
with an error passes: only crashes and panics count.

  python/fuzz_op_sweep.py [--attributes] [--opsets 11,17,28] [--jobs 2] [--keep DIR]

Prints each failing model with its panic or sanitizer line, copies it to --keep
(default fuzz/artifacts/op_sweep/), and ends with `op sweep: N models, M failed`;
exit status 1 on any failure. The plain sweep (~2,500 models) takes about 3 minutes
on 2 cores and runs in scripts/fuzz.sh; --attributes (~17,000) about 25.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

ROOT = Path(__file__).resolve().parent.parent
# cargo fuzz builds into fuzz/target/<host triple>/release/.
FUZZ_BINARIES = sorted(ROOT.glob("fuzz/target/*/release/onnx_reader"))
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def info(name, element, shape):
    return helper.make_tensor_value_info(name, element, shape)


def constant(name, values, dtype):
    return numpy_helper.from_array(np.asarray(values, dtype=dtype), name)


# name: (graph inputs, initializers, the node's input names)
INPUT_SETS = {
    "weight-differs": ([info("x", F, [2, 3])], [constant("w", np.ones((5, 4)), np.float32)], ["x", "w"]),
    "input-differs": ([info("x", F, [2, 3]), info("y", F, [5, 4])], [], ["x", "y"]),
    "one-input": ([info("x", F, [2, 3])], [], ["x"]),
    "three-inputs": (
        [info("x", F, [2, 3])],
        [constant("w", np.ones((5, 4)), np.float32), constant("b", np.ones(7), np.float32)],
        ["x", "w", "b"],
    ),
    "rank-differs": ([info("x", F, [2, 3, 4]), info("y", F, [3])], [], ["x", "y"]),
    "empty": ([info("x", F, [0, 3]), info("y", F, [2, 0])], [], ["x", "y"]),
    "int64": ([info("x", I64, [2, 3])], [constant("w", [5, -1, 0], np.int64)], ["x", "w"]),
    "scalar": ([info("x", F, [])], [constant("w", 3, np.int64)], ["x", "w"]),
    "rank-4": ([info("x", F, [1, 2, 3, 3]), info("y", F, [4, 5, 2, 2])], [], ["x", "y"]),
    "rank-4-empty": ([info("x", F, [1, 2, 0, 3]), info("y", F, [4, 2, 2, 2])], [], ["x", "y"]),
    "rank-3-constants": (
        [info("x", F, [2, 4, 6])],
        [constant("w", np.ones(3), np.int64), constant("b", np.ones(6), np.float32)],
        ["x", "w", "b"],
    ),
    "optional-gap": (
        [info("x", F, [2, 4, 6]), info("y", I64, [3])],
        [constant("w", [0, -7], np.int64)],
        ["x", "y", "w", ""],
    ),
    "huge-constant": ([info("x", F, [1, 4])], [constant("w", [1 << 40, 1 << 40], np.int64)], ["x", "w"]),
}

ATTRIBUTE_SETS = {
    "axis-9": {"axis": 9},
    "axis-minus-9": {"axis": -9},
    "perm-repeats": {"perm": [1, 1, 5]},
    "kernel-0": {"kernel_shape": [0, 7]},
    "strides-0": {"strides": [0, 0]},
    "group-0": {"group": 0},
    "group-3": {"group": 3},
    "axes-repeat": {"axes": [0, 0, 9]},
    "keepdims-0": {"keepdims": 0},
    "epsilon-negative": {"epsilon": -1.0},
    "pads-negative": {"pads": [-1, 2, 3, 4]},
    "blocksize-0": {"blocksize": 0},
    "split-too-long": {"split": [1, 7]},
    "num-heads-0": {"num_heads": 0},
    "to-int8": {"to": 3},
}


def supported_ops(glow_import):
    listing = subprocess.run([glow_import, "--list-supported"], capture_output=True, text=True, check=True)
    ops = []
    for line in listing.stdout.splitlines():
        if line.startswith("opsets"):
            continue
        domain, _, op = line.rpartition(".")
        ops.append((domain, op))
    return ops


# The input sets the attribute variants are combined with (ranks 2 to 4, constants).
ATTRIBUTE_INPUTS = ["one-input", "rank-4", "rank-3-constants", "optional-gap", "huge-constant"]


def write_models(folder, ops, with_attributes, opset_versions):
    paths = []
    for (domain, op), version in ((o, v) for o in ops for v in opset_versions):
        opsets = [helper.make_opsetid("", version)] + ([helper.make_opsetid(domain, 1)] if domain else [])
        for input_name, (inputs, initializers, names) in INPUT_SETS.items():
            attribute_sets = {"no-attributes": {}}
            if with_attributes and input_name in ATTRIBUTE_INPUTS:
                attribute_sets.update(ATTRIBUTE_SETS)
            for attribute_name, attributes in attribute_sets.items():
                node = helper.make_node(op, names, ["z"], name="n", domain=domain, **attributes)
                graph = helper.make_graph([node], "sweep", inputs, [info("z", F, None)], initializers)
                model = helper.make_model(graph, opset_imports=opsets, ir_version=9)
                name = f"{domain + '.' if domain else ''}{op}--opset-{version}--{input_name}--{attribute_name}"
                path = folder / "models" / f"{name}.onnx"
                path.write_bytes(model.SerializeToString())
                paths.append(path)
    return paths


def run_one(binary, path, scratch):
    """None if the harness accepts `path`, else the first panic / sanitizer line. The
    harness's temporary copy and libFuzzer's crash files go to `scratch`."""
    environment = {**os.environ, "TMPDIR": str(scratch)}
    try:
        run = subprocess.run([binary, str(path)], capture_output=True, text=True, timeout=60,
                             cwd=scratch, env=environment)
    except subprocess.TimeoutExpired:
        return "timeout (60 s)"
    if run.returncode == 0:
        return None
    output = run.stdout + run.stderr
    panic = re.search(r"panicked at ([^\n]*)\n([^\n]*)", output)
    if panic:
        return f"panicked at {panic.group(1)} {panic.group(2)}"
    sanitizer = re.search(r"ERROR: [^\n]*", output)
    return sanitizer.group(0) if sanitizer else f"exit status {run.returncode}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attributes", action="store_true", help="add out-of-range attribute variants")
    parser.add_argument("--opsets", default="17",
                        help="comma-separated default-domain opset versions to sweep (default 17)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fuzz-binary", default=str(FUZZ_BINARIES[0]) if FUZZ_BINARIES else "",
                        help="the onnx_reader fuzz target (cargo +nightly fuzz build onnx_reader)")
    parser.add_argument("--glow-import", default=str(ROOT / "target/debug/glow-import"))
    parser.add_argument("--keep", default=str(ROOT / "fuzz/artifacts/op_sweep"), help="where failing models go")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    try:
        opset_versions = [int(v) for v in args.opsets.split(",")]
    except ValueError:
        parser.error(f"--opsets '{args.opsets}' is not a comma-separated list of integers")
    for tool in (args.fuzz_binary, args.glow_import):
        if not tool or not Path(tool).is_file():
            sys.exit(f"fuzz_op_sweep: '{tool}' does not exist (cargo +nightly fuzz build onnx_reader; cargo build)")
    binary = str(Path(args.fuzz_binary).resolve())  # it runs in the scratch folder
    ops = supported_ops(args.glow_import)
    if not ops:
        sys.exit(f"fuzz_op_sweep: {args.glow_import} --list-supported listed no op types")
    with tempfile.TemporaryDirectory(prefix="glow-op-sweep-") as folder:
        (Path(folder) / "models").mkdir()
        paths = write_models(Path(folder), ops, args.attributes, opset_versions)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(lambda p: (p, run_one(binary, p, folder)), paths))
        failed = [(path, reason) for path, reason in outcomes if reason]
        if failed:
            keep = Path(args.keep)
            keep.mkdir(parents=True, exist_ok=True)
            for path, reason in failed:
                shutil.copy(path, keep / path.name)
                print(f"FAIL {path.name}: {reason}")
            print(f"the failing models are in {keep}/ (add each to fuzz/regressions/onnx_reader/ once fixed)")
    print(f"op sweep: {len(paths)} models over {len(ops)} op types, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
