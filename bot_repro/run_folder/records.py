"""A run folder's small records beyond metrics and run.json: Hydra's job overrides and group choices,
how far a run has got, and the copy of a run's record that a report archives.

``copy_record`` copies what a report needs to be redrawn and inspected from committed files (the
config and overrides, ``metrics.jsonl``, ``run.json``, the first and last saved rollouts, the
held-out samples' JSONL files, and of Hydra's ``hydra.yaml`` only ``runtime.choices``, so a report that
groups by a config group (``choice.arm``) redraws from the archive; the rest of that file holds the
machine's paths) and leaves checkpoints and screenshots behind; ``copy_record(..., checkpoint=True)``
adds the last checkpoint, for a run that stopped part-way to continue elsewhere.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import yaml

from bot_repro.run_folder.read import read_run_json
from bot_repro.run_folder.schema import CHECKPOINTS, CONFIG, EVAL, METRICS, ROLLOUTS, RUN_INFO

OVERRIDES = ".hydra/overrides.yaml"
HYDRA = ".hydra/hydra.yaml"
RECORD_FILES = (METRICS, RUN_INFO, CONFIG, OVERRIDES)
NOT_RESUMED = ("tokenizer*", "special_tokens_map.json", "chat_template.jinja", "vocab.*", "merges.txt", "README.md")


def has_metrics(run_dir: str | Path) -> bool:
    """True when the folder already holds a run (a non-empty ``metrics.jsonl``)."""
    path = Path(run_dir) / METRICS
    return path.is_file() and path.stat().st_size > 0


def metrics_path(run_dir: str | Path) -> Path:
    return Path(run_dir) / METRICS


def run_json_path(run_dir: str | Path) -> Path:
    return Path(run_dir) / RUN_INFO


def config_path(run_dir: str | Path) -> Path:
    return Path(run_dir) / CONFIG


def last_step(run_dir: str | Path) -> int:
    """The step of the last complete line of ``metrics.jsonl`` (0 without one): cheap, for progress
    bars that poll while the run writes (a half-written last line is skipped)."""
    path = Path(run_dir) / METRICS
    if not path.is_file():
        return 0
    for line in reversed(path.read_text().splitlines()):
        try:
            return int(json.loads(line).get("step", 0))
        except (json.JSONDecodeError, AttributeError, TypeError, ValueError):
            continue
    return 0


def status(run_dir: str | Path) -> str | None:
    """``run.json``'s status, None while it is missing or being rewritten."""
    try:
        return (read_run_json(run_dir) or {}).get("status")
    except ValueError:
        return None


def read_overrides(run_dir: str | Path) -> list[str] | None:
    """The job's command-line overrides as Hydra recorded them, None when not recorded or unreadable."""
    path = Path(run_dir) / OVERRIDES
    try:
        job = yaml.safe_load(path.read_text()) if path.is_file() else None
    except (OSError, yaml.YAMLError):
        return None
    return [str(x) for x in job] if isinstance(job, list) else None


def read_choices(run_dir: str | Path) -> dict[str, Any]:
    """Hydra's ``runtime.choices`` (group -> chosen config name) of a run, {} when not recorded."""
    path = Path(run_dir) / HYDRA
    if not path.is_file():
        return {}
    try:
        doc = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError:
        return {}
    choices = ((doc.get("hydra") or {}).get("runtime") or {}).get("choices") or {}
    return {str(k): v for k, v in choices.items() if not str(k).startswith("hydra/")}


def last_checkpoint(run_dir: str | Path) -> Path | None:
    """The run's newest complete checkpoint folder (``checkpoints/checkpoint-N`` with its trainer state)."""
    ckpts = sorted(
        (p for p in (Path(run_dir) / CHECKPOINTS).glob("checkpoint-*") if (p / "trainer_state.json").exists()),
        key=lambda p: int(p.name.split("-")[1]),
    )
    return ckpts[-1] if ckpts else None


def copy_record(src: str | Path, dst: str | Path, checkpoint: bool = False) -> Path:
    """Copy run ``src``'s record (module docstring) into ``dst``; with ``checkpoint``, its last checkpoint too."""
    src, dst = Path(src), Path(dst)
    for name in RECORD_FILES:
        if (src / name).exists():
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / name, dst / name)
    rollouts = sorted((src / ROLLOUTS).glob("step_*.jsonl"))
    for path in {*rollouts[:1], *rollouts[-1:]}:
        (dst / ROLLOUTS).mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dst / ROLLOUTS / path.name)
    choices = read_choices(src)
    if choices:
        (dst / HYDRA).parent.mkdir(parents=True, exist_ok=True)
        (dst / HYDRA).write_text(yaml.safe_dump({"hydra": {"runtime": {"choices": choices}}}, sort_keys=True))
    for path in sorted((src / EVAL).glob("step_*/*.jsonl")):
        target = dst / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    last = last_checkpoint(src) if checkpoint else None
    if last is not None:  # what resuming reads; the tokenizer's files and the model card come from the model
        shutil.copytree(last, dst / last.relative_to(src), ignore=shutil.ignore_patterns(*NOT_RESUMED))
    return dst
