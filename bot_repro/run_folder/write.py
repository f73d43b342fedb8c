"""Writers of the run folder (``bot_repro.run_folder.schema`` names the files and keys).

The trainer writes through these (``run.json`` at start and exit, one ``metrics.jsonl`` line per step,
saved rollouts); so do the synthetic runs of tests (``bot_repro.analysis.synthetic``), the pairwise
figure's run-like folders and the wandb export, so every run folder has one format.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from bot_repro.paths import REPO
from bot_repro.run_folder.schema import CONFIG, FORMAT_KEY, FORMAT_VERSION, METRICS, RUN_INFO, rollout_file

PACKAGE = REPO / "bot_repro"


def write_run_json(run_dir: str | Path, info: Mapping[str, Any]) -> Path:
    """Write ``run.json`` with ``format_version`` first, then ``info``'s fields."""
    path = Path(run_dir) / RUN_INFO
    path.write_text(json.dumps({FORMAT_KEY: FORMAT_VERSION, **info}, indent=2) + "\n")
    return path


def append_metrics(path: str | Path, records: Iterable[Mapping[str, Any]]) -> None:
    """Append one JSON line per record to ``metrics.jsonl`` at ``path`` (values written as given)."""
    text = "".join(json.dumps(dict(r)) + "\n" for r in records)
    with Path(path).open("a") as f:
        f.write(text)


def truncate_metrics(path: str | Path, last_step: int) -> int:
    """Keep only lines with step <= last_step (a killed run may have logged past its checkpoint);
    returns the number of lines kept."""
    path = Path(path)
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


def write_config(run_dir: str | Path, config: Mapping[str, Any]) -> Path:
    """Write ``.hydra/config.yaml`` (a training run's is Hydra's; this one is for folders made otherwise)."""
    path = Path(run_dir) / CONFIG
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(dict(config), sort_keys=False))
    return path


def write_run_dir(
    run_dir: str | Path,
    config: Mapping[str, Any] | None,
    records: Iterable[Mapping[str, Any]] | None,
    run_info: Mapping[str, Any] | None = None,
) -> Path:
    """A whole run folder from its config, metric records and run.json fields; ``None`` skips a piece."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    if config is not None:
        write_config(run_dir, config)
    if records is not None:
        (run_dir / METRICS).write_text("")
        append_metrics(run_dir / METRICS, records)
    if run_info is not None:
        write_run_json(run_dir, run_info)
    return run_dir


def write_rollouts(rollout_dir: str | Path, step: int, rows: Sequence[Mapping[str, Any]]) -> Path:
    """Write step ``step``'s saved rollouts (one JSON object per rollout) into ``rollout_dir``."""
    rollout_dir = Path(rollout_dir)
    rollout_dir.mkdir(parents=True, exist_ok=True)
    path = rollout_dir / rollout_file(step)
    path.write_text("".join(json.dumps(dict(r), default=str) + "\n" for r in rows))
    return path


def portable_command(argv: Sequence[str], run_dir: str | Path, repo: Path = REPO) -> str:
    """``argv`` as run.json's ``command``, without the machine's absolute paths.

    A script of this package becomes ``python -m <module>`` (``python -m bot_repro.train`` puts the file's
    path in ``sys.argv[0]``); an absolute path, alone or as an override's value, is written relative
    to the repository when it lies inside it (commands run from the repository root), otherwise
    relative to the run folder.
    """
    run_dir = Path(run_dir).resolve()
    words = []
    for i, word in enumerate(argv):
        if i == 0 and _inside(Path(word), PACKAGE) and word.endswith(".py"):
            module = Path(word).resolve().relative_to(PACKAGE.parent).with_suffix("")
            words.append(f"python -m {'.'.join(module.parts)}")
            continue
        key, sep, value = word.partition("=")
        if sep and os.path.isabs(value):
            words.append(f"{key}={_relative(value, run_dir, repo)}")
        elif not sep and os.path.isabs(word):
            words.append(_relative(word, run_dir, repo))
        else:
            words.append(word)
    return " ".join(words)


def _inside(path: Path, folder: Path) -> bool:
    return path.is_absolute() and path.resolve().is_relative_to(folder)


def _relative(path: str, run_dir: Path, repo: Path) -> str:
    resolved = Path(path).resolve()
    base = repo if resolved.is_relative_to(repo.resolve()) else run_dir
    return os.path.relpath(resolved, base)

