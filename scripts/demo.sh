#!/usr/bin/env bash
# The main job end to end on a real network: bootstrap (idempotent), build the tools
# (release), then MobileNetV2 through glow-import, Glow's graph optimizations, node
# lowering, the CPU pipeline and a bundle run from Python, compared with onnxruntime;
# then the same model through glow's export into IREE (python/demo.py prints the report).
# `--model resnet50` takes ResNet-50 instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

bash scripts/bootstrap.sh
echo "== building glow's tools (release)"
cargo build --release --bins --quiet
.venv/bin/pip install -q --disable-pip-version-check -e python/
.venv/bin/python python/demo.py --bin target/release "$@"
