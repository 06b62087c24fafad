"""Quantizes exported models every way onnxruntime's tools offer and runs each through
glow and onnxruntime, as a new user would: quantize_static in the QDQ format (per-channel
or per-tensor int8 weights, uint8 or int8 activations, uint8 weights, reduce_range) and
in the QOperator format (onnxruntime's com.microsoft QLinear* ops), quantize_dynamic
(DynamicQuantizeLinear + MatMulInteger / ConvInteger, int8 or uint8 weights), and for
BERT-family models onnxruntime's transformer optimizer's fused graph (com.microsoft
Attention, EmbedLayerNormalization, ...) in float and quantized dynamically (QAttention).

For every variant it prints whether glow imports and runs it, glow's normalized max
error against onnxruntime (max |glow - ort| / max |ort|) and against onnxruntime with
its graph optimizations off (which executes the QDQ graph literally, in float: the
format's defined meaning), whether the top-1 class agrees (classifiers), and one-thread
times of glow, onnxruntime and glow's float model, with the CPU they ran on.

Usage: int8_exports.py [MODEL ...] [--variants a,b] [--repeat N] [--bin DIR] [--json FILE]
MODEL: torch_resnet50, torch_mobilenetv2, torch_efficientnet_b0, torch_bert (exported by
python/export_torch_models.py, which needs torch: scripts/install-torch.sh), or
resnet50, mobilenetv2, encoder (python/build_models.py). Default: the torch exports when
torch is available, else the build_models ones. Quantized files are cached in
.cache/int8/. Calibration: four seeded random inputs (enough to exercise the kernels;
accuracy on real data is python/quantization_accuracy.py's subject).
"""
import argparse
import json
import logging
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from benchmark import cpu_description, ensure_model, median_ms, torch_python  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "int8"
IMAGE = {"input": [1, 3, 224, 224]}
TOKENS = {"input_ids": [2, 32], "attention_mask": [2, 32]}
SHAPES = {"torch_resnet50": IMAGE, "torch_mobilenetv2": IMAGE, "torch_efficientnet_b0": IMAGE,
          "torch_bert": TOKENS, "resnet50": IMAGE, "mobilenetv2": IMAGE,
          "encoder": {"input_ids": [1, 128], "attention_mask": [1, 128]}}
CLASSIFIERS = {"torch_resnet50", "torch_mobilenetv2", "torch_efficientnet_b0", "resnet50",
               "mobilenetv2"}


def variants():
    """name -> (quantizer, keyword arguments)."""
    from onnxruntime.quantization import QuantFormat, QuantType
    u8, s8 = QuantType.QUInt8, QuantType.QInt8
    # uint8 activations with int8 weights is onnxruntime's fast x86 combination (its
    # quantize_static defaults to int8 activations, which it runs unfused on x86).
    static = {
        "qdq": dict(quant_format=QuantFormat.QDQ, per_channel=True, activation_type=u8,
                    weight_type=s8),
        "qdq-per-tensor": dict(quant_format=QuantFormat.QDQ, per_channel=False,
                               activation_type=u8, weight_type=s8),
        "qdq-s8-activations": dict(quant_format=QuantFormat.QDQ, per_channel=True,
                                   activation_type=s8, weight_type=s8),
        "qdq-u8-weights": dict(quant_format=QuantFormat.QDQ, per_channel=False,
                               activation_type=u8, weight_type=u8),
        "qdq-reduce-range": dict(quant_format=QuantFormat.QDQ, per_channel=True,
                                 reduce_range=True, activation_type=u8, weight_type=s8),
        "qoperator": dict(quant_format=QuantFormat.QOperator, per_channel=True,
                          activation_type=u8, weight_type=s8),
        "qoperator-s8": dict(quant_format=QuantFormat.QOperator, per_channel=False,
                             activation_type=s8, weight_type=s8),
    }
    table = {name: ("static", kwargs) for name, kwargs in static.items()}
    table["dynamic"] = ("dynamic", dict(weight_type=s8))
    table["dynamic-u8-weights"] = ("dynamic", dict(weight_type=u8))
    # onnxruntime's transformer optimizer (com.microsoft Attention, EmbedLayerNormalization,
    # SkipLayerNormalization, BiasGelu), then quantize_dynamic (QAttention, ...): the
    # usual int8 BERT recipe. The float fused model is a row too.
    table["fused"] = ("fused", None)
    table["fused-dynamic"] = ("fused", dict(weight_type=s8,
                                            extra_options={"DefaultTensorType": 1}))
    return table


def samples(shapes, rng):
    feeds = {}
    for name, shape in shapes.items():
        if name == "input_ids":
            feeds[name] = rng.integers(0, 1000, shape).astype(np.int64)
        elif name == "attention_mask":
            mask = np.ones(shape, np.int64)
            mask[-1, shape[1] * 2 // 3:] = 0
            feeds[name] = mask
        else:
            feeds[name] = rng.standard_normal(shape).astype(np.float32)
    return feeds


def quantized(model, variant, shapes):
    """The model quantized as `variant` (cached), or the quantizer's error text."""
    from onnxruntime.quantization import CalibrationDataReader, quantize_dynamic, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    CACHE.mkdir(parents=True, exist_ok=True)

    def current(path):
        """Cached and made from the model as it is now (a re-exported model is
        quantized again)."""
        return path.exists() and path.stat().st_mtime >= model.stat().st_mtime

    prepared = CACHE / f"{model.stem}.pre.onnx"
    if not current(prepared):
        quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
    out = CACHE / f"{model.stem}.{variant}.onnx"
    if current(out):
        return out, None
    kind, kwargs = variants()[variant]
    if kind == "fused" and "input_ids" not in shapes:
        return None, "transformer fusions: BERT-family models only"

    class Reader(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(0)
            self.feeds = iter([samples(shapes, rng) for _ in range(4)])

        def get_next(self):
            return next(self.feeds, None)

    try:
        if kind == "static":
            quantize_static(str(prepared), str(out), Reader(), **kwargs)
        elif kind == "dynamic":
            quantize_dynamic(str(prepared), str(out), **kwargs)
        else:
            from onnxruntime.transformers.optimizer import optimize_model
            fused = optimize_model(str(model), model_type="bert", opt_level=0)
            if kwargs is None:
                fused.save_model_to_file(str(out))
            else:
                with tempfile.TemporaryDirectory() as folder:
                    fused.save_model_to_file(f"{folder}/fused.onnx")
                    quantize_dynamic(f"{folder}/fused.onnx", str(out), **kwargs)
    except Exception as error:  # the quantizer's own failure, reported as such
        return None, f"onnxruntime's quantizer failed: {error}"
    return out, None


def session(model, optimized):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = (ort.GraphOptimizationLevel.ORT_ENABLE_ALL if optimized
                                        else ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


def glow_run(binary, model, shapes, feeds, repeat):
    """(first output, median ms) of glow-run on one thread, or the error line."""
    with tempfile.TemporaryDirectory() as folder:
        command = [str(binary / "glow-run"), str(model), "--threads", "1", "--repeat",
                   str(repeat), "--output-dir", folder]
        for name, shape in shapes.items():
            np.save(f"{folder}/{name}.in.npy", feeds[name])
            command += ["--input-shape", f"{name}={'x'.join(map(str, shape))}",
                        "--input", f"{name}={folder}/{name}.in.npy"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            lines = run.stderr.strip().splitlines()
            return None, None, lines[-1] if lines else f"exit {run.returncode}"
        timing = re.search(r"run ([0-9.]+) ms", run.stdout)
        outputs = sorted(p for p in pathlib.Path(folder).glob("*.npy")
                         if not p.name.endswith(".in.npy"))
        return np.load(outputs[0]), float(timing.group(1)), None


def row(binary, name, variant, repeat):
    base = ensure_model(name)
    shapes = SHAPES[name]
    model, problem = quantized(base, variant, shapes)
    result = {"model": name, "variant": variant}
    if problem:
        return {**result, "status": problem}
    feeds = samples(shapes, np.random.default_rng(1))
    got, glow_ms, error = glow_run(binary, model, shapes, feeds, repeat)
    try:
        optimized = session(model, True)
        expected = optimized.run(None, feeds)[0]
    except Exception as ort_error:  # onnxruntime refusing its own quantizer's output
        message = str(ort_error).splitlines()[0].split(" : ")[-1]
        glow = error
        if not error:
            # No onnxruntime result to compare with: glow against the float model (the
            # quantization's own error, which the other variants show too).
            reference = session(base, True).run(None, feeds)[0]
            scale = float(np.max(np.abs(reference))) or 1.0
            result.update(glow_ms=glow_ms,
                          error_vs_float=float(np.max(np.abs(got - reference))) / scale)
            glow = (f"glow runs it ({glow_ms:.2f} ms), error vs the float model "
                    f"{result['error_vs_float']:.2g}")
            if name in CLASSIFIERS:
                result["top1_equal_float"] = bool(
                    np.all(np.argmax(got, -1) == np.argmax(reference, -1)))
                glow += ", top-1 " + ("equal" if result["top1_equal_float"] else "DIFFERS")
        return {**result, "status": f"onnxruntime cannot run it ({message}); {glow}"}
    if error:
        return {**result, "status": error}
    literal = session(model, False).run(None, feeds)[0]
    scale = float(np.max(np.abs(expected))) or 1.0
    if variant.startswith("dynamic"):
        # Dynamic quantization rounds each layer's input at run time: a float
        # rounding difference upstream can move a value across a step, so the engines
        # differ by more than one output step; the float model shows what is noise.
        reference = session(base, True).run(None, feeds)[0]
        result["error_vs_float"] = float(np.max(np.abs(got - reference))) / scale
        result["ort_vs_float"] = float(np.max(np.abs(expected - reference))) / scale
    result.update(
        status="runs",
        error_vs_ort=float(np.max(np.abs(got - expected))) / scale,
        error_vs_literal=float(np.max(np.abs(got - literal))) / scale,
        ort_vs_literal=float(np.max(np.abs(expected - literal))) / scale,
        glow_ms=glow_ms,
        ort_ms=median_ms(lambda: optimized.run(None, feeds), repeat),
    )
    if name in CLASSIFIERS:
        result["top1_equal"] = bool(np.all(np.argmax(got, -1) == np.argmax(expected, -1)))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*")
    parser.add_argument("--variants", default=",".join(variants()))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--json", default=str(ROOT / ".cache" / "int8" / "results.json"))
    arguments = parser.parse_args()
    models = arguments.models or (
        ["torch_resnet50", "torch_mobilenetv2", "torch_efficientnet_b0", "torch_bert"]
        if torch_python() else ["resnet50", "mobilenetv2", "encoder"])
    chosen = arguments.variants.split(",")
    unknown = [v for v in chosen if v not in variants()]
    if unknown:
        raise SystemExit(f"unknown variant '{unknown[0]}' (variants: {', '.join(variants())})")
    binary = pathlib.Path(arguments.bin)
    # onnxruntime's quantizer logs every tensor it cannot type and numpy's overflow in
    # its range arithmetic; the table is what this prints.
    logging.getLogger().setLevel(logging.ERROR)
    warnings.simplefilter("ignore", RuntimeWarning)
    print(f"CPU: {cpu_description()}")
    print(f"date: {time.strftime('%Y-%m-%d')}, one thread, median of {arguments.repeat} runs")
    rows = []
    for name in models:
        if ensure_model(name) is None:
            print(f"{name}: SKIPPED (needs torch: scripts/install-torch.sh)")
            continue
        float_ms = glow_run(binary, ensure_model(name), SHAPES[name],
                            samples(SHAPES[name], np.random.default_rng(1)), arguments.repeat)[1]
        print(f"{name} (glow float: {float_ms:.2f} ms)")
        for variant in chosen:
            r = row(binary, name, variant, arguments.repeat)
            r["glow_float_ms"] = float_ms
            rows.append(r)
            if r["status"] != "runs":
                print(f"  {variant:<20} {r['status']}")
                continue
            top1 = {True: ", top-1 equal", False: ", top-1 DIFFERS"}.get(r.get("top1_equal"), "")
            float_error = ""
            if "error_vs_float" in r:
                float_error = (f"; vs the float model: glow {r['error_vs_float']:.2g}, "
                               f"ort {r['ort_vs_float']:.2g}")
            print(f"  {variant:<20} error vs ort {r['error_vs_ort']:.2g} (vs literal "
                  f"{r['error_vs_literal']:.2g}; ort vs literal {r['ort_vs_literal']:.2g}{float_error}){top1}; "
                  f"glow {r['glow_ms']:.2f} ms, ort {r['ort_ms']:.2f} ms "
                  f"({r['glow_ms'] / r['ort_ms']:.2f}), {float_ms / r['glow_ms']:.2f}x glow float")
    path = pathlib.Path(arguments.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cpu": cpu_description(), "date": time.strftime("%Y-%m-%d"),
                                "rows": rows}, indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
