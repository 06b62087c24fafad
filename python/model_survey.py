"""Tries glow on torchvision models the benchmark does not cover, and on sequence and
image-to-image networks written with torch.nn (python/sequence_models.py), as a new
user would:
each is exported by torch.onnx (python/export_torch_models.py, random weights) when
missing, run by glow-run and by onnxruntime on the same random input, and timed on one
thread each in the same run. Prints the CPU, then per model glow's compile time, both
run times (median), their ratio and glow's largest difference from onnxruntime's
output relative to that output's largest value; writes the rows as JSON.

Usage: model_survey.py [--repeat N] [--bin DIR] [--json FILE] [NAME ...]
NAME: the survey's models of export_torch_models.py (default: all of them).
Needs torch and torchvision for the export (scripts/install-torch.sh).
"""
import argparse
import datetime
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from benchmark import cpu_description, median_ms, time_glow, torch_python  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS = ROOT / ".cache" / "models"
# Input shapes: torchvision's images, then python/sequence_models.py's networks.
SURVEY = {
    **{name: (1, 3, size, size) for name, size in {
        "torch_densenet121": 224, "torch_googlenet": 224, "torch_inception_v3": 299,
        "torch_shufflenet_v2": 224, "torch_mnasnet": 224, "torch_mobilenet_v3_small": 224,
        "torch_mobilenet_v3_large": 224, "torch_regnet_y_400mf": 224, "torch_maxvit_t": 224,
        "torch_efficientnet_v2_s": 224, "torch_alexnet": 224, "torch_fcn_resnet50": 224,
        "torch_deeplabv3_mobilenet_v3": 224, "torch_lraspp_mobilenet_v3": 224}.items()},
    "torch_lstm": (1, 64, 128), "torch_gru": (4, 100, 40), "torch_tcn": (2, 40, 400),
    "torch_separable_conv1d": (1, 64, 256), "torch_transformer_encoder": (2, 64, 256),
    "torch_unet": (1, 3, 128, 128), "torch_whisper_encoder": (1, 80, 3000),
}


def ensure(name):
    model = MODELS / f"{name}.onnx"
    if not model.exists():
        python = torch_python()
        if python is None:
            return None
        subprocess.run([python, ROOT / "python" / "export_torch_models.py", name], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return model


def largest_difference(binary, model, x, expected):
    """glow-run's outputs on `x` against onnxruntime's, relative to their largest value."""
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        np.save(folder / "input.npy", x)
        run = subprocess.run([str(binary / "glow-run"), str(model), "--input",
                              f"input={folder / 'input.npy'}", "--output-dir", str(folder / "out")],
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"glow-run failed on {model.name}: {run.stderr.strip()}")
        worst = 0.0
        for name, want in expected.items():
            got = np.load(folder / "out" / f"{name}.npy")
            worst = max(worst, float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)))
        return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(SURVEY))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--json", default=str(ROOT / ".cache" / "benchmark" / "survey.json"))
    arguments = parser.parse_args()
    binary = pathlib.Path(arguments.bin)
    unknown = [name for name in arguments.names if name not in SURVEY]
    if unknown:
        raise SystemExit(f"unknown model {unknown[0]}: one of {', '.join(SURVEY)}")
    print(cpu_description())
    print(f"{'model':32s} {'compile':>8s} {'glow':>10s} {'onnxruntime':>12s} {'glow/ort':>9s} "
          f"{'max |glow-ort| / max |ort|':>27s}")
    rows = []
    for name in arguments.names:
        model = ensure(name)
        if model is None:
            print(f"{name:32s} SKIPPED (no torch to export it: scripts/install-torch.sh)")
            continue
        x = np.random.default_rng(0).standard_normal(SURVEY[name]).astype(np.float32)
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        names = [o.name for o in session.get_outputs()]
        expected = dict(zip(names, session.run(None, {"input": x})))
        error = largest_difference(binary, model, x, expected)
        glow_ms, compile_s = time_glow(binary, model, {"input": x.shape}, arguments.repeat)
        ort_ms = median_ms(lambda: session.run(None, {"input": x}), arguments.repeat)
        rows.append({"model": name, "compile_s": compile_s, "glow_ms": glow_ms,
                     "onnxruntime_ms": ort_ms, "ratio": glow_ms / ort_ms, "error": error})
        print(f"{name:32s} {compile_s:7.1f}s {glow_ms:8.2f}ms {ort_ms:10.2f}ms "
              f"{glow_ms / ort_ms:9.2f} {error:27.2e}", flush=True)
    path = pathlib.Path(arguments.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cpu": cpu_description(), "date": datetime.date.today().isoformat(),
                                "threads": 1, "repeat": arguments.repeat, "rows": rows}, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
