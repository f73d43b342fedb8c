"""Pull runs logged online to Weights & Biases into run folders that ``bot_repro.analysis.load`` reads.

For users who trained with ``logger=wandb_online`` and no longer have the run folders: every run's
FULL history is read with ``Run.scan_history()`` (``Run.history()`` returns a 500-row sample by
default, which would silently thin the curves), rows are merged per training step and written as
``<out>/<run id>/metrics.jsonl``, next to ``.hydra/config.yaml`` (the run's wandb config) and
``run.json`` (status, start time, wandb path). ``load_wandb_runs`` returns the same long DataFrame
as ``load_runs``, so every plot and statistic works unchanged.

Key mapping (a history row -> a metrics.jsonl record):

- step: ``step`` if the run logged our records, else ``train/global_step`` (TRL's), else ``_step``;
- time: ``time``, else ``_runtime`` (wall seconds since the start, evaluation included);
  generated_tokens: ``generated_tokens`` or ``train/generated_tokens``, else NaN (unknown);
- metrics: the ``train/`` prefix is dropped and TRL's names are renamed to ours
  (``bot_repro.run_folder.schema.RENAME``); ``eval/...`` and other keys stay; wandb's own ``_...``
  keys and non-numeric values (media, tables) are left out.

``--set key=value`` stamps config values on the exported runs (e.g. ``algorithm.name=bot_grpo``) when
the online config lacks the keys a figure groups by. Only the public ``wandb.Api`` is used, so the
functions take any object with its ``run(path)`` / ``runs(path, filters)`` methods (tests pass a fake).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bot_repro.analysis.load import load_runs
from bot_repro.run_folder import write_run_dir
from bot_repro.run_folder.schema import RENAME

STEP_KEYS = ("step", "train/global_step", "_step")
TIME_KEYS = ("time", "_runtime")
TOKEN_KEYS = ("generated_tokens", "train/generated_tokens")
STATES = {"finished": "completed", "running": "running", "crashed": "failed", "failed": "failed", "killed": "failed"}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and not (
        isinstance(value, float) and math.isnan(value)
    )


def _first(row: Mapping[str, Any], keys: Sequence[str]) -> Any:
    return next((row[k] for k in keys if _number(row.get(k))), None)


def history_records(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """metrics.jsonl records from wandb history rows (module docstring), one per step, in step order."""
    by_step: dict[int, dict[str, Any]] = {}
    for row in rows:
        step = _first(row, STEP_KEYS)
        if step is None:
            continue
        record = by_step.setdefault(int(step), {"step": int(step)})
        for key, value in row.items():
            if key.startswith("_") or key in (*STEP_KEYS, *TIME_KEYS, *TOKEN_KEYS) or not (
                _number(value) or isinstance(value, bool)
            ):
                continue
            name = key[len("train/"):] if key.startswith("train/") else key
            record[RENAME.get(name, name)] = float(value)
        time, tokens = _first(row, TIME_KEYS), _first(row, TOKEN_KEYS)
        if time is not None:
            record["time"] = float(time)
        if tokens is not None:
            record["generated_tokens"] = float(tokens)
    out = []
    for step in sorted(by_step):
        record = by_step[step]
        record.setdefault("time", 0.0 if step == 0 else math.nan)
        record.setdefault("generated_tokens", 0.0 if step == 0 else math.nan)
        out.append(record)
    return out


def _nested(flat: Mapping[str, Any]) -> dict[str, Any]:
    """{"algorithm.name": "x"} -> {"algorithm": {"name": "x"}}; nested input passes through."""
    out: dict[str, Any] = {}
    for key, value in flat.items():
        node = out
        parts = str(key).split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


def _merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value
    return base


def export_run(run: Any, out_root: str | Path, stamp: Mapping[str, Any] | None = None) -> Path:
    """Write one wandb run (full history) as ``<out_root>/<run.id>``; returns the folder."""
    path = "/".join(str(p) for p in getattr(run, "path", [run.id]))
    config = _merge(_nested(dict(run.config or {})), _nested(dict(stamp or {})))
    config.setdefault("wandb", {}).update({"id": run.id, "name": getattr(run, "name", None), "path": path})
    records = history_records(run.scan_history())
    info = {"status": STATES.get(str(getattr(run, "state", "")), str(getattr(run, "state", "unknown"))),
            "start_time": str(getattr(run, "created_at", "") or ""), "seed": config.get("seed"),
            "source": "wandb", "wandb_path": path}
    return write_run_dir(Path(out_root) / str(run.id), config, records, info)


def export_runs(api: Any, out_root: str | Path, run_paths: Sequence[str] = (), project: str | None = None,
                filters: Mapping[str, Any] | None = None, stamp: Mapping[str, Any] | None = None) -> list[Path]:
    """Export the runs named by ``run_paths`` ("entity/project/run_id") and/or every run of ``project``
    ("entity/project") matching ``filters`` (wandb's MongoDB-style filter)."""
    if not run_paths and not project:
        raise ValueError("name runs (entity/project/run_id) or a project (entity/project) to export")
    runs = [api.run(p) for p in run_paths]
    if project:
        runs += list(api.runs(project, filters=dict(filters or {})))
    if not runs:
        raise ValueError(f"no wandb runs matched (project {project!r}, filters {dict(filters or {})})")
    return [export_run(run, out_root, stamp) for run in runs]


def load_wandb_runs(api: Any, out_root: str | Path, config_keys: Sequence[str] | None = None, **kwargs: Any) -> pd.DataFrame:
    """``export_runs`` then ``load_runs``: the long table every plot uses, from online runs."""
    export_runs(api, out_root, **kwargs)
    return load_runs(out_root, config_keys)


def _parse_stamp(items: Sequence[str]) -> dict[str, Any]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--set takes key=value, got {item!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot_repro.analysis.wandb_export", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="*", help="run paths entity/project/run_id")
    parser.add_argument("--project", help="export every run of entity/project (with --filters)")
    parser.add_argument("--filters", default="{}", help='wandb filter as JSON, e.g. \'{"config.seed": 0}\'')
    parser.add_argument("--out", type=Path, default=Path("runs/wandb"), help="folder for the run folders")
    parser.add_argument("--set", dest="stamp", action="append", default=[], metavar="KEY=VALUE",
                        help="config value stamped on every exported run (repeatable)")
    args = parser.parse_args(argv)
    try:  # every input check comes before wandb.Api(), which reads credentials
        if not args.runs and not args.project:
            raise ValueError("name runs (entity/project/run_id) or --project entity/project")
        stamp = _parse_stamp(args.stamp)
        try:
            filters = json.loads(args.filters)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--filters is not JSON ({exc}): {args.filters!r}") from exc
        import wandb

        paths = export_runs(wandb.Api(), args.out, args.runs, args.project, filters, stamp)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(map(str, paths)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
