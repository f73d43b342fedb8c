"""Load the runs an experiment's report draws: the analysis long table plus Hydra's group choices, one run per cell.

``load_runs`` reads each run's composed config; a figure may also group by the *name* of the config
a group was given (``choice.reward`` = ``react_vlm_2turn``, ``choice.arm``), which only Hydra's
record of the job holds (``run_folder.read_choices``), so ``choice.<group>`` columns are added here. An experiment's run folder
may hold several sweeps (a rerun, more seeds later); when two runs fill the same cell (same group
values and seed) the newer one is kept and the older one is reported, so a rerun never counts twice.
Each held-out row gets the number of samples its evaluation recorded (``eval_samples``: the lines of
``eval/step_<N>/samples.jsonl``; NaN where the run kept none), from which ``bot_repro.plots.intervals``
draws its interval.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from bot_repro.analysis.load import DEFAULT_CONFIG_KEYS, load_runs
from bot_repro.plots.intervals import HELD_OUT, SAMPLES_COLUMN
from bot_repro.run_folder import read_choices
from bot_repro.run_folder.schema import EVAL

EVAL_SAMPLES = "samples.jsonl"  # one line per held-out sample (bot_repro.tasks.base: the task writes what it evaluated)

CHOICE_PREFIX = "choice."
RUN_KEYS = ("run.status", "run.start_time")


def load_figure_runs(roots: Path | Sequence[Path], columns: Sequence[str]) -> pd.DataFrame:
    """Long table (``bot_repro.analysis.load.load_runs``) of the runs under ``roots`` with every
    column in ``columns`` (config keys, ``run.*`` fields or ``choice.<group>``), deduplicated per
    (columns, seed) cell."""
    wanted = list(dict.fromkeys(columns))
    keys = [c for c in wanted if not c.startswith(CHOICE_PREFIX)]
    keys = list(dict.fromkeys([*DEFAULT_CONFIG_KEYS, *RUN_KEYS, *keys]))
    frame = load_runs(roots, keys)
    choice_cols = [c for c in wanted if c.startswith(CHOICE_PREFIX)]
    if choice_cols:
        choices = {d: read_choices(d) for d in frame["run_dir"].unique()}
        for col in choice_cols:
            group = col[len(CHOICE_PREFIX):]
            frame[col] = frame["run_dir"].map(lambda d, g=group: choices[d].get(g))
    return with_eval_samples(latest_per_cell(frame, wanted))


def eval_sample_counts(run_dir: str | Path) -> dict[int, int]:
    """step -> the held-out samples the run recorded at that step (``eval/step_<N>/samples.jsonl``)."""
    counts = {}
    for path in sorted((Path(run_dir) / EVAL).glob(f"step_*/{EVAL_SAMPLES}")):
        step = path.parent.name.removeprefix("step_")
        if step.isdigit():
            with path.open() as lines:
                counts[int(step)] = sum(1 for line in lines if line.strip())
    return counts


def with_eval_samples(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with ``SAMPLES_COLUMN``: each held-out row's recorded sample count (NaN elsewhere)."""
    counts = {d: eval_sample_counts(d) for d in frame["run_dir"].unique()}
    held_out = frame["metric"].astype(str).str.startswith(HELD_OUT)
    n = [counts[d].get(int(s), math.nan) if h else math.nan
         for d, s, h in zip(frame["run_dir"], frame["step"], held_out)]
    return frame.assign(**{SAMPLES_COLUMN: np.asarray(n, dtype=float)})


def latest_per_cell(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Keep one run per (columns, seed) cell: the one that started last (then the last run id)."""
    cell = [c for c in dict.fromkeys([*columns, "seed"]) if c in frame.columns]
    runs = frame.drop_duplicates("run_id")[["run_id", *cell, "run.start_time"]].copy()
    runs["_start"] = runs["run.start_time"].astype(str)
    runs = runs.sort_values(["_start", "run_id"])
    keep = runs.drop_duplicates([c for c in cell], keep="last") if cell else runs
    dropped = sorted(set(runs["run_id"]) - set(keep["run_id"]))
    if dropped:
        warnings.warn(
            f"{len(dropped)} older run(s) fill the same (config, seed) cell as a newer one and are left out: "
            f"{', '.join(dropped[:5])}{' ...' if len(dropped) > 5 else ''}",
            stacklevel=2,
        )
    return frame[frame["run_id"].isin(set(keep["run_id"]))].reset_index(drop=True)


def run_table(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """One row per run (id, directory, status, the figure's columns, seed, last step) for provenance."""
    cols = [c for c in dict.fromkeys(["run_id", "run_dir", *RUN_KEYS, *columns, "seed"]) if c in frame.columns]
    last = frame.groupby("run_id")["step"].max().rename("last_step")
    return frame.drop_duplicates("run_id")[cols].join(last, on="run_id").reset_index(drop=True)
