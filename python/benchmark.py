"""Times whole models through Glow (glow-run), onnxruntime and IREE in the same run, on
this machine, single-threaded, and prints each one's median latency and the ratios.

Usage: benchmark.py [--repeat N] [--bin DIR] [--no-iree] [MODEL ...]
MODEL is one of build_models.py's names (resnet50, mobilenetv2, encoder); the files are
built into .cache/models when missing. IREE modules are compiled once into .cache/iree.

What is timed, for each engine: the median wall time of one inference over --repeat
runs after one warm-up run, inputs already in memory, one thread:
- glow: glow-run --repeat N (JIT-compiled by the CPU pipeline; only the call is timed)
- onnxruntime: InferenceSession.run with intra_op_num_threads=1, all graph optimizations
- IREE: iree-import-onnx -> iree-compile (llvm-cpu, --iree-llvmcpu-target-cpu=host)
  -> iree.runtime on the local-sync (single-thread) driver
Compile times are printed too (glow's includes LLVM code generation).
"""
import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import time

import numpy as np
import onnxruntime as ort

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS = ROOT / ".cache" / "models"
SHAPES = {
    "resnet50": {"input": [1, 3, 224, 224]},
    "mobilenetv2": {"input": [1, 3, 224, 224]},
    "encoder": {"input_ids": [1, 128], "attention_mask": [1, 128]},
}


def feeds_for(session, shapes, rng):
    feeds = {}
    for declared in session.get_inputs():
        shape = shapes[declared.name]
        if declared.type == "tensor(float)":
            feeds[declared.name] = rng.standard_normal(shape).astype(np.float32)
        elif declared.type == "tensor(int64)":
            feeds[declared.name] = rng.integers(0, 2, shape).astype(np.int64)
        else:
            raise SystemExit(f"{declared.name}: {declared.type} is not supported here")
    return feeds


def time_glow(binary, model, shapes, repeat):
    command = [str(binary / "glow-run"), str(model), "--repeat", str(repeat)]
    for name, shape in shapes.items():
        command += ["--input-shape", f"{name}={'x'.join(map(str, shape))}"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"glow-run failed on {model.name}: {run.stderr.strip()}")
    found = re.search(r"compile ([0-9.]+) s, run ([0-9.]+) ms", run.stdout)
    if not found:
        raise SystemExit(f"glow-run printed no timing: {run.stdout}")
    return float(found.group(2)), float(found.group(1))


def median_ms(call, repeat):
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def time_onnxruntime(model, feeds, repeat):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    start = time.perf_counter()
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    setup = time.perf_counter() - start
    return median_ms(lambda: session.run(None, feeds), repeat), setup


def time_iree(model, feeds, repeat):
    import iree.runtime as runtime

    cache = ROOT / ".cache" / "iree"
    cache.mkdir(parents=True, exist_ok=True)
    imported, compiled = cache / f"{model.stem}.mlir", cache / f"{model.stem}.vmfb"
    bin_dir = pathlib.Path(sys.executable).parent
    start = time.perf_counter()
    if not compiled.exists() or compiled.stat().st_mtime < model.stat().st_mtime:
        subprocess.run([bin_dir / "iree-import-onnx", model, "-o", imported], check=True)
        subprocess.run([bin_dir / "iree-compile", imported,
                        "--iree-hal-target-device=local",
                        "--iree-hal-local-target-device-backends=llvm-cpu",
                        "--iree-llvmcpu-target-cpu=host",
                        "-o", compiled], check=True)
    setup = time.perf_counter() - start
    config = runtime.Config("local-sync")
    context = runtime.SystemContext(config=config)
    context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, compiled.read_bytes()))
    module = context.modules.module
    # iree-import-onnx names the entry after the graph; skip the $async variant and
    # the initializer.
    entry = next(f for f in module.vm_module.function_names
                 if "$" not in f and not f.startswith("__"))
    function = module[entry]
    arguments = list(feeds.values())
    return median_ms(lambda: function(*arguments), repeat), setup


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", default=["resnet50", "mobilenetv2", "encoder"])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--no-iree", action="store_true")
    arguments = parser.parse_args()

    rows = []
    for name in arguments.models:
        if name not in SHAPES:
            raise SystemExit(f"unknown model {name}: one of {', '.join(SHAPES)}")
        model = MODELS / f"{name}.onnx"
        if not model.exists():
            subprocess.run([sys.executable, ROOT / "python" / "build_models.py", name], check=True)
        shapes = SHAPES[name]
        glow_ms, glow_compile = time_glow(pathlib.Path(arguments.bin), model, shapes,
                                          arguments.repeat)
        session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
        feeds = feeds_for(session, shapes, np.random.default_rng(0))
        ort_ms, ort_setup = time_onnxruntime(model, feeds, arguments.repeat)
        iree_ms = iree_setup = None
        if not arguments.no_iree:
            iree_ms, iree_setup = time_iree(model, feeds, arguments.repeat)
        rows.append((name, glow_ms, ort_ms, iree_ms, glow_compile, ort_setup, iree_setup))

    print()
    print(f"{'model':<12} {'glow ms':>9} {'ort ms':>9} {'iree ms':>9} "
          f"{'glow/ort':>9} {'glow/iree':>9}   compile s: glow / ort / iree")
    for name, glow_ms, ort_ms, iree_ms, glow_c, ort_c, iree_c in rows:
        iree_text = f"{iree_ms:9.2f}" if iree_ms else f"{'-':>9}"
        ratio_iree = f"{glow_ms / iree_ms:9.2f}" if iree_ms else f"{'-':>9}"
        iree_compile = f"{iree_c:.1f}" if iree_c is not None else "-"
        print(f"{name:<12} {glow_ms:9.2f} {ort_ms:9.2f} {iree_text} "
              f"{glow_ms / ort_ms:9.2f} {ratio_iree}   {glow_c:.1f} / {ort_c:.1f} / {iree_compile}")
    print("ratios are glow time / other time: below 1 means Glow is faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
