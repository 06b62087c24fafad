#!/usr/bin/env bash
# The dialect and op reference, generated from the ODS descriptions with mlir-tblgen
# (-gen-dialect-doc, as upstream MLIR and IREE do) into docs/dialects/.
# `--check` regenerates into a temporary directory and fails if docs/dialects/ is stale
# (the test command runs it, so an op whose .td changed cannot keep an old page).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tblgen="${MLIR_TBLGEN:-/usr/lib/llvm-22/bin/mlir-tblgen}"
out="$root/docs/dialects"
check=false
if [[ "${1:-}" == "--check" ]]; then
  check=true
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
for pair in Graph:glow.graph Quant:glow.quant Instr:glow.instr; do
  dir="${pair%%:*}" dialect="${pair#*:}"
  "$tblgen" -gen-dialect-doc -dialect="$dialect" -I "$root/dialects/include" \
    -I /usr/lib/llvm-22/include "$root/dialects/include/glow/$dir/${dir}Ops.td" \
    -o "$out/$dialect.md"
done
if $check; then
  if ! diff -r "$out" "$root/docs/dialects" >/dev/null; then
    echo "docs/dialects/ is out of date with the ODS files: run scripts/dialect_docs.sh" >&2
    exit 1
  fi
  echo "docs/dialects/ matches the ODS files"
fi
