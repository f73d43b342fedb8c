"""Run-directory bookkeeping: ``run.json`` (provenance), checkpoints and resume.

A run directory holds ``.hydra/`` (composed config, written by Hydra), ``metrics.jsonl``,
``run.json`` (git SHA, package versions, seed, host, times, exit status), ``checkpoints/`` and
``rollouts/``. Resuming truncates ``metrics.jsonl`` to the checkpoint's step so that every step
appears exactly once.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

PACKAGES = ("torch", "transformers", "trl", "accelerate", "hydra-core", "omegaconf", "wandb", "vllm", "math-verify")


def git_sha(cwd: Path | None = None) -> str | None:
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd or Path(__file__).parent, capture_output=True, text=True, timeout=10
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd or Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if sha.returncode != 0:
        return None
    return sha.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def package_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def hardware() -> dict[str, object]:
    info: dict[str, object] = {"cpu_count": os.cpu_count(), "machine": platform.machine(), "system": platform.system()}
    try:
        import torch

        if torch.cuda.is_available():
            info["gpus"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    except ImportError:
        pass
    return info


class RunRecord:
    """Writes ``run.json`` at start (status running) and at exit (completed / failed)."""

    def __init__(self, run_dir: Path, seed: int, resumed_from: str | None = None):
        self.path = Path(run_dir) / "run.json"
        previous = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.data = {
            "git_sha": git_sha(),
            "packages": package_versions(),
            "hardware": hardware(),
            "seed": seed,
            "host": socket.gethostname(),
            "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
            "command": " ".join(sys.argv),
            "start_time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "end_time": None,
            "status": "running",
            "resumed_from": resumed_from,
            "attempts": previous.get("attempts", 0) + 1,
        }
        self._dump()

    def _dump(self) -> None:
        self.path.write_text(json.dumps(self.data, indent=2) + "\n")

    def finish(self, status: str, error: str | None = None, **extra) -> None:
        self.data.update(end_time=time.strftime("%Y-%m-%dT%H:%M:%S%z"), status=status, error=error, **extra)
        self._dump()


def last_checkpoint(run_dir: Path) -> Path | None:
    ckpts = sorted(
        (p for p in (Path(run_dir) / "checkpoints").glob("checkpoint-*") if (p / "trainer_state.json").exists()),
        key=lambda p: int(p.name.split("-")[1]),
    )
    return ckpts[-1] if ckpts else None


def truncate_metrics(path: Path, last_step: int) -> int:
    """Keep only lines with step <= last_step (a killed run may have logged past its checkpoint)."""
    if not path.exists():
        return 0
    kept = []
    for line in path.read_text().splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by the kill
        if rec.get("step", 0) <= last_step:
            kept.append(line)
    path.write_text("".join(k + "\n" for k in kept))
    return len(kept)


def save_counters(checkpoint: Path, counters: dict) -> None:
    (Path(checkpoint) / "bot_repro_counters.json").write_text(json.dumps(counters))


def load_counters(checkpoint: Path) -> dict:
    p = Path(checkpoint) / "bot_repro_counters.json"
    return json.loads(p.read_text()) if p.exists() else {}
