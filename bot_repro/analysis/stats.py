"""Statistics over runs from the long table of ``load_runs``: curves, crossings, speed-ups, drops.

Every function works on any metric and any grouping (``group_by``: one config column or a list, ``[]``
for all runs together) and treats a run (a seed) as the unit of resampling. Shared conventions:

- curves are smoothed per run with one smoothing (``bot_repro.analysis.smoothing``; default EMA with
  alpha 0.5) before anything is read off them;
- intervals are bootstrap intervals over runs (``bot_repro.analysis.bootstrap``; percentile, 95%,
  10,000 resamples, seed 0, one run -> NaN bounds, identical values -> zero width);
- a threshold crossing is the first OBSERVED x (step, time or generated tokens) whose smoothed value is
  >= the threshold (<= with ``direction="below"``); no interpolation between points; NaN if never;
- runs that never cross are left out of crossing means and speed-ups, and the counts of runs that did
  cross are reported next to every number (this favours a method with non-crossing runs, so always
  read a ratio together with ``n_crossed``/``n_runs``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from bot_repro.analysis.bootstrap import bootstrap_ci, ratio_of_means_ci
from bot_repro.analysis.load import metrics_of
from bot_repro.analysis.smoothing import DEFAULT_SMOOTHING, SmoothingArg, as_smoothing, smooth
from bot_repro.run_folder import X_COLUMNS

GroupBy = str | Sequence[str]
DIRECTIONS = ("above", "below")

__all__ = [
    "aggregate_curves",
    "bootstrap_ci",
    "collapsed_runs",
    "crossings_per_run",
    "final_values",
    "first_crossing",
    "group_ci",
    "peak_to_final_drop",
    "peak_to_final_drops",
    "smooth",
    "speedup_vs",
    "steps_to_threshold",
    "wilson_interval",
]


def first_crossing(
    curve_x: Any,
    curve_y: Any,
    threshold: float,
    smoothing: SmoothingArg = DEFAULT_SMOOTHING,
    direction: str = "above",
) -> float:
    """First x whose smoothed y is >= ``threshold`` (<= for ``direction="below"``), NaN if none.

    ``curve_x`` must be finite and non-decreasing (steps, wall seconds or generated tokens in step
    order); the answer is always one of its values.
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"direction {direction!r} is not one of {', '.join(DIRECTIONS)}")
    x = np.asarray(curve_x, dtype=float)
    y = np.asarray(curve_y, dtype=float)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"curve_x and curve_y must be 1-D of equal length, got {x.shape} and {y.shape}")
    if not np.all(np.isfinite(x)) or np.any(np.diff(x) < 0):
        raise ValueError("curve_x must be finite and non-decreasing (sort points by step first)")
    ys = as_smoothing(smoothing)(y)
    with np.errstate(invalid="ignore"):
        hit = ys >= threshold if direction == "above" else ys <= threshold
    hits = np.flatnonzero(hit)
    return float(x[hits[0]]) if hits.size else np.nan


def peak_to_final_drop(curve: Any, smoothing: SmoothingArg = DEFAULT_SMOOTHING) -> float:
    """Maximum minus final value of the smoothed curve (values in step order); 0 for a rising curve.

    Missing (non-finite) points are skipped, ``final`` is the last finite point; NaN if there is none.
    """
    ys = as_smoothing(smoothing)(curve)
    ys = ys[np.isfinite(ys)]
    return float(ys.max() - ys[-1]) if ys.size else np.nan


def _group_list(group_by: GroupBy) -> list[str]:
    return [group_by] if isinstance(group_by, str) else list(group_by)


def _metric_runs(
    df: pd.DataFrame, metric: str, group_by: GroupBy
) -> Iterator[tuple[dict, str, pd.DataFrame]]:
    """(group values, run_id, the run's rows of ``metric`` in step order) for every run logging it."""
    cols = _group_list(group_by)
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"group_by column(s) {missing} not in the table; columns: {list(df.columns)}")
    rows = df[df["metric"] == metric]
    if rows.empty:
        raise ValueError(f"metric {metric!r} not in the table; metrics: {metrics_of(df)}")
    for run_id, run_rows in rows.groupby("run_id", sort=True):
        run_rows = run_rows.sort_values("step", kind="stable")
        yield {c: run_rows[c].iloc[0] for c in cols}, str(run_id), run_rows


def _check_x(x: str) -> None:
    if x not in X_COLUMNS:
        raise ValueError(f"x {x!r} is not one of {', '.join(X_COLUMNS)}")


def _by_group(frame: pd.DataFrame, cols: list[str]) -> Iterator[tuple[dict, pd.DataFrame]]:
    """Groups of ``frame`` (missing group values kept as their own group), in sorted order."""
    if not cols:
        yield {}, frame
        return
    for key, part in frame.groupby(cols, dropna=False, sort=True):
        yield dict(zip(cols, key)), part


def group_ci(
    per_run: pd.DataFrame,
    value: str,
    group_by: GroupBy,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
) -> pd.DataFrame:
    """Mean and bootstrap interval of the per-run column ``value`` per group.

    Columns: group columns, ``n_runs`` (runs in the group), ``n`` (runs with a finite value, the ones
    averaged), ``mean``, ``ci_low``, ``ci_high``.
    """
    cols = _group_list(group_by)
    out = []
    for key, part in _by_group(per_run, cols):
        values = part[value].to_numpy(dtype=float)
        finite = values[np.isfinite(values)]
        mean, low, high = bootstrap_ci(finite, confidence=confidence, n_resamples=n_resamples, seed=seed)
        out.append(
            {**key, "n_runs": len(part), "n": finite.size, "mean": mean, "ci_low": low, "ci_high": high}
        )
    return pd.DataFrame(out, columns=[*cols, "n_runs", "n", "mean", "ci_low", "ci_high"])


def aggregate_curves(
    df: pd.DataFrame,
    metric: str,
    group_by: GroupBy,
    x: str = "step",
    smoothing: SmoothingArg = DEFAULT_SMOOTHING,
    grid: int | Sequence[float] | None = None,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
) -> pd.DataFrame:
    """Mean curve with a bootstrap band per group: columns group columns, ``x``, ``mean``, ``ci_low``,
    ``ci_high``, ``n_seeds`` (runs with a value at that x).

    Each run's curve is smoothed first. With ``grid=None`` runs are matched on exact x values (right for
    steps, where runs evaluate on the same schedule). For wall time or tokens, which differ between
    runs, pass ``grid``: a number of evenly spaced points over the observed range, or the points
    themselves; each run is then linearly interpolated onto the grid inside its own x range (NaN outside).
    """
    _check_x(x)
    cols = _group_list(group_by)
    smoother = as_smoothing(smoothing)
    runs = list(_metric_runs(df, metric, cols))
    if grid is not None:
        if isinstance(grid, int | np.integer):
            if grid < 2:
                raise ValueError(f"grid must have at least 2 points, got {grid}")
            lo = min(float(r[x].min()) for _, _, r in runs)
            hi = max(float(r[x].max()) for _, _, r in runs)
            grid = np.linspace(lo, hi, int(grid))
        grid = np.asarray(grid, dtype=float)
    points = []
    for key, run_id, rows in runs:
        xs = rows[x].to_numpy()
        ys = smoother(rows["value"].to_numpy())
        if grid is not None:
            keep = np.isfinite(ys)
            if not keep.any():
                continue
            known_x, known_y = xs[keep].astype(float), ys[keep]
            if np.any(np.diff(known_x) < 0):
                raise ValueError(f"run {run_id}: {x} decreases with step; cannot interpolate onto a grid")
            inside = (grid >= known_x[0]) & (grid <= known_x[-1])
            xs, ys = grid, np.where(inside, np.interp(grid, known_x, known_y), np.nan)
        points.extend({**key, "run_id": run_id, x: xv, "y": yv} for xv, yv in zip(xs, ys))
    points_df = pd.DataFrame(points, columns=[*cols, "run_id", x, "y"])
    out = []
    for key, part in _by_group(points_df, [*cols, x]):
        ys = part["y"].to_numpy(dtype=float)
        ys = ys[np.isfinite(ys)]
        if ys.size == 0:
            continue
        mean, low, high = bootstrap_ci(ys, confidence=confidence, n_resamples=n_resamples, seed=seed)
        out.append({**key, "mean": mean, "ci_low": low, "ci_high": high, "n_seeds": ys.size})
    return pd.DataFrame(out, columns=[*cols, x, "mean", "ci_low", "ci_high", "n_seeds"])


def run_curves(df: pd.DataFrame, metric: str, group_by: GroupBy, x: str = "step",
               smoothing: SmoothingArg = DEFAULT_SMOOTHING) -> pd.DataFrame:
    """Each run's smoothed curve, the one ``aggregate_curves`` averages (matched on exact x): columns
    group columns, ``run_id``, ``x``, ``y``, one row per logged point (figures draw each seed thin
    under the mean, so a collapsed seed is not hidden by it)."""
    _check_x(x)
    cols = _group_list(group_by)
    smoother = as_smoothing(smoothing)
    points = [{**key, "run_id": run_id, x: xv, "y": yv}
              for key, run_id, rows in _metric_runs(df, metric, cols)
              for xv, yv in zip(rows[x].to_numpy(), smoother(rows["value"].to_numpy()))]
    return pd.DataFrame(points, columns=[*cols, "run_id", x, "y"])


def crossings_per_run(
    df: pd.DataFrame,
    metric: str,
    threshold: float,
    group_by: GroupBy,
    x: str = "step",
    smoothing: SmoothingArg = DEFAULT_SMOOTHING,
    direction: str = "above",
) -> pd.DataFrame:
    """One row per run: group columns, ``run_id``, ``crossing`` (first x over the threshold, NaN if
    never), ``crossed`` (bool) and ``last_x`` (the last x the metric was logged at: a run that never
    crossed is known only to need more than this)."""
    _check_x(x)
    cols = _group_list(group_by)
    out = []
    for key, run_id, rows in _metric_runs(df, metric, cols):
        xs = rows[x].to_numpy(dtype=float)
        if np.any(np.diff(xs) < 0):
            raise ValueError(f"run {run_id}: {x} decreases with step; the crossing {x} is undefined")
        crossing = first_crossing(xs, rows["value"].to_numpy(), threshold, smoothing, direction)
        out.append(
            {
                **key,
                "run_id": run_id,
                "crossing": crossing,
                "crossed": bool(np.isfinite(crossing)),
                "last_x": xs[-1],
            }
        )
    return pd.DataFrame(out, columns=[*cols, "run_id", "crossing", "crossed", "last_x"])


def steps_to_threshold(
    df: pd.DataFrame,
    metric: str,
    threshold: float,
    group_by: GroupBy,
    x: str = "step",
    smoothing: SmoothingArg = DEFAULT_SMOOTHING,
    direction: str = "above",
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
) -> pd.DataFrame:
    """Per group: ``n_runs``, ``n_crossed`` and the mean crossing x with its interval over the runs that
    crossed (``x`` may be ``"time"`` or ``"generated_tokens"`` for wall-clock or token cost)."""
    per_run = crossings_per_run(df, metric, threshold, group_by, x, smoothing, direction)
    table = group_ci(per_run, "crossing", group_by, confidence, n_resamples, seed)
    return table.rename(columns={"n": "n_crossed"})


_CROSSING_COLUMNS = ("run_id", "crossing", "crossed", "last_x")


def speedup_vs(
    crossings: pd.DataFrame,
    baseline: Any = "grpo",
    on: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
) -> pd.DataFrame:
    """Speed-up of each group over ``baseline``: mean baseline crossing / mean group crossing.

    ``crossings`` is the table of ``crossings_per_run``; its group columns are every other column.
    ``on`` is the column holding ``baseline`` (inferred when exactly one group column contains it); the
    remaining group columns are strata, so with ``["model.name", "algorithm.name"]`` each model is
    compared with its own GRPO runs. Only runs that crossed enter a ratio (module docstring); the two
    groups are resampled independently (``ratio_of_means_ci``). Baseline rows are not in the output.
    Columns: group columns, ``ratio``, ``ci_low``, ``ci_high``, ``n_crossed``, ``n_runs``,
    ``n_crossed_baseline``, ``n_runs_baseline``.
    """
    cols = [c for c in crossings.columns if c not in _CROSSING_COLUMNS]
    if on is None:
        holders = [c for c in cols if (crossings[c] == baseline).any()]
        if not holders:
            raise ValueError(f"baseline {baseline!r} is not a value of any group column {cols}")
        if len(holders) > 1:
            raise ValueError(
                f"baseline {baseline!r} appears in several group columns {holders}; pass on=<column>"
            )
        on = holders[0]
    if on not in cols:
        raise ValueError(f"on={on!r} is not a group column of the crossings table; group columns: {cols}")
    if not (crossings[on] == baseline).any():
        raise ValueError(
            f"baseline {baseline!r} not found in column {on!r}; values: {sorted(map(str, crossings[on].unique()))}"
        )
    strata = [c for c in cols if c != on]
    out = []
    for _stratum, part in _by_group(crossings, strata):
        base = part[part[on] == baseline]
        base_x = base.loc[base["crossed"], "crossing"].to_numpy(dtype=float)
        for key, group in _by_group(part[part[on] != baseline], cols):
            group_x = group.loc[group["crossed"], "crossing"].to_numpy(dtype=float)
            ratio, low, high = ratio_of_means_ci(base_x, group_x, confidence, n_resamples, seed)
            out.append(
                {
                    **key,
                    "ratio": ratio,
                    "ci_low": low,
                    "ci_high": high,
                    "n_crossed": group_x.size,
                    "n_runs": len(group),
                    "n_crossed_baseline": base_x.size,
                    "n_runs_baseline": len(base),
                }
            )
    names = ["ratio", "ci_low", "ci_high", "n_crossed", "n_runs", "n_crossed_baseline", "n_runs_baseline"]
    return pd.DataFrame(out, columns=[*cols, *names])


def peak_to_final_drops(
    df: pd.DataFrame, metric: str, group_by: GroupBy, smoothing: SmoothingArg = DEFAULT_SMOOTHING
) -> pd.DataFrame:
    """One row per run: group columns, ``run_id``, ``drop`` (``peak_to_final_drop`` of its curve).

    Aggregate with ``group_ci(drops, "drop", group_by)``."""
    cols = _group_list(group_by)
    out = [
        {**key, "run_id": run_id, "drop": peak_to_final_drop(rows["value"].to_numpy(), smoothing)}
        for key, run_id, rows in _metric_runs(df, metric, cols)
    ]
    return pd.DataFrame(out, columns=[*cols, "run_id", "drop"])


def final_values(df: pd.DataFrame, metric: str, group_by: GroupBy, final_window: int = 1) -> pd.DataFrame:
    """One row per run: group columns, ``run_id``, ``final`` (mean of the raw values at the run's last
    ``final_window`` finite points; no smoothing, the window is the smoothing), ``last_step``, ``first``
    (the raw value at its first finite point, step 0's evaluation) and ``gain`` (final - first: a seed's
    own change, paired with itself)."""
    if isinstance(final_window, bool) or not isinstance(final_window, int) or final_window < 1:
        raise ValueError(f"final_window must be an integer >= 1, got {final_window!r}")
    cols = _group_list(group_by)
    out = []
    for key, run_id, rows in _metric_runs(df, metric, cols):
        rows = rows[np.isfinite(rows["value"].to_numpy(dtype=float))]
        tail = rows.tail(final_window)
        final = float(tail["value"].mean()) if len(tail) else np.nan
        last = int(tail["step"].iloc[-1]) if len(tail) else None
        first = float(rows["value"].iloc[0]) if len(rows) else np.nan
        out.append({**key, "run_id": run_id, "final": final, "last_step": last, "first": first, "gain": final - first})
    return pd.DataFrame(out, columns=[*cols, "run_id", "final", "last_step", "first", "gain"])


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k``/``n`` (e.g. seeds that collapsed): unlike the
    bootstrap over runs it stays informative at 0/n and n/n. ``n == 0`` -> ``(nan, nan)``."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if n < 0 or not 0 <= k <= max(n, 0):
        raise ValueError(f"need 0 <= k <= n, got k={k!r}, n={n!r}")
    if n == 0:
        return (np.nan, np.nan)
    z = float(norm.ppf(0.5 + confidence / 2))
    p, z2 = k / n, z * z
    centre, half = (p + z2 / (2 * n)) / (1 + z2 / n), z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # the closed forms at k = 0 and k = n are exactly 0 and 1; the subtraction leaves rounding dust
    return (0.0 if k == 0 else float(centre - half), 1.0 if k == n else float(centre + half))


def collapsed_runs(df: pd.DataFrame, metric: str, group_by: GroupBy, fraction: float = 0.5) -> pd.DataFrame:
    """One row per run: group columns, ``run_id``, ``first``, ``final`` and ``collapsed``: the run's
    last raw value is below ``fraction`` x its first one (it ends worse than it started by that much;
    a dip it recovers from does not count). Count with ``wilson_interval``."""
    if not 0 < fraction < 1:
        raise ValueError(f"collapse fraction must be in (0, 1), got {fraction!r}")
    cols = _group_list(group_by)
    out = []
    for key, run_id, rows in _metric_runs(df, metric, cols):
        vals = rows["value"].to_numpy(dtype=float)
        vals = vals[np.isfinite(vals)]
        first, final = (float(vals[0]), float(vals[-1])) if len(vals) else (np.nan, np.nan)
        out.append({**key, "run_id": run_id, "first": first, "final": final,
                    "collapsed": bool(len(vals)) and final < fraction * first})
    return pd.DataFrame(out, columns=[*cols, "run_id", "first", "final", "collapsed"])
