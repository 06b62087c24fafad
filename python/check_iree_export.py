"""Exports an ONNX model with `glow-import --emit=linalg` and checks that the consumers
the design card names read it as written: IREE compiles it (`iree-compile`, llvm-cpu)
and its runtime's results match onnxruntime's; torch-mlir-opt's linalg-on-tensors
backend contract accepts the same file.

Usage: check_iree_export.py MODEL.onnx --input-shape NAME=AxBxC ... [--bin DIR]
                            [--seed N] [--int-high N] [--tolerance 1e-4] [--time]

Inputs are seeded (floats standard normal, integers uniform in [0, --int-high)). The
error is max |iree - ort| / max |ort| per output. --time also prints the latency of
IREE's module next to onnxruntime's (one thread each, median of 20 runs). A missing
iree-compile or torch-mlir-opt fails the check with a reason (the test venv installs
both, python/requirements.txt); --skip-missing turns that into a printed skip.
Exit status 1 on any failure.
"""
import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort

ROOT = pathlib.Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
INTEGERS = {"tensor(int64)": np.int64, "tensor(int32)": np.int32, "tensor(uint8)": np.uint8,
            "tensor(int8)": np.int8}


def tool(name):
    found = shutil.which(name) or (VENV_BIN / name if (VENV_BIN / name).exists() else None)
    return str(found) if found else None


def seeded_inputs(session, shapes, seed, int_high):
    declared = {i.name: i.type for i in session.get_inputs()}
    rng = np.random.default_rng(seed)
    feeds = {}
    for text in shapes:
        name, dims = text.split("=")
        shape = [int(d) for d in dims.split("x")]
        if declared[name] == "tensor(float)":
            feeds[name] = rng.standard_normal(shape).astype(np.float32)
        elif declared[name] in INTEGERS:
            feeds[name] = rng.integers(0, int_high, shape).astype(INTEGERS[declared[name]])
        else:
            raise SystemExit(f"input {name}: {declared[name]} is not supported here")
    # The exported function takes its arguments in the model's input order.
    return {i.name: feeds[i.name] for i in session.get_inputs() if i.name in feeds}


def median_ms(function, runs=20):
    function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--input-shape", action="append", required=True)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--int-high", type=int, default=2)
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--time", action="store_true")
    parser.add_argument("--skip-missing", action="store_true")
    arguments = parser.parse_args()

    iree_compile, torch_mlir_opt = tool("iree-compile"), tool("torch-mlir-opt")
    missing = [n for n, p in (("iree-compile", iree_compile), ("torch-mlir-opt", torch_mlir_opt))
               if p is None]
    if missing:
        message = f"{', '.join(missing)} not found (pip install -r python/requirements.txt)"
        if arguments.skip_missing:
            print(f"SKIPPED: {message}")
            return 0
        print(f"FAIL: {message}")
        return 1

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(arguments.model, options, providers=["CPUExecutionProvider"])
    feeds = seeded_inputs(session, arguments.input_shape, arguments.seed, arguments.int_high)
    expected = session.run(None, feeds)
    name = pathlib.Path(arguments.model).stem
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        exported, compiled = folder / "model.mlir", folder / "model.vmfb"
        command = [str(pathlib.Path(arguments.bin) / "glow-import"), arguments.model,
                   "--emit=linalg", "-o", str(exported)]
        for shape in arguments.input_shape:
            command += ["--input-shape", shape]
        subprocess.run(command, check=True)

        contract = subprocess.run(
            [torch_mlir_opt, str(exported), "--torch-verify-linalg-on-tensors-backend-contract",
             "-o", "/dev/null"], capture_output=True, text=True)
        if contract.returncode != 0:
            print(f"FAIL {name}: torch-mlir's linalg-on-tensors backend contract: "
                  f"{contract.stderr.strip().splitlines()[0] if contract.stderr.strip() else ''}")
            failed = True
        else:
            print(f"{name}: torch-mlir-opt --torch-verify-linalg-on-tensors-backend-contract: ok")

        start = time.perf_counter()
        build = subprocess.run(
            [iree_compile, str(exported), "--iree-hal-target-device=local",
             "--iree-hal-local-target-device-backends=llvm-cpu",
             "--iree-llvmcpu-target-cpu=host", "-o", str(compiled)],
            capture_output=True, text=True)
        if build.returncode != 0:
            first = build.stderr.strip().splitlines()[:3]
            print(f"FAIL {name}: iree-compile: {' / '.join(first)}")
            return 1
        print(f"{name}: iree-compile (llvm-cpu, host CPU): ok in {time.perf_counter() - start:.1f} s")

        import iree.runtime as ireert
        config = ireert.Config("local-sync")
        with open(compiled, "rb") as handle:
            vm_module = ireert.VmModule.copy_buffer(config.vm_instance, handle.read())
        context = ireert.SystemContext(config=config)
        context.add_vm_module(vm_module)
        entry = context.modules.module["main"]
        arrays = list(feeds.values())
        results = entry(*arrays)
        results = results if isinstance(results, (list, tuple)) else [results]
        for output, reference, got in zip(session.get_outputs(), expected, results):
            got = np.asarray(got.to_host() if hasattr(got, "to_host") else got)
            scale = max(float(np.max(np.abs(reference))), 1e-30) if reference.size else 1.0
            error = float(np.max(np.abs(got.astype(np.float64) - reference))) / scale \
                if reference.size else 0.0
            verdict = "ok" if got.shape == reference.shape and error <= arguments.tolerance \
                else "FAIL"
            failed |= verdict == "FAIL"
            print(f"{verdict} {name}: output {output.name}: IREE vs onnxruntime normalized max "
                  f"error {error:.2e} (tolerance {arguments.tolerance:g})")
        if arguments.time:
            iree_ms = median_ms(lambda: entry(*arrays))
            ort_ms = median_ms(lambda: session.run(None, feeds))
            print(f"{name}: IREE (glow export) {iree_ms:.2f} ms, onnxruntime {ort_ms:.2f} ms, "
                  f"ratio {iree_ms / ort_ms:.2f}x (1 thread each)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
