"""Provenance of a GPU check result: the machine (platform, CPUs, GPU, driver) and the package versions
and git commit of the code that produced it."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from typing import Any

import torch

from bench.gpu.plan import REPO


def _run(cmd: list[str]) -> str | None:
    try:
        return (
            subprocess.run(cmd, capture_output=True, text=True, timeout=20, cwd=REPO).stdout.strip() or None
        )
    except (OSError, subprocess.SubprocessError):
        return None


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        info.update(gpu=p.name, gpu_memory_gb=p.total_memory / 2**30, multiprocessors=p.multi_processor_count,
                    capability=f"{p.major}.{p.minor}", cuda=torch.version.cuda,
                    nvidia_smi=_run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                                     "--format=csv,noheader"]))  # fmt: skip
    else:
        info["gpu"] = None
    return info


def versions() -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, Any] = {}
    for name in (
        "torch",
        "transformers",
        "trl",
        "accelerate",
        "tokenizers",
        "datasets",
        "hydra-core",
        "omegaconf",
    ):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    out["git_commit"] = _run(["git", "rev-parse", "HEAD"])
    status = _run(["git", "status", "--porcelain", "--untracked-files=no"])
    out["git_dirty"] = None if out["git_commit"] is None else bool(status)
    return out
