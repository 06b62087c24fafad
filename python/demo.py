"""The main job, end to end on a real network: MobileNetV2 (python/build_models.py) through
glow-import, Glow's graph optimizations, node lowering, the CPU pipeline and a bundle;
the bundle runs from Python (the glow package) and is compared with onnxruntime; then the
same model goes through glow's export into IREE. Prints a short report: ops after each
stage, time per stage, latency against onnxruntime (one thread each, same run), planned
memory.

Usage: demo.py [--bin DIR] [--model NAME] [--skip-iree]
"""
import argparse
import collections
import os
import pathlib
import platform
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort
from tqdm import tqdm

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def count_ops(text):
    """Ops by dialect in MLIR text (generic and custom forms: `= dialect.op` or a
    statement starting with one)."""
    ops = re.findall(r"^\s*(?:%[^=]+=\s*)?\"?([a-z_]+)\.([a-z_0-9.]+)", text, re.MULTILINE)
    dialects = collections.Counter(d for d, _ in ops if d not in ("func", "module"))
    return sum(dialects.values()), dialects


def median_ms(function, runs=30):
    function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times))


class Stages:
    """Runs named steps under one progress bar and records their times."""

    def __init__(self, total):
        self.bar = tqdm(total=total, bar_format="{desc:<34} [{bar:30}] {n_fmt}/{total_fmt} "
                        "({elapsed})", disable=not sys.stderr.isatty(), leave=False)
        self.rows = []

    def run(self, name, function):
        self.bar.set_description(name)
        start = time.perf_counter()
        result = function()
        self.rows.append((name, time.perf_counter() - start))
        self.bar.update()
        return result

    def close(self):
        self.bar.close()


def tool(binary, *arguments, capture=True):
    result = subprocess.run([str(binary), *map(str, arguments)], capture_output=capture,
                            text=True)
    if result.returncode != 0:
        raise SystemExit(f"demo: {pathlib.Path(binary).name} failed: "
                         f"{(result.stderr or '').strip()}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--model", default="mobilenetv2", choices=["mobilenetv2", "resnet50"])
    parser.add_argument("--skip-iree", action="store_true")
    arguments = parser.parse_args()
    binary = pathlib.Path(arguments.bin)
    os.environ["GLOW_BIN_DIR"] = str(binary)
    import glow

    onnx_path = ROOT / ".cache" / "models" / f"{arguments.model}.onnx"
    shape = "input=1x3x224x224"
    stages = Stages(total=8 if not arguments.skip_iree else 6)
    work = pathlib.Path(tempfile.mkdtemp(prefix="glow-demo-"))
    counts = []
    if not onnx_path.exists():
        stages.run("build the ONNX model", lambda: tool(
            sys.executable, ROOT / "python" / "build_models.py", arguments.model))
    graph = work / "model.mlir"
    stages.run("glow-import", lambda: tool(binary / "glow-import", onnx_path, "--input-shape",
                                           shape, "--no-locations", "-o", graph))
    counts.append(("imported (glow.graph)", count_ops(graph.read_text())))
    optimized = stages.run("glow-graph-optimize", lambda: tool(
        binary / "glow-opt", graph, "--pass-pipeline",
        "builtin.module(func.func(glow-quantization-folding,glow-graph-optimize))"))
    counts.append(("after glow-graph-optimize", count_ops(optimized)))
    (work / "optimized.mlir").write_text(optimized)
    lowered = stages.run("glow-lower-nodes", lambda: tool(
        binary / "glow-opt", work / "optimized.mlir", "--pass-pipeline",
        "builtin.module(func.func(glow-lower-nodes,glow-graph-optimize))"))
    counts.append(("after glow-lower-nodes", count_ops(lowered)))
    (work / "lowered.mlir").write_text(lowered)
    llvm = stages.run("glow-cpu-pipeline (to LLVM dialect)", lambda: tool(
        binary / "glow-opt", work / "lowered.mlir", "--glow-cpu-pipeline"))
    counts.append(("after glow-cpu-pipeline", count_ops(llvm)))
    model = stages.run("glow-compile bundle + link (glow.compile)",
                       lambda: glow.compile(onnx_path, input_shapes={"input": (1, 3, 224, 224)}))
    manifest = model.directory / f"{model.name}.json"
    import json
    sizes = json.loads(manifest.read_text())

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
    expected = session.run(None, {"input": x})[0]
    got = model(x)
    error = float(np.max(np.abs(got - expected)) / np.max(np.abs(expected)))
    glow_ms = stages.run("time glow (bundle)", lambda: median_ms(lambda: model(x)))
    ort_ms = median_ms(lambda: session.run(None, {"input": x}))
    iree_line = None
    if not arguments.skip_iree:
        exported = work / "model.linalg.mlir"
        stages.run("glow-import --emit=linalg", lambda: tool(
            binary / "glow-import", onnx_path, "--input-shape", shape, "--emit=linalg",
            "-o", exported))
        iree_line = stages.run("iree-compile + run + compare", lambda: iree(exported, x, expected))
    stages.close()

    print(f"{arguments.model} on {cpu_model()} ({os.cpu_count()} cores), one thread")
    print("\nops after each stage (by dialect):")
    for label, (total, dialects) in counts:
        top = ", ".join(f"{d} {n}" for d, n in dialects.most_common(4))
        print(f"  {label:<28} {total:>6}   ({top})")
    print("\ntime per stage:")
    for name, seconds in stages.rows:
        if not name.startswith("time "):
            print(f"  {name:<42} {seconds:6.2f} s")
    print("\nplanned memory (bundle): "
          f"weights {sizes['constant_weights_size'] / 2**20:.1f} MiB, "
          f"inputs/outputs {sizes['mutable_weights_size'] / 2**10:.0f} KiB, "
          f"activations {sizes['activations_size'] / 2**20:.2f} MiB")
    print(f"\nglow vs onnxruntime: normalized max error {error:.1e}, top-1 "
          f"{'same' if np.argmax(got) == np.argmax(expected) else 'DIFFERENT'}")
    print(f"latency: glow {glow_ms:.2f} ms, onnxruntime {ort_ms:.2f} ms "
          f"(glow / onnxruntime = {glow_ms / ort_ms:.2f})")
    if iree_line:
        print(iree_line)
    return 0 if error < 1e-4 else 1


def iree(exported, x, expected):
    """glow's export through iree-compile and IREE's runtime; one report line."""
    venv_bin = ROOT / ".venv" / "bin"
    compiled = exported.with_suffix(".vmfb")
    tool(venv_bin / "iree-compile", exported, "--iree-hal-target-device=local",
         "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host",
         "-o", compiled)
    import iree.runtime as ireert
    config = ireert.Config("local-sync")
    context = ireert.SystemContext(config=config)
    context.add_vm_module(ireert.VmModule.copy_buffer(config.vm_instance, compiled.read_bytes()))
    entry = context.modules.module["main"]
    got = np.asarray(entry(x).to_host())
    error = float(np.max(np.abs(got - expected)) / np.max(np.abs(expected)))
    iree_ms = median_ms(lambda: entry(x))
    return (f"through IREE (glow-import --emit=linalg | iree-compile): normalized max error "
            f"{error:.1e}, latency {iree_ms:.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
