#!/usr/bin/env bash
# Coverage-guided fuzzing of the readers of untrusted input (cargo fuzz: libFuzzer with
# AddressSanitizer, on the nightly toolchain): the ONNX reader and importer, the .npy
# reader, and MLIR text through the parser and verifier. Every target first replays
# its regression inputs (fuzz/regressions/<target>/, crashes found earlier), then runs
# for GLOW_FUZZ_SECONDS (default 60) from the seed corpus in fuzz/corpus/<target>/,
# with libFuzzer's seed GLOW_FUZZ_SEED (default 1, so a run explores the same inputs
# everywhere and CI is reproducible; 0 picks a random seed, for exploring).
# A crash, panic, leak-free-heap error, timeout (30 s per input) or out-of-memory
# (4 GiB) fails the run; the input that caused it is left in fuzz/artifacts/<target>/.
# Before the random runs, python/fuzz_op_sweep.py feeds the ONNX target a one-node
# model of every supported op with mismatched, empty, scalar and overflowing inputs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${GLOW_FUZZ_SECONDS:-60}"
seed="${GLOW_FUZZ_SEED:-1}"
targets=(onnx_reader npy_reader mlir_parser)

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "fuzz: installing the nightly Rust toolchain (sanitizers need it)"
  if ! rustup toolchain install nightly --profile minimal >/dev/null 2>&1; then
    echo "fuzz: the nightly Rust toolchain is required and could not be installed (rustup toolchain install nightly)" >&2
    exit 1
  fi
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install cargo-fuzz --locked --quiet
fi

echo "== fuzz: building the targets (nightly, AddressSanitizer)"
# (grep's status is ignored, cargo's is kept: pipefail fails the script on a build error)
cargo +nightly fuzz build 2>&1 | { grep -v "^ *Compiling" || true; }
echo "== fuzz onnx_reader: every supported op against odd shapes (python/fuzz_op_sweep.py)"
cargo build --bin glow-import 2>&1 | { grep -v "^ *\(Compiling\|Finished\)" || true; }
.venv/bin/python python/fuzz_op_sweep.py
for target in "${targets[@]}"; do
  if compgen -G "fuzz/regressions/$target/*" >/dev/null; then
    echo "== fuzz $target: regression inputs"
    cargo +nightly fuzz run "$target" "fuzz/regressions/$target" -- -runs=0
  fi
  echo "== fuzz $target: ${seconds} s"
  work="$(mktemp -d)"
  log="$work.log"
  if ! cargo +nightly fuzz run "$target" "$work" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -seed="$seed" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1; then
    # The sanitizer's report (or the panic) and the failing input.
    grep -E -A40 "^==[0-9]+==ERROR|panicked at" "$log" | head -n 80 || tail -n 60 "$log"
    echo "fuzz: $target failed; the input is in fuzz/artifacts/$target/ (add it to fuzz/regressions/$target/ once fixed)" >&2
    exit 1
  fi
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ +DONE" "$log" || true
  rm -rf "$work" "$log"
done
