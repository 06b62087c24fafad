#!/usr/bin/env bash
# The whole test suite: bootstrap (idempotent), build, formatting and lints, the Rust
# integration tests (cargo test), the ONNX node suite and model checks (float and
# int8), differential fuzzing against onnxruntime, the fuzzers (scripts/fuzz.sh), then the lit suite over lit-tests/ with
# Debian's LLVM 22 lit/FileCheck. Any failure fails the run; lit's summary is the last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

bash scripts/bootstrap.sh

echo "== build"
cargo build --workspace --bins
echo "== rustfmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
echo "== dialect reference generated from ODS is current"
bash scripts/dialect_docs.sh --check
echo "== cargo test"
cargo test --workspace 2>&1 | tee "$logs/cargo.txt"
echo "== ONNX node test suite through glow-import"
.venv/bin/python python/import_node_tests.py
echo "== ONNX node test suite executed with glow-run"
.venv/bin/python python/conformance.py
echo "== differential fuzzing: random and mutated small graphs, glow-run vs onnxruntime"
.venv/bin/python python/differential_fuzz.py --cases 200 --seed 1 --bin target/debug
echo "== MobileNetV2 and EfficientNet-B0 through Glow vs onnxruntime"
.venv/bin/python python/build_models.py mobilenetv2 efficientnet_b0
for model in mobilenetv2 efficientnet_b0; do
  .venv/bin/python python/compare_with_onnxruntime.py ".cache/models/$model.onnx" \
    --input-shape input=1x3x224x224 --bin target/debug
done
echo "== export for IREE and torch-mlir: glow-import --emit=linalg, iree-compile + IREE's runtime vs onnxruntime, torch-mlir's backend contract"
.venv/bin/python python/build_models.py encoder minilm efficientnet_b0 resnet50
for model in mobilenetv2 efficientnet_b0 resnet50; do
  .venv/bin/python python/check_iree_export.py ".cache/models/$model.onnx" \
    --input-shape input=1x3x224x224 --bin target/debug
done
.venv/bin/python python/check_iree_export.py .cache/models/encoder.onnx \
  --input-shape input_ids=1x128 --input-shape attention_mask=1x128 --bin target/debug
.venv/bin/python python/check_iree_export.py .cache/models/minilm.onnx \
  --input-shape input_ids=2x32 --input-shape attention_mask=2x32 --bin target/debug
echo "== int8: onnxruntime-quantized MobileNetV2 and ResNet-50 on integer kernels vs onnxruntime int8"
.venv/bin/python python/build_models.py mobilenetv2_int8 resnet50_int8
for model in mobilenetv2_int8 resnet50_int8; do
  .venv/bin/python python/compare_with_onnxruntime.py ".cache/models/$model.onnx" \
    --input-shape input=1x3x224x224 --bin target/debug --tolerance 2e-2 --check-top1
done
echo "== int8: profile-guided quantization accuracy (digits CNN, encoder) vs float and onnxruntime int8"
.venv/bin/python python/quantization_accuracy.py --bin target/debug --encoder-samples 4 --quiet
echo "== ResNet-50 bundle: glow-compile, a C program linked against it, vs glow-run"
.venv/bin/python python/build_models.py resnet50
.venv/bin/python python/check_bundle.py .cache/models/resnet50.onnx \
  --input input --output logits --input-shape input=1x3x224x224
echo "== the glow Python package (pip install -e python/, pytest)"
.venv/bin/pip install -q --disable-pip-version-check -e python/
GLOW_BIN_DIR="$root/target/debug" .venv/bin/python -m pytest -q -rs python/tests
echo "== coverage-guided fuzzing (cargo fuzz, AddressSanitizer)"
bash scripts/fuzz.sh
echo "== lit"
# lit from Debian's llvm-22-tools, run by the venv's Python (psutil gives --timeout).
lit_status=0
.venv/bin/python /usr/lib/llvm-22/bin/lit --timeout 300 -sv lit-tests -o "$logs/lit.json" || lit_status=$?
# One closing line over both runners, also when lit failed: the line counts the
# failures and the run exits non-zero (summarize_tests.py does, or lit's status).
.venv/bin/python scripts/summarize_tests.py "$logs/cargo.txt" "$logs/lit.json"
exit "$lit_status"
