#!/usr/bin/env bash
# Install torch==$1 into the venv whose pip is $2, before anything that depends on torch (or pip
# pulls whichever build it likes). Which build:
#   TORCH_INDEX_URL set      -> that index (e.g. a CUDA build: https://download.pytorch.org/whl/cu128)
#   a local wheel satisfies  -> it, offline (a wheelhouse in pip's find-links)
#   no NVIDIA driver         -> the CPU build from PyTorch's CPU index (a few hundred MB, not several GB)
#   otherwise                -> PyPI's default build (CUDA on Linux)
set -euo pipefail
version=$1 pip=$2
progress=$(dirname "$0")/pip_progress.sh  # a line per package and large download, not pip's full log
if [ -n "${TORCH_INDEX_URL:-}" ]; then
  "$pip" install "torch==$version" --index-url "$TORCH_INDEX_URL" | bash "$progress"
  exit 0
fi
# a wheel of this version in pip's find-links (no index asked): then the plain install takes it
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
if "$pip" download -q --no-index --no-deps -d "$probe" "torch==$version" >/dev/null 2>&1; then
  echo "install_torch: torch $version from a local wheel"
  "$pip" install "torch==$version" | bash "$progress"
  exit 0
fi
if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "install_torch: no NVIDIA driver found: installing the CPU build of torch $version"
  "$pip" install "torch==$version" --index-url https://download.pytorch.org/whl/cpu | bash "$progress"
  exit 0
fi
"$pip" install "torch==$version" | bash "$progress"
