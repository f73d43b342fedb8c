"""Synthetic run folders for tests, demos and figure-script dry runs, written by the run folder's own
writers (``bot_repro.run_folder``), so they have the trainer's format by construction.

Each piece (config, metrics, run.json) can be left out, and the last metrics line cut, to exercise the
readers' tolerance of runs that were killed or never finished.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bot_repro.run_folder import write_run_dir as _write_run_dir
from bot_repro.run_folder.schema import METRICS


def write_run_dir(
    run_dir: str | Path,
    config: Mapping[str, Any] | None,
    records: Iterable[Mapping[str, Any]] | None,
    run_info: Mapping[str, Any] | None = None,
    truncate_last: bool = False,
) -> Path:
    """``bot_repro.run_folder.write_run_dir``; ``truncate_last`` then cuts the final record in half
    (no newline), as a run killed mid-write leaves it."""
    run_dir = _write_run_dir(run_dir, config, records, run_info)
    path = Path(run_dir) / METRICS
    if truncate_last and path.exists():
        lines = path.read_text().splitlines()
        if lines:
            path.write_text("".join(line + "\n" for line in lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    return run_dir


def curve_records(
    steps: Iterable[int],
    metrics: Mapping[str, Iterable[float]],
    seconds_per_step: float = 10.0,
    tokens_per_step: int = 1000,
) -> list[dict[str, Any]]:
    """Records for ``steps`` with ``time`` and ``generated_tokens`` growing linearly with the step.

    ``metrics`` maps a metric name to one value per step (``None`` leaves the key out of that record, as
    an evaluation metric is absent on steps without an evaluation).
    """
    steps = list(steps)
    columns = {name: list(values) for name, values in metrics.items()}
    for name, values in columns.items():
        if len(values) != len(steps):
            raise ValueError(f"metric {name!r} has {len(values)} values for {len(steps)} steps")
    records = []
    for i, step in enumerate(steps):
        record: dict[str, Any] = {
            "step": step,
            "time": step * seconds_per_step,
            "generated_tokens": step * tokens_per_step,
        }
        record.update({name: values[i] for name, values in columns.items() if values[i] is not None})
        records.append(record)
    return records


def run_info(seed: int, status: str = "completed") -> dict[str, Any]:
    """A run.json body with the fields the trainer writes."""
    return {
        "git_sha": "0123456789abcdef0123456789abcdef01234567",
        "seed": seed,
        "status": status,
        "start_time": "2026-01-01T00:00:00+00:00",
        "end_time": None if status == "running" else "2026-01-01T01:00:00+00:00",
        "host": "test-host",
        "packages": {"torch": "2.13.0", "trl": "1.16.0"},
        "command": "python -m bot_repro.train",
    }


def run_config(algorithm: str, seed: int, **extra: Any) -> dict[str, Any]:
    """A small composed config with the keys the loader extracts by default."""
    config: dict[str, Any] = {
        "algorithm": {"name": algorithm},
        "model": {"name": "tiny-qwen2"},
        "task": {"name": "mini"},
        "reward": {"source": "mini", "w_g": 3.0, "w_s": 0.5, "window": 3, "params": {}},
        "seed": seed,
    }
    config.update(extra)
    return config
