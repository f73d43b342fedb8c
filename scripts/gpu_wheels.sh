#!/usr/bin/env bash
# Download, here (a machine with the package index), the wheels bench/gpu.py needs on the lent GPU
# machine beyond what its image holds, into .whl/ (ignored by git; carried to the device).
#
# The lent machine's image (as its documentation lists it) has Python 3.12, torch 2.11, accelerate 1.15.0 (our pin),
# transformers 5.17.0, tokenizers 0.23.2, huggingface_hub 1.33.0, numpy, pandas, pyarrow, scipy,
# aiohttp, jinja2, pyyaml, xxhash, psutil, typer, regex, safetensors; it lacks TRL, datasets (and its
# dill, multiprocess), Hydra, OmegaConf and the ANTLR runtime. We also carry our exact pins of
# transformers and tokenizers (pyproject.toml: our trainer overrides private TRL hooks), and fsspec at
# the version datasets accepts (<= 2026.9.0). Versions = what `make install` resolved for these pins.
#
# On the device, before `python3 -m bench.gpu`:
#   python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site:$PWD
#
# Usage: bash scripts/gpu_wheels.sh   (from anywhere; writes <repo>/.whl/, prints its size)
set -euo pipefail
cd "$(dirname "$0")/.."

PY_VERSION=3.12
LIMIT_MIB=60  # the device copies at most 64 MiB: working tree (~3 MiB) + carried paths
WHEELS=(
  trl==1.16.0
  transformers==5.23.0
  tokenizers==0.23.3
  datasets==5.2.0
  dill==0.4.1
  multiprocess==0.70.19
  fsspec==2026.9.0
  hydra-core==1.3.8
  omegaconf==2.3.1
)
SDIST_ONLY=(antlr4-python3-runtime==4.9.3)  # published as a source archive only: built into a wheel here

PIP=(python3 -m pip)
[[ -x .venv/bin/python ]] && PIP=(.venv/bin/python -m pip)

rm -rf .whl && mkdir -p .whl  # one version of each: two would stop the whole install there
"${PIP[@]}" download -q --no-deps --only-binary=:all: --python-version "$PY_VERSION" --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl "${WHEELS[@]}"
"${PIP[@]}" wheel -q --no-deps -w .whl "${SDIST_ONLY[@]}"  # pure Python: py3-none-any

# Warn when the tested environment has moved away from these pins.
if [[ -x .venv/bin/python ]]; then
  .venv/bin/python - "${WHEELS[@]}" "${SDIST_ONLY[@]}" <<'EOF'
import sys
from importlib.metadata import PackageNotFoundError, version
for spec in sys.argv[1:]:
    name, want = spec.split("==")
    try:
        have = version(name)
    except PackageNotFoundError:
        have = None
    if have != want:
        print(f"gpu_wheels.sh: warning: .venv has {name} {have}, .whl/ has {want}", file=sys.stderr)
EOF
fi

ls -1 .whl
size_kib=$(du -sk .whl | cut -f1)
echo "gpu_wheels.sh: $(ls .whl | wc -l) wheels, $((size_kib / 1024)) MiB ($size_kib KiB) in .whl/"
if (( size_kib > LIMIT_MIB * 1024 )); then
  echo "gpu_wheels.sh: .whl/ is over $LIMIT_MIB MiB; the device carries 64 MiB in all" >&2
  exit 1
fi
git check-ignore -q .whl || { echo "gpu_wheels.sh: .whl/ is not ignored by git" >&2; exit 1; }
