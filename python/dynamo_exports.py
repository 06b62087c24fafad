"""Models as a user of current PyTorch exports them: `torch.onnx.export` with its
default (dynamo, torch.export-based) exporter, weights in a `.onnx.data` file beside
the model, static or dynamic (`dynamic_shapes`) batch and sequence axes. Exports
torchvision CNNs / vision transformers and Hugging Face transformers classes (random
weights, small configurations), runs each through glow-run on the export's own inputs
(and, for the dynamic exports, on other shapes) and compares every output with
onnxruntime; `--time` adds same-run one-thread times.

Needs torch >= 2.5 with torchvision, onnxscript and transformers, which this project
does not install (the CI's export script, export_torch_models.py, uses Debian's torch
1.13). PyPI's wheels work (several GB with their CUDA libraries):

    .venv/bin/pip install --target /tmp/torch2 torch torchvision onnxscript transformers
    .venv/bin/python python/dynamo_exports.py --torch-path /tmp/torch2 [--time] [MODEL ...]

The export runs in a child interpreter with `--torch-path` on its PYTHONPATH; the
comparison runs here, on the project's onnxruntime.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from benchmark import cpu_description, median_ms  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
VISION = {"resnet18": "resnet18", "mobilenet_v3_small": "mobilenet_v3_small",
          "efficientnet_b0": "efficientnet_b0", "shufflenet_v2": "shufflenet_v2_x1_0",
          "densenet121": "densenet121", "convnext_tiny": "convnext_tiny", "swin_t": "swin_t",
          "maxvit_t": "maxvit_t"}
# Hugging Face classes: (model class, config class, config).
SMALL = dict(hidden_size=256, num_hidden_layers=2, num_attention_heads=8, intermediate_size=512)
GQA = dict(SMALL, num_key_value_heads=2, vocab_size=1000)
TEXT = {
    "bert": ("BertModel", "BertConfig", dict(hidden_size=384, num_hidden_layers=2,
                                             num_attention_heads=12, intermediate_size=1536)),
    "roberta": ("RobertaModel", "RobertaConfig", dict(SMALL, num_attention_heads=4)),
    "distilbert": ("DistilBertModel", "DistilBertConfig", dict(dim=256, n_layers=2, n_heads=4, hidden_dim=512)),
    "deberta_v2": ("DebertaV2Model", "DebertaV2Config", dict(SMALL, num_attention_heads=4)),
    "gpt2": ("GPT2Model", "GPT2Config", dict(n_embd=256, n_layer=2, n_head=4)),
    "llama": ("LlamaModel", "LlamaConfig", GQA),
    "qwen2": ("Qwen2Model", "Qwen2Config", GQA),
    "mistral": ("MistralModel", "MistralConfig", dict(GQA, sliding_window=8)),
    "phi3": ("Phi3Model", "Phi3Config", dict(GQA, num_key_value_heads=4, pad_token_id=0)),
    "gemma": ("GemmaModel", "GemmaConfig", dict(GQA, head_dim=32)),
    "clip_text": ("CLIPTextModel", "CLIPTextConfig", dict(SMALL, num_attention_heads=4, vocab_size=1000)),
}
OTHER = ["whisper_encoder", "vit_hf"]
DYNAMIC = {"resnet18_dynamic": [{"input": (3, 3, 224, 224)}],
           "bert_dynamic": [{"input_ids": (4, 33), "attention_mask": (4, 33)},
                            {"input_ids": (1, 1), "attention_mask": (1, 1)}],
           "llama_dynamic": [{"input_ids": (1, 77), "attention_mask": (1, 77)}]}
ALL = [*VISION, *TEXT, *OTHER, *DYNAMIC]

EXPORT = r'''
import sys, warnings, numpy as np, torch
warnings.filterwarnings("ignore")
torch.manual_seed(0)
name, path, spec = sys.argv[1], sys.argv[2], eval(sys.argv[3])
base, dynamic = name.removesuffix("_dynamic"), name.endswith("_dynamic")
ids = torch.randint(0, 1000, (2, 16)); mask = torch.ones(2, 16, dtype=torch.long); mask[1, 12:] = 0
if base in spec["vision"]:
    import torchvision
    model, args = getattr(torchvision.models, spec["vision"][base])(weights=None), (torch.randn(1, 3, 224, 224),)
else:
    import transformers as tr
    if base == "whisper_encoder":
        config = tr.WhisperConfig(d_model=256, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                                  decoder_attention_heads=4, num_mel_bins=80, max_source_positions=100)
        inner, args = tr.WhisperModel(config).get_encoder(), (torch.randn(1, 80, 200),)
    elif base == "vit_hf":
        config = tr.ViTConfig(hidden_size=192, num_hidden_layers=2, num_attention_heads=3,
                              intermediate_size=384, image_size=64, patch_size=16)
        inner, args = tr.ViTModel(config), (torch.randn(1, 3, 64, 64),)
    else:
        model_class, config_class, config = spec["text"][base]
        inner, args = getattr(tr, model_class)(getattr(tr, config_class)(**config)), (ids, mask)

    class LastHiddenState(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, x, attention_mask=None):
            if attention_mask is None:
                return self.inner(x).last_hidden_state
            return self.inner(input_ids=x, attention_mask=attention_mask).last_hidden_state
    model = LastHiddenState(inner)
names = ["input_ids", "attention_mask"] if len(args) == 2 else ["input"]
options = {}
if dynamic:
    batch, sequence = torch.export.Dim("batch", max=64), torch.export.Dim("sequence", max=512)
    options["dynamic_shapes"] = ({0: batch, 1: sequence}, {0: batch, 1: sequence}) if len(args) == 2 else ({0: batch},)
torch.onnx.export(model.eval(), args, path, input_names=names, output_names=["output"], **options)
np.savez(path[:-5] + ".inputs.npz", **{n: t.numpy() for n, t in zip(names, args)})
'''


def export(name, folder, torch_path):
    """Exports `name` into `folder`; returns (model path, error line or None)."""
    path = folder / f"{name}.onnx"
    spec = repr({"vision": VISION, "text": TEXT})
    env = dict(os.environ, PYTHONPATH=torch_path or os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, "-c", EXPORT, name, str(path), spec],
                         capture_output=True, text=True, env=env)
    if run.returncode != 0:
        lines = [l for l in run.stderr.splitlines() if "Error" in l] or run.stderr.splitlines() or ["?"]
        return path, f"export failed: {lines[-1][:200]}"
    return path, None


def compare(model, feeds, binary, folder):
    """glow-run on `feeds` against onnxruntime: (worst max |difference| / max |reference|
    over the outputs, glow-run's summary line) or raises SystemExit with its error."""
    import onnxruntime as ort

    command = [str(binary / "glow-run"), str(model), "--output-dir", str(folder / "out")]
    for name, value in feeds.items():
        np.save(folder / f"{name}.npy", value)
        command += ["--input", f"{name}={folder / name}.npy",
                    "--input-shape", f"{name}={'x'.join(map(str, value.shape))}"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        lines = (run.stderr or run.stdout).strip().splitlines()
        raise SystemExit(lines[-1] if lines else f"exit status {run.returncode}")
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    worst = 0.0
    for declared, reference in zip(session.get_outputs(), session.run(None, feeds)):
        ours = np.load(folder / "out" / f"{declared.name}.npy")
        if ours.shape != reference.shape:
            raise SystemExit(f"{declared.name}: shape {ours.shape}, onnxruntime {reference.shape}")
        scale = max(float(np.max(np.abs(reference))), 1e-30)
        worst = max(worst, float(np.max(np.abs(ours.astype(np.float64) - reference))) / scale)
    return worst


def other_feeds(shapes, rng):
    feeds = {}
    for name, shape in shapes.items():
        if name == "input":
            feeds[name] = rng.standard_normal(shape).astype(np.float32)
        elif name == "attention_mask":
            mask = np.ones(shape, np.int64)
            mask[-1, shape[1] // 2 + 1:] = 0
            feeds[name] = mask
        else:
            feeds[name] = rng.integers(0, 1000, shape).astype(np.int64)
    return feeds


def times(model, feeds, binary, repeat):
    """Same-run one-thread medians (glow, onnxruntime) in ms."""
    import onnxruntime as ort
    from benchmark import time_glow

    glow, _ = time_glow(binary, model, {n: v.shape for n, v in feeds.items()}, repeat)
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    return glow, median_ms(lambda: session.run(None, feeds), repeat)


def check_case(name, model, feeds, binary, repeat=None, widths=(22, 40)):
    """One case: glow-run on `feeds` against onnxruntime and, with `repeat`, same-run
    one-thread times. Returns (the printed line, 1 if it failed else 0)."""
    shape = " ".join(f"{n}={'x'.join(map(str, v.shape))}" for n, v in feeds.items())
    head = f"{name:{widths[0]}s} {shape:{widths[1]}s}"
    with tempfile.TemporaryDirectory() as scratch:
        try:
            worst = compare(model, feeds, binary, pathlib.Path(scratch))
        except SystemExit as failure:
            return f"{head} glow-run failed: {failure}", 1
    line, failed = f"{head} max error / max |output| {worst:.1e}", 0
    if worst > 1e-4:
        line, failed = line + "  MISMATCH", 1
    if repeat:
        try:
            glow, onnxruntime = times(model, feeds, binary, repeat)
            line += f"  glow {glow:.3f} ms, onnxruntime {onnxruntime:.3f} ms ({glow / onnxruntime:.2f})"
        except SystemExit as failure:
            line, failed = line + f"  timing failed: {failure}", 1
    return line, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", help=f"default: all of {', '.join(ALL)}")
    parser.add_argument("--torch-path", help="a folder with torch >= 2.5 to put on the exporter's PYTHONPATH")
    parser.add_argument("--out", default=str(ROOT / ".cache" / "dynamo"), help="where the exports go")
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--time", action="store_true", help="also time glow and onnxruntime, one thread")
    parser.add_argument("--repeat", type=int, default=30)
    arguments = parser.parse_args()
    unknown = [m for m in arguments.models if m not in ALL]
    if unknown:
        raise SystemExit(f"unknown models: {', '.join(unknown)} (known: {', '.join(ALL)})")
    folder, binary = pathlib.Path(arguments.out), pathlib.Path(arguments.bin)
    folder.mkdir(parents=True, exist_ok=True)
    print(f"CPU: {cpu_description()}")
    failures = 0
    rng = np.random.default_rng(1)
    for name in arguments.models or ALL:
        model, error = export(name, folder, arguments.torch_path)
        if error:
            print(f"{name:22s} {error}")
            failures += 1
            continue
        exported = dict(np.load(model.with_suffix(".inputs.npz")))
        cases = [exported] + [other_feeds(shapes, rng) for shapes in DYNAMIC.get(name, [])]
        for feeds in cases:
            line, failed = check_case(name, model, feeds, binary,
                                      arguments.repeat if arguments.time and feeds is exported else None)
            failures += failed
            print(line, flush=True)
    if failures:
        raise SystemExit(f"{failures} failures")


if __name__ == "__main__":
    main()
