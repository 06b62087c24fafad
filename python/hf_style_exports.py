"""Transformer blocks written the way Hugging Face's modeling code writes them (random
weights, small widths unless named), exported by torch.onnx from Debian's torch 1.13
with dynamic axes, then run through glow-run on inputs of other shapes and compared
with onnxruntime; `--time` adds same-run one-thread times. The graphs carry what those
codebases export and the CNN exports do not:

- gpt2: Conv1D as addmm, a KV cache (past key / value inputs concatenated, presents
  out), the causal mask sliced from a tril buffer at run-time offsets, torch.where
  with finfo.min, the tanh GELU written out, tied embeddings;
- t5: relative position buckets computed in the graph (abs, log, casts, min, where),
  an Embedding of them as the attention bias, RMSNorm, gated GELU, no biases;
- whisper: sequence_models.py's Whisper-shaped encoder at width 128, 2 layers, on
  any number of frames up to 100 (its positions sliced to the sequence);
- wav2vec2: a strided Conv1d feature extractor with GroupNorm, LayerNorm, and the
  weight-normed grouped positional convolution;
- distilbert: scores masked with masked_fill(-inf) (opset 14), fully masked rows NaN;
- *_large: GPT-2 at width 768 / 128 tokens and T5 at width 512 / 128 tokens.

Usage: hf_style_exports.py [--out DIR] [--bin DIR] [--time] [MODEL ...]
"""

import argparse
import math
import pathlib
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
# name -> (input names, shapes of the exported call, shapes of a second call)
CASES = {
    "gpt2": (["input_ids", "attention_mask", "past_key", "past_value"],
             [(2, 7), (2, 12), (2, 2, 4, 5, 32), (2, 2, 4, 5, 32)],
             [(1, 1), (1, 64), (2, 1, 4, 63, 32), (2, 1, 4, 63, 32)]),
    "t5": (["input_ids", "attention_mask"], [(2, 16), (2, 16)], [(1, 128), (1, 128)]),
    "whisper": (["mel"], [(1, 80, 100)], [(3, 80, 100)]),
    "wav2vec2": (["wav"], [(2, 4000)], [(1, 16000)]),
    "distilbert": (["input_ids", "attention_mask"], [(2, 16), (2, 16)], [(4, 64), (4, 64)]),
    "gpt2_large": (["input_ids", "attention_mask", "past_key", "past_value"],
                   [(1, 128), (1, 128), (2, 1, 12, 0, 64), (2, 1, 12, 0, 64)], None),
    "t5_large": (["input_ids", "attention_mask"], [(1, 128), (1, 128)], None),
}


def modules():
    """The torch modules, by name (imported only by the exporting interpreter)."""
    import torch
    import torch.nn.functional as F
    from sequence_models import WhisperEncoder
    from torch import nn

    class GPT2Attention(nn.Module):
        def __init__(self, width, heads, positions=128):
            super().__init__()
            self.heads, self.width = heads, width
            self.c_attn_w = nn.Parameter(torch.randn(width, 3 * width) * 0.05)
            self.c_attn_b = nn.Parameter(torch.randn(3 * width) * 0.02)
            self.c_proj_w = nn.Parameter(torch.randn(width, width) * 0.05)
            self.c_proj_b = nn.Parameter(torch.randn(width) * 0.02)
            causal = torch.tril(torch.ones(positions, positions, dtype=torch.bool))
            self.register_buffer("bias", causal.view(1, 1, positions, positions))

        def split(self, x):
            b, t, _ = x.shape
            return x.view(b, t, self.heads, self.width // self.heads).permute(0, 2, 1, 3)

        def forward(self, x, mask, past_key, past_value):
            qkv = torch.addmm(self.c_attn_b, x.view(-1, x.size(-1)), self.c_attn_w)
            q, k, v = qkv.view(x.size()[:-1] + (3 * self.width,)).split(self.width, dim=2)
            q, k, v = self.split(q), self.split(k), self.split(v)
            k, v = torch.cat([past_key, k], dim=-2), torch.cat([past_value, v], dim=-2)
            w = q @ k.transpose(-1, -2) / torch.full([], v.size(-1) ** 0.5)
            queries, keys = q.size(-2), k.size(-2)
            causal = self.bias[:, :, keys - queries:keys, :keys]
            w = torch.where(causal, w, torch.full([], torch.finfo(w.dtype).min)) + mask
            o = (F.softmax(w, dim=-1) @ v).permute(0, 2, 1, 3).contiguous()
            o = torch.addmm(self.c_proj_b, o.view(-1, self.width), self.c_proj_w)
            return o.view(x.shape), k, v

    class GPT2(nn.Module):
        def __init__(self, vocab=500, width=128, heads=4, layers=2):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, width), nn.Embedding(128, width)
            self.ln1 = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
            self.ln2 = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
            self.attn = nn.ModuleList(GPT2Attention(width, heads) for _ in range(layers))
            self.fc = nn.ModuleList(nn.Linear(width, 4 * width) for _ in range(layers))
            self.proj = nn.ModuleList(nn.Linear(4 * width, width) for _ in range(layers))
            self.lnf = nn.LayerNorm(width)

        def forward(self, input_ids, attention_mask, past_key, past_value):
            past = past_key.size(-2)
            positions = torch.arange(past, input_ids.size(-1) + past, dtype=torch.long).unsqueeze(0)
            x = self.wte(input_ids) + self.wpe(positions)
            mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
            keys, values = [], []
            for i, attention in enumerate(self.attn):
                a, k, v = attention(self.ln1[i](x), mask, past_key[i], past_value[i])
                keys.append(k)
                values.append(v)
                x = x + a
                h = self.fc[i](self.ln2[i](x))
                h = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * torch.pow(h, 3.0))))
                x = x + self.proj[i](h)
            return F.linear(self.lnf(x), self.wte.weight), torch.stack(keys), torch.stack(values)

    class T5Attention(nn.Module):
        def __init__(self, width, heads, relative_bias, buckets=32, distance=128):
            super().__init__()
            self.width, self.heads, self.buckets, self.distance = width, heads, buckets, distance
            self.q, self.k, self.v, self.o = (nn.Linear(width, width, bias=False) for _ in range(4))
            self.relative = nn.Embedding(buckets, heads) if relative_bias else None

        def bucket(self, relative):
            half = self.buckets // 2
            exact = half // 2
            bucket = (relative > 0).to(torch.long) * half
            n = torch.abs(relative)
            large = exact + (torch.log(n.float() / exact) / math.log(self.distance / exact)
                             * (half - exact)).to(torch.long)
            large = torch.min(large, torch.full_like(large, half - 1))
            return bucket + torch.where(n < exact, n, large)

        def forward(self, x, mask, bias):
            b, t, _ = x.shape
            heads = lambda y: y.view(b, -1, self.heads, self.width // self.heads).transpose(1, 2)
            q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
            if bias is None:
                context = torch.arange(t, dtype=torch.long)[:, None]
                memory = torch.arange(t, dtype=torch.long)[None, :]
                bias = self.relative(self.bucket(memory - context)).permute([2, 0, 1]).unsqueeze(0) + mask
            w = F.softmax(q @ k.transpose(3, 2) + bias, dim=-1)
            return self.o((w @ v).transpose(1, 2).contiguous().view(b, -1, self.width)), bias

    class RMSNorm(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(width))

        def forward(self, x):
            return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))

    class T5(nn.Module):
        def __init__(self, vocab=300, width=128, heads=4, layers=2):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.attn = nn.ModuleList(T5Attention(width, heads, i == 0) for i in range(layers))
            self.n1 = nn.ModuleList(RMSNorm(width) for _ in range(layers))
            self.n2 = nn.ModuleList(RMSNorm(width) for _ in range(layers))
            self.wi0 = nn.ModuleList(nn.Linear(width, 2 * width, bias=False) for _ in range(layers))
            self.wi1 = nn.ModuleList(nn.Linear(width, 2 * width, bias=False) for _ in range(layers))
            self.wo = nn.ModuleList(nn.Linear(2 * width, width, bias=False) for _ in range(layers))
            self.final = RMSNorm(width)

        def forward(self, input_ids, attention_mask):
            x = self.embed(input_ids)
            mask = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
            bias = None
            for i, attention in enumerate(self.attn):
                a, bias = attention(self.n1[i](x), mask, bias)
                x = x + a
                y = self.n2[i](x)
                x = x + self.wo[i](F.gelu(self.wi0[i](y), approximate="tanh") * self.wi1[i](y))
            return self.final(x)

    class Wav2Vec2(nn.Module):
        def __init__(self, width=64):
            super().__init__()
            self.conv0, self.norm0 = nn.Conv1d(1, width, 10, 5, bias=False), nn.GroupNorm(width, width)
            self.conv1, self.conv2 = nn.Conv1d(width, width, 3, 2, bias=False), nn.Conv1d(width, width, 2, 2, bias=False)
            self.norm, self.project = nn.LayerNorm(width), nn.Linear(width, width)
            self.positional = nn.utils.weight_norm(nn.Conv1d(width, width, 16, padding=8, groups=4), dim=2)

        def forward(self, wav):
            x = F.gelu(self.norm0(self.conv0(wav[:, None])))
            x = F.gelu(self.conv2(F.gelu(self.conv1(x))))
            x = self.project(self.norm(x.transpose(1, 2)))
            return x + F.gelu(self.positional(x.transpose(1, 2))[:, :, :-1]).transpose(1, 2)

    class DistilBERT(nn.Module):
        def __init__(self, width=96, heads=4):
            super().__init__()
            self.embed, self.qkv, self.o = nn.Embedding(200, width), nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.width, self.heads = width, heads

        def forward(self, input_ids, attention_mask):
            x = self.embed(input_ids)
            b, t, _ = x.shape
            heads = lambda y: y.view(b, t, self.heads, -1).transpose(1, 2)
            q, k, v = (heads(y) for y in self.qkv(x).chunk(3, -1))
            scores = q / math.sqrt(self.width // self.heads) @ k.transpose(2, 3)
            masked = (attention_mask == 0).view(b, 1, 1, t).expand_as(scores)
            w = F.softmax(scores.masked_fill(masked, float("-inf")), -1)
            return self.o((w @ v).transpose(1, 2).reshape(b, t, self.width))

    return {"gpt2": GPT2, "t5": T5, "wav2vec2": Wav2Vec2, "distilbert": DistilBERT,
            "whisper": lambda: WhisperEncoder(width=128, heads=4, layers=2, positions=50),
            "gpt2_large": lambda: GPT2(vocab=5000, width=768, heads=12),
            "t5_large": lambda: T5(vocab=5000, width=512, heads=8)}


def export(name, path):
    """Runs in the torch interpreter: writes `name` to `path`."""
    import torch

    torch.manual_seed(0)
    names, shapes, second = CASES[name]
    args = []
    for input_name, shape in zip(names, shapes):
        if input_name in ("input_ids", "attention_mask"):
            args.append(torch.randint(0, 2 if input_name == "attention_mask" else 200, shape))
        else:
            args.append(torch.randn(*shape))
    axes = {}
    if second is not None:
        # Every axis whose size differs between the two calls is dynamic.
        axes = {n: {i: f"{n}_{i}" for i, (a, b) in enumerate(zip(s, t)) if a != b}
                for n, s, t in zip(names, shapes, second)}
    torch.onnx.export(modules()[name]().eval(), tuple(args), str(path), input_names=names,
                      dynamic_axes=axes, opset_version=14 if name == "distilbert" else 17)


def feeds(names, shapes, rng):
    values = {}
    for name, shape in zip(names, shapes):
        if name == "attention_mask":
            mask = np.ones(shape, np.int64)
            if shape[0] > 1:
                mask[-1, shape[1] // 2:] = 0
            values[name] = mask
        elif name == "input_ids":
            values[name] = rng.integers(0, 200, shape).astype(np.int64)
        else:
            values[name] = rng.standard_normal(shape).astype(np.float32)
    return values


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--export":
        export(sys.argv[2], sys.argv[3])
        return
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    from benchmark import cpu_description, torch_python
    from dynamo_exports import check_case

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", help=f"default: all of {', '.join(CASES)}")
    parser.add_argument("--out", default=str(ROOT / ".cache" / "hf_style"))
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--time", action="store_true", help="also time glow and onnxruntime, one thread")
    parser.add_argument("--repeat", type=int, default=30)
    arguments = parser.parse_args()
    unknown = [m for m in arguments.models if m not in CASES]
    if unknown:
        raise SystemExit(f"unknown models: {', '.join(unknown)} (known: {', '.join(CASES)})")
    python = torch_python()
    if python is None:
        raise SystemExit("torch and torchvision are not installed: run scripts/install-torch.sh")
    folder, binary = pathlib.Path(arguments.out), pathlib.Path(arguments.bin)
    folder.mkdir(parents=True, exist_ok=True)
    print(f"CPU: {cpu_description()}")
    rng, failures = np.random.default_rng(1), 0
    for name in arguments.models or list(CASES):
        model = folder / f"{name}.onnx"
        run = subprocess.run([python, __file__, "--export", name, str(model)], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{name:12s} export failed: {(run.stderr.strip().splitlines() or ['?'])[-1][:200]}")
            failures += 1
            continue
        names, shapes, second = CASES[name]
        for case in [shapes] + ([second] if second else []):
            line, failed = check_case(name, model, feeds(names, case, rng), binary,
                                      arguments.repeat if arguments.time else None, (12, 60))
            failures += failed
            print(line, flush=True)
    if failures:
        raise SystemExit(f"{failures} failures")


if __name__ == "__main__":
    main()
