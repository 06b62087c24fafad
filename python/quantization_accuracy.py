"""Measures Glow's profile-guided int8 accuracy against float and onnxruntime's int8.

A small CNN trained here (plain numpy) on scikit-learn's bundled digits is exported to
ONNX, profiled and quantized by glow-run, and compared with the float model and with
onnxruntime's int8 (quantize_static, QDQ, per-channel) calibrated on the same samples;
then a BERT-style encoder (build_models.py encoder), int8 against float by cosine
similarity of last_hidden_state.

Usage: .venv/bin/python python/quantization_accuracy.py [--bin target/release]
                                                         [--json PATH] [--no-encoder]
                                                         [--calibration-batches S]

Digits: 1797 8x8 images, split 80/20 (stratified, random_state=0): 1437 training,
360 test images. The model's batch is fixed at 60 (glow's profiles are tied to the
graph they were taken on, batch included), so the test split runs as 6 batches and
calibration uses S full batches of training images (default: all 23). Prints markdown
tables (top-1 per configuration; encoder cosine similarities) and writes the numbers
to --json (default .cache/accuracy/results.json); every generated file goes to
.cache/accuracy. Exits 1 if glow's int8 (asymmetric, minmax) top-1 is more than 0.5
points below float or below onnxruntime's int8, or if its encoder output's mean cosine
against float is below 0.99, so it can serve as a check.
"""
import argparse
import json
import logging
import pathlib
import re
import subprocess
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "accuracy"
BATCH = 60
# (input channels, output channels, stride) of the 3x3 convolutions (padding 1), each
# followed by Relu; then Flatten and a Gemm to the 10 classes.
CONVOLUTIONS = [(1, 16, 1), (16, 32, 2), (32, 32, 1)]
CLASSES = 10
FEATURES = 32 * 4 * 4
# Glow int8 configurations: (schema, calibration); the first is the checked one.
GLOW_INT8 = [("asymmetric", "minmax"), ("symmetric", "minmax"), ("symmetric_uint8", "minmax"),
             ("asymmetric", "kl"), ("asymmetric", "percentile")]
# The encoder check: glow's int8 (asymmetric, minmax) mean cosine against float.
ENCODER_COSINE = 0.99
ORT_INT8 = "onnxruntime int8 (quantize_static QDQ, per-channel)"
GLOW_ON_ORT = "glow on onnxruntime's int8 model"


# ---------------------------------------------------------------------------------------
# Data and the numpy CNN

def load_data():
    """The digits split: (x_train, y_train, x_test, y_test), images as float32 N x 1 x 8 x 8
    (pixels / 16, then standardized with the training split's mean and deviation)."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    x = (digits.images.astype(np.float32) / 16.0)[:, None, :, :]
    x_train, x_test, y_train, y_test = train_test_split(
        x, digits.target, test_size=0.2, random_state=0, stratify=digits.target)
    mean, std = x_train.mean(), x_train.std()
    normalize = lambda a: ((a - mean) / std).astype(np.float32)
    return normalize(x_train), y_train.astype(np.int64), normalize(x_test), y_test.astype(np.int64)


def im2col(x, stride):
    """3x3 patches of x (N, C, H, W) with padding 1: (N, OH, OW, C * 9)."""
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
    windows = windows[:, :, ::stride, ::stride]  # N, C, OH, OW, 3, 3
    n, c, oh, ow = windows.shape[:4]
    return windows.transpose(0, 2, 3, 1, 4, 5).reshape(n, oh, ow, c * 9)


def col2im(columns, shape, stride):
    """The adjoint of im2col: sums patch gradients (N, OH, OW, C * 9) back into shape."""
    n, c, h, w = shape
    _, oh, ow, _ = columns.shape
    columns = columns.reshape(n, oh, ow, c, 3, 3).transpose(0, 3, 4, 5, 1, 2)
    padded = np.zeros((n, c, h + 2, w + 2), dtype=columns.dtype)
    for i in range(3):
        for j in range(3):
            padded[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride] += columns[:, :, i, j]
    return padded[:, :, 1:-1, 1:-1]


def init_params(seed):
    rng = np.random.default_rng(seed)
    params = {}
    for index, (cin, cout, _) in enumerate(CONVOLUTIONS):
        scale = np.sqrt(2.0 / (cin * 9))  # He
        params[f"conv{index}_w"] = (rng.standard_normal((cout, cin, 3, 3)) * scale).astype(np.float32)
        params[f"conv{index}_b"] = np.zeros(cout, dtype=np.float32)
    params["fc_w"] = (rng.standard_normal((CLASSES, FEATURES)) * np.sqrt(1.0 / FEATURES)).astype(np.float32)
    params["fc_b"] = np.zeros(CLASSES, dtype=np.float32)
    return params


def forward(params, x):
    """Logits (N, 10) and what backward needs."""
    cache = []
    for index, (_, cout, stride) in enumerate(CONVOLUTIONS):
        columns = im2col(x, stride)
        w = params[f"conv{index}_w"].reshape(cout, -1)
        y = np.maximum(columns @ w.T + params[f"conv{index}_b"], 0.0)  # N, OH, OW, C
        cache.append((x.shape, columns, y))
        x = np.ascontiguousarray(y.transpose(0, 3, 1, 2))
    flat = x.reshape(len(x), -1)  # NCHW order, as ONNX's Flatten
    cache.append(flat)
    return flat @ params["fc_w"].T + params["fc_b"], cache


def backward(params, cache, grad_logits):
    grads = {}
    flat = cache[-1]
    grads["fc_w"] = grad_logits.T @ flat
    grads["fc_b"] = grad_logits.sum(0)
    grad = (grad_logits @ params["fc_w"]).reshape(len(flat), CONVOLUTIONS[-1][1], 4, 4)
    for index in reversed(range(len(CONVOLUTIONS))):
        _, cout, stride = CONVOLUTIONS[index]
        shape, columns, y = cache[index]
        grad = grad.transpose(0, 2, 3, 1) * (y > 0)  # N, OH, OW, C
        rows = grad.reshape(-1, cout)
        grad_w = rows.T @ columns.reshape(len(rows), -1)
        grads[f"conv{index}_w"] = grad_w.reshape(params[f"conv{index}_w"].shape)
        grads[f"conv{index}_b"] = rows.sum(0)
        if index:
            grad = col2im(grad @ params[f"conv{index}_w"].reshape(cout, -1), shape, stride)
    return grads


def train(x, y, epochs, seed, batch=32, rate=1e-3):
    """Adam on the mean softmax cross-entropy; deterministic for a seed."""
    rng = np.random.default_rng(seed)
    params = init_params(seed)
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta1, beta2, step = 0.9, 0.999, 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        lr = rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine decay
        total = 0.0
        for start in range(0, len(x), batch):
            picked = order[start:start + batch]
            logits, cache = forward(params, x[picked])
            shifted = logits - logits.max(1, keepdims=True)
            probabilities = np.exp(shifted)
            probabilities /= probabilities.sum(1, keepdims=True)
            labels = y[picked]
            total += -np.log(probabilities[np.arange(len(picked)), labels] + 1e-12).sum()
            probabilities[np.arange(len(picked)), labels] -= 1.0
            grads = backward(params, cache, probabilities / len(picked))
            step += 1
            for key, grad in grads.items():
                m, v = moments[key]
                m *= beta1
                m += (1 - beta1) * grad
                v *= beta2
                v += (1 - beta2) * grad * grad
                update = lr * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)
                params[key] = (params[key] - update).astype(np.float32)
    return params, total / len(x)


def export_onnx(params, path):
    """The CNN as ONNX (opset 17, IR 9), input `input` [BATCH, 1, 8, 8], output `logits`."""
    nodes, initializers = [], [numpy_helper.from_array(v, k) for k, v in params.items()]
    x = "input"
    for index, (_, _, stride) in enumerate(CONVOLUTIONS):
        conv, relu = f"conv{index}", f"relu{index}"
        nodes.append(helper.make_node("Conv", [x, f"{conv}_w", f"{conv}_b"], [conv], name=conv,
                                      kernel_shape=[3, 3], strides=[stride, stride], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [conv], [relu], name=relu))
        x = relu
    nodes.append(helper.make_node("Flatten", [x], ["flat"], name="flatten", axis=1))
    nodes.append(helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1))
    graph = helper.make_graph(
        nodes, "digits_cnn", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [BATCH, 1, 8, 8])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [BATCH, CLASSES])], initializers)
    # IR version 9: what onnxruntime 1.23 reads (the onnx 1.23 default is newer).
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9,
                              producer_name="glow-mlir quantization_accuracy.py")
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path)


def snr_db(reference, value):
    """10 log10(power of reference / power of the difference), in dB (inf when equal)."""
    reference, value = reference.astype(np.float64), value.astype(np.float64)
    noise = float(np.sum((reference - value) ** 2))
    return float("inf") if noise == 0 else float(10 * np.log10(np.sum(reference ** 2) / noise))


def batches(x):
    """x split into full batches of BATCH (x's length must be a multiple)."""
    assert len(x) % BATCH == 0, f"{len(x)} is not a multiple of the batch {BATCH}"
    return [x[i:i + BATCH] for i in range(0, len(x), BATCH)]


# ---------------------------------------------------------------------------------------
# Engines

class Glow:
    """glow-run from one folder: profiles and runs models on .npy inputs."""

    def __init__(self, folder):
        self.binary = pathlib.Path(folder) / "glow-run"
        self.compile_times = []

    def call(self, arguments, what):
        command = [str(self.binary), *map(str, arguments)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"glow-run failed ({what}), exit code {run.returncode}:\n  "
                             f"{' '.join(command)}\n  {run.stderr.strip()}")
        found = re.search(r"compile ([0-9.]+) s, run ([0-9.]+) ms", run.stdout)
        if found:
            self.compile_times.append(float(found.group(1)))
        return run.stdout

    def profile(self, model, calibration, profile):
        self.call([model, "--calibration", calibration, "--dump-profile", profile], f"profiling {model.name}")

    def run(self, model, feeds, output, folder, flags=()):
        """Runs model on feeds (name -> array) and returns output `output`."""
        folder.mkdir(parents=True, exist_ok=True)
        arguments = [model, "--output-dir", folder / "out", *flags]
        for name, array in feeds.items():
            np.save(folder / f"{name}.npy", array)
            arguments += ["--input", f"{name}={folder / (name + '.npy')}"]
        self.call(arguments, f"{model.name} {' '.join(map(str, flags))}".strip())
        return np.load(folder / "out" / f"{output}.npy")


def choose_binaries(requested):
    """The folder with glow-run: --bin, else target/release when its glow-run has the
    quantization flags, else target/debug. Exits with a clear message when missing."""
    candidates = [pathlib.Path(requested)] if requested else [ROOT / "target" / "release",
                                                              ROOT / "target" / "debug"]
    stale = []
    for folder in candidates:
        binary = folder / "glow-run"
        if not binary.is_file():
            continue
        usage = subprocess.run([str(binary), "--help"], capture_output=True, text=True).stdout
        if "--load-profile" in usage and "--calibration" in usage:
            for old in stale:
                print(f"note: {old} has no --load-profile (an older build); using {binary}")
            return folder
        stale.append(binary)
    if stale:
        raise SystemExit(f"{', '.join(map(str, stale))} has no --calibration / --load-profile flags "
                         "(built before the quantization support?); rebuild it, e.g. "
                         "cargo build --release, or pass --bin with a current build")
    raise SystemExit(f"no glow-run in {' or '.join(map(str, candidates))}; build it first "
                     "(cargo build --release) or pass --bin DIR")


def ort_session(path):
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def ort_quantize(model, calibration, name):
    """onnxruntime's static int8 of model (QDQ, per-channel, uint8 activations, int8
    weights) after its recommended preprocessing, calibrated on calibration (a list of
    feed dicts: the samples glow profiles on); written to CACHE/<name>.ort_int8.onnx."""
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.samples = iter(calibration)

        def get_next(self):
            return next(self.samples, None)

    prepared, quantized = CACHE / f"{name}.pre.onnx", CACHE / f"{name}.ort_int8.onnx"
    level = logging.getLogger().level
    logging.getLogger().setLevel(logging.ERROR)  # per-channel notes on LayerNorm's 1-D gamma
    try:
        quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(quantized), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    finally:
        logging.getLogger().setLevel(level)
    return quantized


# ---------------------------------------------------------------------------------------
# The two parts

def digits(glow, arguments, log):
    x_train, y_train, x_test, y_test = load_data()
    full = batches(x_train[:len(x_train) // BATCH * BATCH])
    count = len(full) if arguments.calibration_batches is None else arguments.calibration_batches
    if not 1 <= count <= len(full):
        raise SystemExit(f"--calibration-batches must be in 1..{len(full)}")
    start = time.perf_counter()
    params, loss = train(x_train, y_train, arguments.epochs, arguments.seed)
    logits, _ = forward(params, x_test)
    numpy_top1 = float((logits.argmax(1) == y_test).mean())
    log(f"trained the CNN in {time.perf_counter() - start:.1f} s ({arguments.epochs} epochs, "
        f"final loss {loss:.4f}): numpy float top-1 {100 * numpy_top1:.1f}% on {len(x_test)} test images")

    model = CACHE / "cnn.onnx"
    export_onnx(params, model)
    session = ort_session(model)
    test = batches(x_test)
    ort_logits = np.concatenate([session.run(None, {"input": b})[0] for b in test])
    difference = float(np.abs(ort_logits - logits).max())
    if difference >= 1e-4:
        raise SystemExit(f"the exported model differs from the numpy forward pass by {difference:.3g}")
    log(f"exported {model.relative_to(ROOT)}: onnxruntime matches numpy (max |diff| {difference:.2g})")

    calibration = full[:count]
    np.savez(CACHE / "calib.npz", input=np.stack(calibration))
    log(f"calibration: {count} batches of {BATCH} training images -> "
        f"{(CACHE / 'calib.npz').relative_to(ROOT)}")

    outputs = {"float (onnxruntime)": ort_logits}

    def glow_logits(label, path, flags=()):
        start = time.perf_counter()
        outputs[label] = np.concatenate([glow.run(path, {"input": b}, "logits", CACHE / "run", flags)
                                         for b in test])
        log(f"{label}: {time.perf_counter() - start:.1f} s")

    glow_logits("float (glow)", model)
    profile = CACHE / "cnn.profile.yaml"
    start = time.perf_counter()
    glow.profile(model, CACHE / "calib.npz", profile)
    log(f"profiled with glow-run in {time.perf_counter() - start:.1f} s -> {profile.relative_to(ROOT)}")
    for schema, method in GLOW_INT8:
        glow_logits(f"glow int8, {schema}, {method}", model,
                    ["--load-profile", profile, "--quantization-schema", schema,
                     "--quantization-calibration", method])

    start = time.perf_counter()
    quantized = ort_quantize(model, [{"input": b} for b in calibration], "cnn")
    session = ort_session(quantized)
    outputs[ORT_INT8] = np.concatenate([session.run(None, {"input": b})[0] for b in test])
    log(f"onnxruntime int8: {time.perf_counter() - start:.1f} s -> {quantized.relative_to(ROOT)}")
    glow_logits(GLOW_ON_ORT, quantized)

    predictions = {label: logits.argmax(1) for label, logits in outputs.items()}
    top1 = {label: float((p == y_test).mean()) for label, p in predictions.items()}
    sqnr = {label: snr_db(outputs["float (onnxruntime)"], logits) for label, logits in outputs.items()
            if label != "float (onnxruntime)"}
    checked = f"glow int8, {GLOW_INT8[0][0]}, {GLOW_INT8[0][1]}"
    same = lambda a, b: float((predictions[a] == predictions[b]).mean())
    agreement = {
        "glow int8 (asymmetric, minmax) vs glow float": same(checked, "float (glow)"),
        "glow int8 (asymmetric, minmax) vs onnxruntime float": same(checked, "float (onnxruntime)"),
        "glow float vs onnxruntime float": same("float (glow)", "float (onnxruntime)"),
        "glow on onnxruntime's int8 model vs onnxruntime int8": same(GLOW_ON_ORT, ORT_INT8),
    }
    failures = []
    if top1[checked] < top1["float (onnxruntime)"] - 0.005 - 1e-9:
        failures.append(f"{checked} top-1 {100 * top1[checked]:.1f}% is more than 0.5 points below "
                        f"float ({100 * top1['float (onnxruntime)']:.1f}%)")
    ort_int8 = top1[ORT_INT8]
    if top1[checked] < ort_int8 - 1e-9:
        failures.append(f"{checked} top-1 {100 * top1[checked]:.1f}% is below onnxruntime int8 "
                        f"({100 * ort_int8:.1f}%)")
    return {"test_images": len(y_test), "calibration_batches": count, "batch": BATCH,
            "epochs": arguments.epochs, "numpy_float_top1": numpy_top1, "top1": top1,
            "logits_sqnr_db": sqnr,
            "agreement": agreement, "failures": failures}


def encoder_tokens(rng, count, vocab, seq):
    """count feeds {input_ids, attention_mask}, both [1, seq]: ids uniform in [0, vocab), masks
    ones then a random tail of zeros (at most a quarter of the sequence)."""
    samples = []
    for _ in range(count):
        mask = np.zeros((1, seq), dtype=np.int64)
        mask[0, :rng.integers(seq * 3 // 4, seq + 1)] = 1
        ids = rng.integers(0, vocab, (1, seq), dtype=np.int64)
        samples.append({"input_ids": ids, "attention_mask": mask})
    return samples


def cosine(a, b):
    a, b = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def encoder(glow, arguments, log):
    models = ROOT / ".cache" / "models"
    built = subprocess.run([sys.executable, str(ROOT / "python" / "build_models.py"), "--out",
                            str(models), "encoder"], capture_output=True, text=True)
    if built.returncode != 0:
        raise SystemExit(f"build_models.py encoder failed:\n{built.stderr.strip()}")
    model = models / "encoder.onnx"
    graph = onnx.load(str(model)).graph
    initializers = {i.name: i for i in graph.initializer}
    table = next(n.input[0] for n in graph.node if n.op_type == "Gather" and n.input[1] == "input_ids")
    vocab = initializers[table].dims[0]
    seq = graph.input[0].type.tensor_type.shape.dim[1].dim_value
    rng = np.random.default_rng(arguments.seed)
    calibration = encoder_tokens(rng, arguments.encoder_calibration, vocab, seq)
    held_out = encoder_tokens(rng, arguments.encoder_samples, vocab, seq)
    path = CACHE / "encoder_calib.npz"
    np.savez(path, **{name: np.stack([s[name] for s in calibration]) for name in calibration[0]})
    profile = CACHE / "encoder.profile.yaml"
    start = time.perf_counter()
    glow.profile(model, path, profile)
    log(f"encoder (vocab {vocab}, sequence {seq}): profiled {len(calibration)} samples in "
        f"{time.perf_counter() - start:.1f} s -> {profile.relative_to(ROOT)}")
    quantized = ort_quantize(model, calibration, "encoder")

    float_session, int8_session = ort_session(model), ort_session(quantized)
    int8 = ["--load-profile", profile, "--quantization-calibration"]
    configurations = {  # label -> (model, glow-run flags)
        "float (glow)": (model, []),
        "glow int8, asymmetric, minmax": (model, int8 + ["minmax"]),
        "glow int8, asymmetric, kl": (model, int8 + ["kl"]),
        GLOW_ON_ORT: (quantized, []),
    }
    outputs = {label: [] for label in ["float (onnxruntime)", ORT_INT8, *configurations]}
    start = time.perf_counter()
    for feeds in held_out:
        outputs["float (onnxruntime)"].append(float_session.run(None, feeds)[0])
        outputs[ORT_INT8].append(int8_session.run(None, feeds)[0])
        for label, (path, flags) in configurations.items():
            outputs[label].append(glow.run(path, feeds, "last_hidden_state", CACHE / "encoder_run", flags))
    log(f"encoder: {len(held_out)} held-out samples x {len(configurations)} glow configurations in "
        f"{time.perf_counter() - start:.1f} s")

    rows = {}
    for label, reference in [("float (glow)", "float (onnxruntime)"),
                             ("glow int8, asymmetric, minmax", "float (glow)"),
                             ("glow int8, asymmetric, kl", "float (glow)"),
                             (ORT_INT8, "float (onnxruntime)"),
                             (GLOW_ON_ORT, "float (onnxruntime)"),
                             (GLOW_ON_ORT, ORT_INT8)]:
        values = [cosine(a, b) for a, b in zip(outputs[label], outputs[reference])]
        rows[f"{label} vs {reference}"] = {"mean": float(np.mean(values)), "min": float(np.min(values))}
    failures = []
    checked = rows["glow int8, asymmetric, minmax vs float (glow)"]["mean"]
    if checked < ENCODER_COSINE:
        failures.append(f"encoder glow int8 (asymmetric, minmax) mean cosine {checked:.4f} is below "
                        f"{ENCODER_COSINE}")
    return {"vocab": int(vocab), "sequence": int(seq), "calibration_samples": len(calibration),
            "samples": len(held_out), "cosine": rows, "failures": failures}


def cpu_model():
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[1:]))
    parser.add_argument("--bin", help="folder with glow-run (default: target/release when it has "
                                      "the quantization flags, else target/debug)")
    parser.add_argument("--json", default=str(CACHE / "results.json"), help="where to write the numbers")
    parser.add_argument("--calibration-batches", type=int,
                        help="calibration batches of 60 training images (default: all 23)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-encoder", action="store_true", help="skip the encoder part")
    parser.add_argument("--encoder-calibration", type=int, default=8, help="encoder calibration samples")
    parser.add_argument("--encoder-samples", type=int, default=16, help="encoder held-out samples")
    parser.add_argument("--quiet", action="store_true", help="print only the tables")
    arguments = parser.parse_args()

    began = time.perf_counter()
    log = (lambda text: None) if arguments.quiet else (lambda text: print(text, flush=True))
    print(f"CPU: {cpu_model()}")
    glow = Glow(choose_binaries(arguments.bin))
    print(f"glow-run: {glow.binary}")
    CACHE.mkdir(parents=True, exist_ok=True)

    results = {"cpu": cpu_model(), "glow_run": str(glow.binary), "digits": digits(glow, arguments, log)}
    if not arguments.no_encoder:
        results["encoder"] = encoder(glow, arguments, log)
    results["seconds"] = time.perf_counter() - began
    results["glow_compile_seconds_median"] = (float(np.median(glow.compile_times))
                                              if glow.compile_times else None)

    part = results["digits"]
    print(f"\n| configuration | top-1 (test, {part['test_images']} images) "
          "| logits SQNR vs float (onnxruntime), dB |")
    print("|---|---|---|")
    for label, value in part["top1"].items():
        sqnr = part["logits_sqnr_db"].get(label)
        print(f"| {label} | {100 * value:.1f}% | {'-' if sqnr is None else f'{sqnr:.1f}'} |")
    print()
    for label, value in part["agreement"].items():
        print(f"prediction agreement, {label}: {100 * value:.1f}%")
    if "encoder" in results:
        part = results["encoder"]
        print(f"\n| encoder, last_hidden_state ({part['samples']} held-out samples, "
              f"{part['calibration_samples']} calibration samples) | mean cosine | min cosine |")
        print("|---|---|---|")
        for label, value in part["cosine"].items():
            print(f"| {label} | {value['mean']:.5f} | {value['min']:.5f} |")
    print(f"\n{results['seconds']:.0f} s in all ({len(glow.compile_times)} glow-run calls, median compile "
          f"{results['glow_compile_seconds_median']:.2f} s)")

    path = pathlib.Path(arguments.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {path}")
    failures = results["digits"]["failures"] + results.get("encoder", {}).get("failures", [])
    for failure in failures:
        print(f"FAIL: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
