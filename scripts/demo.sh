#!/usr/bin/env bash
# The main job end to end: bootstrap (idempotent), build glow-opt, then run a small
# network through a pipeline that mixes Glow's Rust passes with upstream MLIR passes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

bash scripts/bootstrap.sh
cargo build --bins

glow_opt=target/debug/glow-opt
model=examples/mlp.mlir
pipeline='builtin.module(func.func(glow-lower-nodes),canonicalize,cse)'

echo "== Glow passes registered in glow-opt"
"$glow_opt" --list-passes | grep -A1 -- '--glow-'
echo "== $model through $pipeline"
"$glow_opt" "$model" --pass-pipeline="$pipeline" --mlir-timing
