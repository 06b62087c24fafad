"""Peak resident memory of glow-import, glow-compile and glow-run against onnxruntime's
whole Python process, each in a fresh child process on the same model, this machine.

Usage: memory_benchmark.py [--bin DIR] [MODEL ...]
MODEL is one of build_models.py's names (default: resnet50 mobilenetv2 encoder); the
files are built into .cache/models when missing.

Each tool runs once (glow-import writing text, glow-compile a bundle, glow-run one
inference with --threads 1); the peak is the child's
maximum resident set size (getrusage of the waited-for child, the kernel's count of
every resident page: heap, the mapped model file, code). onnxruntime's row is a Python
process that imports onnxruntime and numpy, creates an InferenceSession (all graph
optimizations, one thread) and runs one inference. The model file's size is printed
for the "peak / model" ratio.
"""
import argparse
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
from benchmark import SHAPES, cpu_description  # noqa: E402

MODELS = ROOT / ".cache" / "models"

ORT_RUN = """
import sys, numpy as np, onnxruntime as ort
options = ort.SessionOptions()
options.intra_op_num_threads = 1
session = ort.InferenceSession(sys.argv[1], options, providers=["CPUExecutionProvider"])
shapes = eval(sys.argv[2])
feeds = {}
for i in session.get_inputs():
    shape = shapes[i.name]
    if "int64" in i.type:
        feeds[i.name] = np.ones(shape, np.int64)
    else:
        feeds[i.name] = np.random.default_rng(0).random(shape, dtype=np.float32)
session.run(None, feeds)
"""


def run_measured(command):
    """Runs `command` to completion; returns its peak resident set in bytes."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{pathlib.Path(command[0]).name} failed: {stderr.decode(errors='replace').strip()}")
    return usage.ru_maxrss * 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", default=["resnet50", "mobilenetv2", "encoder"])
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    arguments = parser.parse_args()
    binaries = pathlib.Path(arguments.bin)
    print(cpu_description())
    subprocess.run([sys.executable, str(ROOT / "python" / "build_models.py"), *arguments.models],
                   check=True, stdout=subprocess.DEVNULL)
    header = f"{'model':<14} {'file MB':>8} {'glow-import':>12} {'glow-compile':>13} {'glow-run':>9} {'onnxruntime':>12} {'run/ort':>8}"
    print(header)
    for name in arguments.models:
        model = MODELS / f"{name}.onnx"
        shapes = SHAPES[name]
        shape_flags = [f"--input-shape={n}={'x'.join(map(str, s))}" for n, s in shapes.items()]
        scratch = ROOT / ".cache" / "memory_benchmark"
        scratch.mkdir(parents=True, exist_ok=True)
        imported = run_measured([str(binaries / "glow-import"), str(model), *shape_flags,
                                 "-o", str(scratch / f"{name}.mlir")])
        compiled = run_measured([str(binaries / "glow-compile"), str(model), *shape_flags,
                                 "-o", str(scratch / name)])
        ran = run_measured([str(binaries / "glow-run"), str(model), *shape_flags, "--threads", "1"])
        ort = run_measured([sys.executable, "-c", ORT_RUN, str(model), repr(shapes)])
        size = model.stat().st_size
        mb = lambda b: f"{b / 1e6:.0f}"
        print(f"{name:<14} {mb(size):>8} {mb(imported):>12} {mb(compiled):>13} {mb(ran):>9} {mb(ort):>12} {ran / ort:>8.2f}")
    print("MB = 10^6 bytes; peaks are each child process's maximum resident set")


if __name__ == "__main__":
    main()
