#!/usr/bin/env bash
# Optional, for the benchmark's torch.onnx-exported models (python/export_torch_models.py):
# installs Debian 12's CPU builds of PyTorch 1.13 and torchvision 0.14 for the system
# python3, idempotently. PyPI's torch wheels for Linux pull in the CUDA libraries
# (gigabytes); Debian's are CPU-only and come from the package registry this machine
# can reach. The export runs under /usr/bin/python3; everything else stays in .venv.
set -euo pipefail
packages=(python3-torch python3-torchvision)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-torch: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
/usr/bin/python3 -c "import torch, torchvision; print('torch', torch.__version__, 'torchvision', torchvision.__version__)"
