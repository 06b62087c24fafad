"""Times whole models through Glow (glow-run), onnxruntime and IREE in the same run, on
this machine, single-threaded, and prints each one's median latency and the ratios.

Usage: benchmark.py [--repeat N] [--rounds R] [--bin DIR] [--no-iree] [--json FILE] [--chart FILE.png] [MODEL ...]
MODEL is one of build_models.py's names (resnet50, mobilenetv2, efficientnet_b0, encoder, minilm, and the int8
resnet50_int8, mobilenetv2_int8; built into .cache/models when missing), squeezenet
(the ONNX model zoo's SqueezeNet 1.0 that the onnx wheel ships, with constant weights),
or a model exported by torch.onnx (torch_resnet50, torch_mobilenetv2,
torch_efficientnet_b0, torch_squeezenet from torchvision; torch_bert, a Hugging
Face-style BERT at MiniLM-L6's shape; torch_resnet18, torch_vgg11, torch_vit_b_16,
torch_swin_t, torch_convnext_tiny, torch_resnext50, torch_regnet_y_400mf and
torch_mobilenet_v3_large only when named;
python/export_torch_models.py writes them when
missing, with torch from scripts/install-torch.sh; a torch model is reported SKIPPED
when there is no torch).
Every row is also written as JSON (--json, default .cache/benchmark/results.json, with
the CPU and the date) and the ratios drawn as a bar chart (--chart, default
.cache/benchmark/ratios.png; needs matplotlib: pip install -r
python/requirements-benchmark.txt, and says so when it is missing).
IREE modules are compiled once into .cache/iree. The CPU model and its vector / int8
flags are printed first: ratios are only comparable on the same machine.

An int8 row times onnxruntime's own int8 model (quant_pre_process + quantize_static:
QDQ, per-channel int8 weights, uint8 activations) in every engine, glow running it on
its integer kernels; two more glow columns give glow's fp32 time on the float model
and glow's own profile-guided int8 of the float model (glow-run --calibration on the
same four calibration inputs, then --load-profile).

What is timed, for each engine: the median wall time of one inference over --repeat
runs after one warm-up run, inputs already in memory, one thread. glow (1 and 2
threads) and onnxruntime are timed --rounds times (default 3), alternating, and each
column is the median of its rounds: a shared host's load drifts within seconds, and
alternating rounds keep one engine from being timed only in a quiet or a busy moment
(the range of the per-round glow / onnxruntime ratios is printed under the table):
- glow: glow-run --threads 1 --repeat N (JIT-compiled by the CPU pipeline; only the call
  is timed); "glow 2T" is the same with --threads 2 (OpenMP), the only multi-threaded
  column
- onnxruntime: InferenceSession.run with intra_op_num_threads=1, all graph optimizations
- glow bundle: the same model as a glow-compile bundle called from Python through the
  glow package (python/glow: glow.compile(...).run(feeds)), which includes copying the
  inputs and outputs
- IREE: iree-import-onnx -> iree-compile (llvm-cpu, --iree-llvmcpu-target-cpu=host)
  -> iree.runtime on the local-sync (single-thread) driver
- IREE via glow: glow-import --emit=linalg (Glow's graph optimizations and layout) ->
  the same iree-compile and runtime
Compile times are printed too (glow's includes LLVM code generation).
"""
import argparse
import os
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
    "efficientnet_b0": {"input": [1, 3, 224, 224]},
    "encoder": {"input_ids": [1, 128], "attention_mask": [1, 128]},
    "minilm": {"input_ids": [2, 32], "attention_mask": [2, 32]},
    "squeezenet": {"data_0": [1, 3, 224, 224]},
    # Exported by torch.onnx from torchvision / Hugging Face-style code
    # (python/export_torch_models.py; needs scripts/install-torch.sh).
    "torch_resnet50": {"input": [1, 3, 224, 224]},
    "torch_mobilenetv2": {"input": [1, 3, 224, 224]},
    "torch_efficientnet_b0": {"input": [1, 3, 224, 224]},
    "torch_squeezenet": {"input": [1, 3, 224, 224]},
    "torch_bert": {"input_ids": [2, 32], "attention_mask": [2, 32]},
    # Not in the default set (VGG-11's file is 531 MB): 3x3-heavy torchvision models,
    # and architectures beyond the default set (transformers, grouped convolutions).
    "torch_resnet18": {"input": [1, 3, 224, 224]},
    "torch_vgg11": {"input": [1, 3, 224, 224]},
    "torch_vit_b_16": {"input": [1, 3, 224, 224]},
    "torch_swin_t": {"input": [1, 3, 224, 224]},
    "torch_convnext_tiny": {"input": [1, 3, 224, 224]},
    "torch_resnext50": {"input": [1, 3, 224, 224]},
    "torch_regnet_y_400mf": {"input": [1, 3, 224, 224]},
    "torch_mobilenet_v3_large": {"input": [1, 3, 224, 224]},
    # Long attention: Whisper-tiny's encoder shape over 1500 frames (sequence_models.py).
    "torch_whisper_encoder": {"input": [1, 80, 3000]},
}
TORCH = tuple(name for name in SHAPES if name.startswith("torch_"))
TORCH_EXTRA = ("torch_resnet18", "torch_vgg11", "torch_vit_b_16", "torch_swin_t",
               "torch_convnext_tiny", "torch_resnext50", "torch_regnet_y_400mf",
               "torch_mobilenet_v3_large", "torch_whisper_encoder")
INT8 = ("resnet50_int8", "mobilenetv2_int8", "torch_bert_int8", "torch_bert_dynamic")
# int8 rows of exported models: the float model and the onnxruntime quantizer variant
# (python/int8_exports.py writes and caches them): quantize_static QDQ per-channel, and
# quantize_dynamic (DynamicQuantizeLinear + MatMulInteger), the usual int8 transformer.
EXPORTED_INT8 = {"torch_bert_int8": ("torch_bert", "qdq"),
                 "torch_bert_dynamic": ("torch_bert", "dynamic")}
CPU_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_int8", "amx_bf16")


def cpu_description():
    """'model name', family / model (virtual machines often report only "AMD EPYC",
    which is Zen 4 at family 25 and Zen 5 at family 26) and the vector / int8 flags of
    /proc/cpuinfo."""
    fields, flags = {}, set()
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key == "flags":
                flags = set(value.split())
            elif key in ("model name", "cpu family", "model") and key not in fields:
                fields[key] = value.strip()
    except OSError:
        pass
    model = fields.get("model name", "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        model += f" (family {fields['cpu family']} model {fields['model']})"
    present = [f for f in CPU_FLAGS if f in flags]
    absent = [f for f in CPU_FLAGS if f not in flags]
    return (f"{model}, {os.cpu_count()} CPUs; flags: {' '.join(present) or '-'}"
            + (f" (no {' '.join(absent)})" if absent else ""))


def torch_python():
    """An interpreter that can import torch and torchvision, or None."""
    for python in (sys.executable, "/usr/bin/python3"):
        probe = subprocess.run([python, "-c", "import torch, torchvision"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if probe.returncode == 0:
            return python
    return None


def ensure_model(name):
    """The model's file, built (or exported by torch) when missing; None for a torch
    model when no torch is installed."""
    model = MODELS / f"{name}.onnx"
    if not model.exists() and name in TORCH:
        python = torch_python()
        if python is None:
            return None
        subprocess.run([python, ROOT / "python" / "export_torch_models.py", name], check=True,
                       stdout=subprocess.DEVNULL)
        return model
    if not model.exists() and name == "squeezenet":
        import shutil
        import onnx
        zoo = pathlib.Path(onnx.__file__).parent / "backend/test/data/light/light_squeezenet.onnx"
        MODELS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(zoo, model)
    if not model.exists():
        subprocess.run([sys.executable, ROOT / "python" / "build_models.py", name], check=True)
    return model


def write_results(path, rows, int8_rows, round_ratios):
    """The rows as JSON: CPU, date, and per model every time (ms) and ratio."""
    import datetime
    import json
    fp32 = [
        {"model": name, "glow_ms": glow_ms, "glow_2_threads_ms": glow_2t, "bundle_ms": bundle_ms,
         "onnxruntime_ms": ort_ms, "iree_ms": iree_ms, "iree_via_glow_ms": via_glow_ms,
         "glow_over_onnxruntime": glow_ms / ort_ms,
         "glow_over_onnxruntime_per_round": round_ratios.get(name),
         "glow_over_iree": glow_ms / iree_ms if iree_ms else None,
         "compile_s": {"glow": glow_c, "onnxruntime": ort_c, "iree": iree_c}}
        for (name, glow_ms, ort_ms, iree_ms, glow_c, ort_c, iree_c, bundle_ms, via_glow_ms,
             glow_2t) in rows]
    int8 = [
        {"model": name, "glow_fp32_ms": fp32_ms, "glow_int8_ms": qdq, "glow_own_int8_ms": own,
         "onnxruntime_int8_ms": ort_ms, "iree_int8_ms": iree_ms,
         "glow_int8_over_onnxruntime_int8": qdq / ort_ms}
        for name, fp32_ms, qdq, own, ort_ms, iree_ms, _ in int8_rows]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "cpu": cpu_description(), "date": datetime.date.today().isoformat(),
        "threads": "1 unless the key says otherwise", "fp32": fp32, "int8": int8}, indent=2) + "\n")
    print(f"wrote {path}")


def draw_chart(path, rows, int8_rows):
    """Bars of glow's time over onnxruntime's and IREE's (and int8 over int8)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"no chart: matplotlib is missing (pip install -r python/requirements-benchmark.txt); {path} not written")
        return
    labels, ort, iree = [], [], []
    for name, glow_ms, ort_ms, iree_ms, *_ in rows:
        labels.append(name)
        ort.append(glow_ms / ort_ms)
        iree.append(glow_ms / iree_ms if iree_ms else 0)
    for name, _, qdq, _, ort_ms, iree_ms, _ in int8_rows:
        labels.append(name)
        ort.append(qdq / ort_ms)
        iree.append(qdq / iree_ms if iree_ms else 0)
    figure, axes = plt.subplots(figsize=(max(6, 1.2 * len(labels)), 4))
    positions = np.arange(len(labels))
    axes.bar(positions - 0.2, ort, 0.4, label="glow / onnxruntime")
    axes.bar(positions + 0.2, iree, 0.4, label="glow / IREE")
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xticks(positions, labels, rotation=20)
    axes.set_ylabel("time ratio (below 1: glow faster)")
    axes.set_title(f"one thread, same run: {cpu_description()}", fontsize=7)
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    print(f"wrote {path}")


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


def time_glow(binary, model, shapes, repeat, flags=(), threads=1):
    command = [str(binary / "glow-run"), str(model), "--repeat", str(repeat),
               "--threads", str(threads), *map(str, flags)]
    for name, shape in shapes.items():
        command += ["--input-shape", f"{name}={'x'.join(map(str, shape))}"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"glow-run failed on {model.name}: {run.stderr.strip()}")
    found = re.search(r"compile ([0-9.]+) s, run ([0-9.]+) ms", run.stdout)
    if not found:
        raise SystemExit(f"glow-run printed no timing: {run.stdout}")
    return float(found.group(2)), float(found.group(1))


def glow_profile(binary, model, shapes):
    """Profiles `model` with glow-run on the four seeded inputs onnxruntime's quantizer
    calibrated on (build_models.py, int8_exports.py); returns the profile's path."""
    from int8_exports import samples as seeded_samples

    folder = ROOT / ".cache" / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    drawn = [seeded_samples(shapes, rng) for _ in range(4)]
    samples = {name: np.stack([s[name] for s in drawn]) for name in shapes}
    calibration, profile = folder / f"{model.stem}.calib.npz", folder / f"{model.stem}.profile.yaml"
    np.savez(calibration, **samples)
    pins = [a for name, shape in shapes.items()
            for a in ("--input-shape", f"{name}={'x'.join(map(str, shape))}")]
    run = subprocess.run([str(binary / "glow-run"), str(model), *pins, "--calibration", str(calibration),
                          "--dump-profile", str(profile)], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"glow-run profiling failed on {model.name}: {run.stderr.strip()}")
    return profile


def median_ms(call, repeat):
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def onnxruntime_session(model):
    """A one-thread session with every graph optimization, and its setup time (s)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    start = time.perf_counter()
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    return session, time.perf_counter() - start


def time_onnxruntime(model, feeds, repeat):
    session, setup = onnxruntime_session(model)
    return median_ms(lambda: session.run(None, feeds), repeat), setup


def alternating_rounds(binary, model, shapes, feeds, arguments):
    """glow at one and two threads and onnxruntime, timed in `arguments.rounds`
    alternating rounds: (glow ms, glow compile s, glow 2T ms, ort ms, ort setup s,
    per-round glow / ort ratios), each time the median of its rounds."""
    session, ort_setup = onnxruntime_session(model)
    glow, glow_2t, ort_times, compiles = [], [], [], []
    for _ in range(arguments.rounds):
        ms, compile_s = time_glow(binary, model, shapes, arguments.repeat)
        glow.append(ms)
        compiles.append(compile_s)
        glow_2t.append(time_glow(binary, model, shapes, arguments.repeat, threads=2)[0])
        ort_times.append(median_ms(lambda: session.run(None, feeds), arguments.repeat))
    ratios = [g / o for g, o in zip(glow, ort_times)]
    median = statistics.median
    return (median(glow), median(compiles), median(glow_2t), median(ort_times), ort_setup,
            ratios)


def time_iree(model, feeds, repeat):
    import iree.runtime as runtime

    cache = ROOT / ".cache" / "iree"
    cache.mkdir(parents=True, exist_ok=True)
    imported, compiled = cache / f"{model.stem}.mlir", cache / f"{model.stem}.vmfb"
    bin_dir = pathlib.Path(sys.executable).parent
    start = time.perf_counter()
    if not compiled.exists() or compiled.stat().st_mtime < model.stat().st_mtime:
        try:
            subprocess.run([bin_dir / "iree-import-onnx", model, "-o", imported], check=True,
                           capture_output=True, text=True)
            subprocess.run([bin_dir / "iree-compile", imported,
                            "--iree-hal-target-device=local",
                            "--iree-hal-local-target-device-backends=llvm-cpu",
                            "--iree-llvmcpu-target-cpu=host",
                            "-o", compiled], check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as error:
            reason = (error.stderr or "").strip().splitlines()
            print(f"IREE refused {model.name} from its own importer: {reason[0] if reason else error}")
            return None, None
    setup = time.perf_counter() - start
    function = iree_module(compiled)
    arguments = list(feeds.values())
    try:
        return median_ms(lambda: function(*arguments), repeat), setup
    except RuntimeError as error:
        reason = str(error).strip().splitlines()
        print(f"IREE failed running {model.name} from its own importer: "
              f"{reason[0] if reason else error}")
        return None, None


def time_glow_bundle(binary, model, shapes, feeds, repeat):
    """The model as a bundle through the glow Python package."""
    os.environ["GLOW_BIN_DIR"] = str(binary)
    sys.path.insert(0, str(ROOT / "python"))
    import glow
    compiled = glow.compile(model, input_shapes=shapes)
    return median_ms(lambda: compiled.run(feeds), repeat)


def iree_module(vmfb):
    import iree.runtime as runtime
    config = runtime.Config("local-sync")
    context = runtime.SystemContext(config=config)
    context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, vmfb.read_bytes()))
    module = context.modules.module
    # iree-import-onnx names the entry after the graph; skip the $async variant and
    # the initializer.
    entry = next(f for f in module.vm_module.function_names
                 if "$" not in f and not f.startswith("__"))
    return module[entry]


def time_iree_via_glow(binary, model, shapes, feeds, repeat):
    """glow-import --emit=linalg, then iree-compile and IREE's runtime."""
    cache = ROOT / ".cache" / "iree"
    cache.mkdir(parents=True, exist_ok=True)
    exported, compiled = cache / f"{model.stem}.glow.mlir", cache / f"{model.stem}.glow.vmfb"
    pins = [a for name, shape in shapes.items()
            for a in ("--input-shape", f"{name}={'x'.join(map(str, shape))}")]
    subprocess.run([str(binary / "glow-import"), str(model), *pins, "--emit=linalg", "-o",
                    str(exported)], check=True)
    subprocess.run([pathlib.Path(sys.executable).parent / "iree-compile", exported,
                    "--iree-hal-target-device=local",
                    "--iree-hal-local-target-device-backends=llvm-cpu",
                    "--iree-llvmcpu-target-cpu=host", "-o", compiled], check=True)
    function = iree_module(compiled)
    arguments = list(feeds.values())
    return median_ms(lambda: function(*arguments), repeat)


def int8_row(name, arguments, binary):
    """(name, glow fp32, glow int8 on onnxruntime's model, glow's own int8, ort int8, iree
    int8, compile s of glow int8) for an INT8 model."""
    if name in EXPORTED_INT8:
        from int8_exports import quantized

        base, variant = EXPORTED_INT8[name]
        float_model = ensure_model(base)
        if float_model is None:
            return None
        model, problem = quantized(float_model, variant, SHAPES[base])
        if problem:
            raise SystemExit(f"{name}: {problem}")
    else:
        base = name[:-len("_int8")]
        model, float_model = ensure_model(name), ensure_model(base)
    shapes = SHAPES[base]
    glow_fp32, _ = time_glow(binary, float_model, shapes, arguments.repeat)
    glow_qdq, glow_compile = time_glow(binary, model, shapes, arguments.repeat)
    profile = glow_profile(binary, float_model, shapes)
    glow_own, _ = time_glow(binary, float_model, shapes, arguments.repeat, ["--load-profile", profile])
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    feeds = feeds_for(session, shapes, np.random.default_rng(0))
    ort_ms, _ = time_onnxruntime(model, feeds, arguments.repeat)
    iree_ms = None if arguments.no_iree else time_iree(model, feeds, arguments.repeat)[0]
    return name, glow_fp32, glow_qdq, glow_own, ort_ms, iree_ms, glow_compile


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*",
                        default=["resnet50", "mobilenetv2", "efficientnet_b0", "encoder", "minilm",
                                 *(n for n in TORCH if n not in TORCH_EXTRA), *INT8])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of glow and onnxruntime timings (medians reported)")
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--no-iree", action="store_true")
    parser.add_argument("--json", default=str(ROOT / ".cache" / "benchmark" / "results.json"))
    parser.add_argument("--chart", default=str(ROOT / ".cache" / "benchmark" / "ratios.png"))
    arguments = parser.parse_args()
    binary = pathlib.Path(arguments.bin)
    print(f"CPU: {cpu_description()}")

    if arguments.rounds < 1 or arguments.repeat < 1:
        raise SystemExit("--rounds and --repeat must be at least 1")
    rows, int8_rows, round_ratios = [], [], {}
    for name in arguments.models:
        if name in INT8:
            row = int8_row(name, arguments, binary)
            if row is None:
                print(f"SKIPPED {name}: no torch to export its float model with")
            else:
                int8_rows.append(row)
            continue
        if name not in SHAPES:
            raise SystemExit(f"unknown model {name}: one of {', '.join([*SHAPES, *INT8])}")
        model = ensure_model(name)
        if model is None:
            print(f"SKIPPED {name}: no torch to export it with (scripts/install-torch.sh installs "
                  "Debian's CPU torch for python/export_torch_models.py)")
            continue
        shapes = SHAPES[name]
        session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
        feeds = feeds_for(session, shapes, np.random.default_rng(0))
        glow_ms, glow_compile, glow_2t, ort_ms, ort_setup, ratios = alternating_rounds(
            binary, model, shapes, feeds, arguments)
        round_ratios[name] = ratios
        bundle_ms = time_glow_bundle(binary, model, shapes, feeds, arguments.repeat)
        iree_ms = iree_setup = via_glow_ms = None
        if not arguments.no_iree:
            iree_ms, iree_setup = time_iree(model, feeds, arguments.repeat)
            via_glow_ms = time_iree_via_glow(binary, model, shapes, feeds, arguments.repeat)
        rows.append((name, glow_ms, ort_ms, iree_ms, glow_compile, ort_setup, iree_setup,
                     bundle_ms, via_glow_ms, glow_2t))

    dash = f"{'-':>9}"
    if rows:
        print()
        print(f"{'model':<12} {'glow ms':>9} {'glow 2T':>9} {'bundle ms':>9} {'ort ms':>9} "
              f"{'iree ms':>9} {'iree/glow':>9} {'glow/ort':>9} {'glow/iree':>9}   "
              f"compile s: glow / ort / iree")
        for (name, glow_ms, ort_ms, iree_ms, glow_c, ort_c, iree_c, bundle_ms,
             via_glow_ms, glow_2t) in rows:
            iree_text = f"{iree_ms:9.2f}" if iree_ms else dash
            via_text = f"{via_glow_ms:9.2f}" if via_glow_ms else dash
            ratio_iree = f"{glow_ms / iree_ms:9.2f}" if iree_ms else dash
            iree_compile = f"{iree_c:.1f}" if iree_c is not None else "-"
            print(f"{name:<12} {glow_ms:9.2f} {glow_2t:9.2f} {bundle_ms:9.2f} {ort_ms:9.2f} {iree_text} "
                  f"{via_text} {glow_ms / ort_ms:9.2f} {ratio_iree}   "
                  f"{glow_c:.1f} / {ort_c:.1f} / {iree_compile}")
        print("bundle: glow-compile's bundle through the glow Python package; iree/glow: IREE "
              "compiling glow-import --emit=linalg")
        print(f"glow/ort per round ({arguments.rounds} alternating rounds): " + ", ".join(
            f"{name} {min(r):.2f}-{max(r):.2f}" for name, r in round_ratios.items()))
    if int8_rows:
        print()
        print(f"{'int8 model':<17} {'glow fp32':>9} {'glow int8':>9} {'glow own':>9} {'ort int8':>9} "
              f"{'iree int8':>9} {'int8/fp32':>9} {'glow/ort':>9} {'own/ort':>9} {'glow/iree':>9}")
        for name, fp32, qdq, own, ort_ms, iree_ms, _ in int8_rows:
            iree_text = f"{iree_ms:9.2f}" if iree_ms else dash
            ratio_iree = f"{qdq / iree_ms:9.2f}" if iree_ms else dash
            print(f"{name:<17} {fp32:9.2f} {qdq:9.2f} {own:9.2f} {ort_ms:9.2f} {iree_text} "
                  f"{qdq / fp32:9.2f} {qdq / ort_ms:9.2f} {own / ort_ms:9.2f} {ratio_iree}")
        print("glow int8: onnxruntime's QDQ model on glow's integer kernels; glow own: the float "
              "model through glow's profile-guided quantization")
    print("ratios are glow time / other time: below 1 means Glow is faster")
    write_results(pathlib.Path(arguments.json), rows, int8_rows, round_ratios)
    draw_chart(pathlib.Path(arguments.chart), rows, int8_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
