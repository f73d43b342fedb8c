"""Run folders -> tidy pandas tables (``load_runs``: one row per run, step and metric; ``load_run_table``:
one row per run).

The folders are read through ``bot_repro.run_folder`` (the one owner of their format: which files, the
``metrics.jsonl`` rules, run.json's version).
Numeric values (bools as 0/1, NaN and infinities kept) become metric rows; strings, nulls, lists and
objects are ignored, so a trainer may log text samples alongside numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bot_repro.run_folder.read import (
    RootsArg,
    find_run_dirs,
    is_number,
    read_config,
    read_metrics,
    read_run_info,
)
from bot_repro.run_folder.schema import METRICS, X_COLUMNS

DEFAULT_CONFIG_KEYS: tuple[str, ...] = (
    "experiment_name",
    "algorithm.name",
    "model.name",
    "task.name",
    "reward.source",
    "reward.w_g",
    "reward.w_s",
    "reward.window",
    "seed",
)
LONG_COLUMNS = ("run_id", "run_dir", "step", "time", "generated_tokens", "metric", "value")


def load_runs(roots: RootsArg, config_keys: Sequence[str] | None = None) -> pd.DataFrame:
    """Tidy long table: one row per (run, step, metric) of every run below ``roots``.

    Columns: ``run_id, run_dir, step, time, generated_tokens, metric, value`` plus one column per
    requested config key (dotted, e.g. ``"algorithm.name"``; ``"run.<field>"`` reads run.json, e.g.
    ``"run.status"``). ``config_keys=None`` takes ``DEFAULT_CONFIG_KEYS``. A key a run lacks is missing
    (NaN), so group with ``dropna=False`` to keep such runs.
    """
    keys = list(DEFAULT_CONFIG_KEYS if config_keys is None else config_keys)
    clash = sorted(set(keys) & set(LONG_COLUMNS))
    if clash:
        raise ValueError(f"config key(s) {clash} clash with the table's own columns {list(LONG_COLUMNS)}")
    columns: dict[str, list[Any]] = {name: [] for name in (*LONG_COLUMNS, *keys)}
    for run_id, run_dir in find_run_dirs(roots):
        lookup = _run_lookup(run_dir)
        run_values = [lookup.get(key) for key in keys]
        for record in read_metrics(run_dir / METRICS):
            for metric, value in record.items():
                if metric in X_COLUMNS or not (is_number(value) or isinstance(value, bool)):
                    continue
                columns["run_id"].append(run_id)
                columns["run_dir"].append(str(run_dir))
                columns["step"].append(record["step"])
                columns["time"].append(float(record["time"]))
                columns["generated_tokens"].append(float(record["generated_tokens"]))
                columns["metric"].append(metric)
                columns["value"].append(float(value))
                for key, key_value in zip(keys, run_values):
                    columns[key].append(key_value)
    frame = pd.DataFrame(columns)
    frame["step"] = frame["step"].astype("int64")
    for name in ("time", "generated_tokens", "value"):
        frame[name] = frame[name].astype("float64")
    return frame.sort_values(["run_id", "step", "metric"], kind="stable").reset_index(drop=True)


def _run_lookup(run_dir: Path) -> dict[str, Any]:
    return {**(read_config(run_dir) or {}), **(read_run_info(run_dir) or {})}


def load_run_table(roots: RootsArg) -> pd.DataFrame:
    """One row per run: ``run_id``, ``run_dir``, every flattened config key, every ``run.<field>`` of
    run.json, plus ``has_config``, ``has_run_info``, ``last_step`` (``None`` for an empty log) and
    ``n_records``. A value a run lacks is missing (NaN)."""
    rows = []
    for run_id, run_dir in find_run_dirs(roots):
        config = read_config(run_dir)
        info = read_run_info(run_dir)
        records = read_metrics(run_dir / METRICS)
        rows.append(
            {
                "run_id": run_id,
                "run_dir": str(run_dir),
                "has_config": config is not None,
                "has_run_info": info is not None,
                "last_step": records[-1]["step"] if records else None,
                "n_records": len(records),
                **(config or {}),
                **(info or {}),
            }
        )
    return pd.DataFrame(rows)


def metrics_of(frame: pd.DataFrame) -> list[str]:
    """The sorted metric names present in a long table (for error messages and discovery)."""
    return sorted(frame["metric"].unique()) if "metric" in frame else []

