"""Runs an ONNX model through glow-run (import -> Glow's CPU pipeline -> LLVM, linked by
ORC) and through onnxruntime on the same seeded inputs, and compares every
output: max |glow - ort| and that divided by max |ort| (the issue's 1e-4 bound).

Usage: compare_with_onnxruntime.py MODEL.onnx [--input-shape NAME=AxBxC ...] [--seed N]
                                   [--int-low N] [--int-high N] [--bin DIR] [--tolerance 1e-4]
                                   [--via-mlir] [--ort-unoptimized] [--threads N]

Float inputs are standard normal; integer inputs (token ids, masks, uint8 images)
uniform in [--int-low, --int-high); boolean inputs (masks) true with probability 3/4. Exits 1 if an output differs by more than the tolerance.
--via-mlir imports the model to a `.mlir` text file first (glow-import) and runs that
file, feeding inputs by their ONNX names: the way users work with glow-opt pipelines.
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort

ROOT = pathlib.Path(__file__).resolve().parent.parent
INTEGERS = {"tensor(int64)": np.int64, "tensor(int32)": np.int32, "tensor(uint8)": np.uint8,
            "tensor(int8)": np.int8}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--input-shape", action="append", default=[],
                        help="NAME=AxBxC (NAME= for a scalar); inputs not named use the "
                             "model's static shape")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--int-low", type=int, default=0)
    parser.add_argument("--int-high", type=int, default=2)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--threads", type=int,
                        help="glow-run --threads (default: glow-run's, every core); 1 checks the one-thread schedule")
    parser.add_argument("--check-top1", action="store_true",
                        help="also require the same argmax along the last axis of each output")
    parser.add_argument("--via-mlir", action="store_true",
                        help="run the model's glow-import text output instead of the .onnx file")
    parser.add_argument("--ort-unoptimized", action="store_true",
                        help="run onnxruntime with its graph optimizations off (its kernels as "
                             "the model spells them)")
    arguments = parser.parse_args()

    options = ort.SessionOptions()
    if arguments.ort_unoptimized:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(arguments.model, options, providers=["CPUExecutionProvider"])
    declared = {i.name: i.type for i in session.get_inputs()}
    shapes = {}
    for text in arguments.input_shape:
        name, equals, dims = text.rpartition("=")
        if not equals:
            raise SystemExit(f"--input-shape '{text}' is not NAME=DIMS (e.g. input=1x3x224x224)")
        if name not in declared:
            raise SystemExit(f"--input-shape {text}: the model has no input '{name}' "
                             f"(inputs: {', '.join(declared)})")
        dims = dims.strip()
        parts = dims.replace(",", "x").split("x") if dims else []
        if not all(d.strip().isdigit() for d in parts):
            raise SystemExit(f"--input-shape '{text}': the dimensions are not non-negative integers")
        shapes[name] = [int(d) for d in parts]
    for port in session.get_inputs():
        if port.name not in shapes:
            if not all(isinstance(d, int) for d in port.shape):
                raise SystemExit(f"input '{port.name}' has dynamic dimensions {port.shape}: "
                                 f"give --input-shape {port.name}=...")
            shapes[port.name] = list(port.shape)
    rng = np.random.default_rng(arguments.seed)
    feeds = {}
    for name, shape in shapes.items():
        if declared[name] == "tensor(float)":
            feeds[name] = rng.standard_normal(shape).astype(np.float32)
        elif declared[name] in INTEGERS:
            dtype = INTEGERS[declared[name]]
            feeds[name] = rng.integers(arguments.int_low, arguments.int_high, shape).astype(dtype)
        elif declared[name] == "tensor(bool)":
            # Masks: mostly true (three in four), as attention masks are.
            feeds[name] = np.asarray(rng.random(shape) < 0.75)
        else:
            raise SystemExit(f"input {name}: {declared[name]} is not supported here")
    expected = session.run(None, feeds)
    names = [o.name for o in session.get_outputs()]

    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        model = arguments.model
        if arguments.via_mlir:
            model = folder / "model.mlir"
            pins = [a for name, shape in shapes.items()
                    for a in ("--input-shape", f"{name}={'x'.join(map(str, shape))}")]
            imported = subprocess.run([pathlib.Path(arguments.bin) / "glow-import", arguments.model,
                                       "-o", model, *pins], capture_output=True, text=True)
            if imported.returncode != 0:
                print(f"glow-import failed: {imported.stderr.strip()}")
                return 1
        command = [pathlib.Path(arguments.bin) / "glow-run", model, "--output-dir", folder / "out"]
        if arguments.threads is not None:
            command += ["--threads", str(arguments.threads)]
        for index, (name, array) in enumerate(feeds.items()):
            # By position: ONNX names may hold '/' (gpu_0/data_0).
            np.save(folder / f"input{index}.npy", array)
            command += ["--input", f"{name}={folder / f'input{index}.npy'}"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"glow-run failed: {run.stderr.strip()}")
            return 1
        print(run.stdout.strip().splitlines()[-1])
        produced = [np.load(folder / "out" / f"{''.join(c if c.isalnum() or c in '_.-' else '_' for c in n)}.npy")
                    for n in names]

    worst = 0.0
    for name, got, reference in zip(names, produced, expected):
        if got.shape != reference.shape:
            print(f"output {name}: shape {got.shape}, expected {reference.shape}")
            return 1
        difference, scale = differences(got, reference)
        ratio = difference / scale if scale else difference
        worst = max(worst, ratio)
        if arguments.check_top1 and got.size:
            same = np.argmax(got, axis=-1) == np.argmax(reference, axis=-1)
            print(f"output {name}: top-1 {'equal' if same.all() else 'DIFFERS'}")
            if not same.all():
                worst = float("inf")
        print(f"output {name}: {reference.size} values, max |glow - ort| = {difference:.3g}, "
              f"max |ort| = {scale:.3g}, ratio = {ratio:.3g}")
    print(f"{'PASS' if worst <= arguments.tolerance else 'FAIL'}: worst ratio {worst:.3g} "
          f"(bound {arguments.tolerance:g})")
    return 0 if worst <= arguments.tolerance else 1


def differences(got, reference):
    """(max |got - reference|, max |reference|) over the finite values; NaN where both
    have NaN and equal infinities count as equal, any other non-finite mismatch makes
    the difference infinite (a NaN never passes silently)."""
    g, r = got.astype(np.float64), reference.astype(np.float64)
    same = (g == r) | (np.isnan(g) & np.isnan(r))
    if (~same & ~(np.isfinite(g) & np.isfinite(r))).any():
        return float("inf"), 1.0
    finite = np.isfinite(r)
    difference = float(np.max(np.abs(g - r)[~same])) if (~same).any() else 0.0
    scale = float(np.max(np.abs(r[finite]))) if finite.any() else 0.0
    return difference, scale


if __name__ == "__main__":
    sys.exit(main())
