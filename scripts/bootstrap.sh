#!/usr/bin/env bash
# Installs, idempotently, everything a fresh Debian 12 machine needs to build and test
# this project: LLVM/MLIR 22 from Debian, the C libraries MLIR's static link pulls in,
# cmake/ninja, and a Python venv in .venv/ with lit's companions and the ONNX stack.
# Fast when everything is already there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

apt_packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libpolly-22-dev
  clang-22 libclang1-22 libomp-22-dev
  libzstd-dev zlib1g-dev libz3-dev libxml2-dev libedit-dev libffi-dev libncurses-dev
  cmake ninja-build python3-venv gcc g++ libc6-dev
)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Python venv with pinned versions (python/requirements.txt is the single list).
venv="$root/.venv"
req="$root/python/requirements.txt"
stamp="$venv/.requirements.stamp"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if [ ! -f "$stamp" ] || ! cmp -s "$req" "$stamp"; then
  echo "bootstrap: installing Python requirements into .venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
  cp "$req" "$stamp"
fi
