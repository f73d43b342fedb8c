"""The interval of each held-out point with few samples, drawn on the point itself.

A held-out evaluation (``eval/*``) is a handful of prompts (real_small: 8 prompts x 2 samples), taken
every few steps; a line through such points with no interval reads as a measurement it is not. So a
held-out curve whose runs record their samples (``SAMPLES_COLUMN``, filled by
``bot_repro.experiment.run_table`` from ``eval/step_*/samples.jsonl``) is drawn as measured, unsmoothed, and
each point carries an error bar:

- over seeds where the point averages several: the 95% bootstrap interval of the seeds' values;
- for one seed and a rate that is a proportion of counted trials: the 95% Wilson score interval of
  k/n, with n the point's samples (times the per-sample count of ``COUNTED_BY`` where the rate is
  pooled over something else) and k = value x n, which must be a whole number;
- anything else (``pass@k`` with k > 1 is an average over problems, not a proportion): no bar,
  and the caption says so.

Like ``curves``, it reads only DataFrames and plain values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from bot_repro.analysis.formats import number
from bot_repro.analysis.stats import wilson_interval
from bot_repro.plots.style import is_rate

SAMPLES_COLUMN = "eval_samples"  # a held-out row's sample count (NaN where the run recorded none)
HELD_OUT = "eval/"
# held-out rates pooled over something other than the samples -> the per-sample count of it logged beside
# them (bot_repro/tasks/arith/task.py: step accuracies are pooled over the checked steps)
COUNTED_BY = {
    "eval/step_accuracy": "eval/checked_steps_per_sample",
    "eval/grounded_step_accuracy": "eval/checked_steps_per_sample",
}
WILSON, SEEDS, NONE = "wilson", "seeds", "none"


def has_counts(rows: pd.DataFrame, metric: str) -> bool:
    """Whether ``metric`` is held-out and its runs in ``rows`` record their samples (module docstring)."""
    if not metric.startswith(HELD_OUT) or SAMPLES_COLUMN not in rows:
        return False
    return bool(rows.loc[rows["metric"] == metric, SAMPLES_COLUMN].notna().any())


def is_proportion(metric: str) -> bool:
    """A rate that is k successes of n counted trials: ``*_rate``, ``*accuracy``, ``success``,
    ``pass@1`` (``pass@k`` for k > 1 is an average over problems, not a proportion)."""
    name = metric.rsplit("/", 1)[-1].lower()
    if name.startswith("pass@"):
        return name == "pass@1"
    return is_rate(metric) or name.endswith("accuracy")


def _trials(rows: pd.DataFrame, metric: str) -> pd.Series:
    """Trials behind each (run_id, step) value of ``metric``: its samples, times ``COUNTED_BY``'s count."""
    own = rows[rows["metric"] == metric].set_index(["run_id", "step"])[SAMPLES_COLUMN].astype(float)
    per = COUNTED_BY.get(metric)
    if per is None:
        return own
    scale = rows[rows["metric"] == per].set_index(["run_id", "step"])["value"].astype(float)
    return (own * scale.reindex(own.index)).round()


def point_intervals(rows: pd.DataFrame, metric: str, hue: str, agg: pd.DataFrame) -> pd.DataFrame:
    """Each point of ``agg`` (an unsmoothed ``aggregate_curves`` table of ``metric`` over ``rows``)
    with its interval (module docstring): columns ``hue``, ``step``, ``mean``, ``low``, ``high``,
    ``kind`` (``seeds``, ``wilson`` or ``none``) and ``n`` (the trials of a Wilson interval)."""
    trials = _trials(rows, metric)
    values = rows[rows["metric"] == metric]
    out = []
    for _, point in agg.iterrows():
        low, high, kind, n = point["ci_low"], point["ci_high"], SEEDS, math.nan
        if int(point["n_seeds"]) < 2:
            low = high = math.nan
            kind = NONE
            mine = values[(values[hue] == point[hue]) & (values["step"] == point["step"])]
            if is_proportion(metric) and len(mine) == 1:
                n = float(trials.get((mine["run_id"].iloc[0], point["step"]), math.nan))
            if math.isfinite(n) and n > 0:
                k = float(point["mean"]) * n
                if abs(k - round(k)) > 1e-6 * n:
                    raise ValueError(f"{metric} = {point['mean']} at step {point['step']} of "
                                     f"{mine['run_id'].iloc[0]} is not k/n for its n = {n:g} trials; "
                                     f"if it is pooled over something else, name its count in COUNTED_BY")
                low, high = wilson_interval(int(round(k)), int(n))
                kind = WILSON
        out.append({hue: point[hue], "step": point["step"], "mean": float(point["mean"]), "low": float(low),
                    "high": float(high), "kind": kind, "n": n})
    return pd.DataFrame(out, columns=[hue, "step", "mean", "low", "high", "kind", "n"])


def interval_caption(tables: Iterable[tuple[str, pd.DataFrame]]) -> str:
    """The caption sentence saying what the held-out bars are, from the ``(metric, point_intervals)``
    tables a figure drew ("" when it drew none)."""
    tables = list(tables)
    if not tables:
        return ""
    parts = ["Held-out panels: each evaluation as measured (unsmoothed)"]
    kinds = {k for _, t in tables for k in t["kind"]}
    if SEEDS in kinds:
        parts.append("bars: 95% bootstrap interval over seeds")
    if WILSON in kinds:
        def counts(pooled: bool) -> str:
            ns = sorted({int(n) for m, t in tables if (m in COUNTED_BY) == pooled
                         for n in t.loc[t["kind"] == WILSON, "n"]})
            return "" if not ns else number(ns[0]) if len(ns) == 1 else f"{number(ns[0])}-{number(ns[-1])}"
        trials = [f"n = {c} samples" for c in [counts(False)] if c]
        pooled = sorted({m for m, t in tables if m in COUNTED_BY and (t["kind"] == WILSON).any()})
        trials += [f"n = {counts(True)} checked steps for {', '.join(pooled)}"] if pooled else []
        parts.append(f"bars of one seed: 95% Wilson score interval of k/n ({', '.join(trials)})")
    bare = sorted({m for m, t in tables if (t["kind"] == NONE).any()})
    if bare:
        parts.append(f"no bar on one seed's {', '.join(bare)} (not a proportion of samples)")
    return "; ".join(parts)


def dodge(values: Iterable, span: float) -> dict:
    """A small x offset per hue value (sorted as the curves are), so bars at one step do not hide each
    other: 1.2% of the x ``span`` apart, centred on the step."""
    ordered = sorted(dict.fromkeys(values), key=str)
    step = 0.012 * span
    return {v: step * (i - (len(ordered) - 1) / 2) for i, v in enumerate(ordered)} if len(ordered) > 1 else \
        {v: 0.0 for v in ordered}


def bars_yerr(table: pd.DataFrame) -> np.ndarray:
    """``errorbar``'s yerr (2 x n: below, above) for the rows of a ``point_intervals`` table that have one."""
    return np.vstack([table["mean"] - table["low"], table["high"] - table["mean"]]).astype(float)
