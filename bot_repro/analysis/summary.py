"""Per-group summary of a study (a JSON-ready dict) and its Markdown report.

``summarise`` gathers, for one metric: the number of seeds, the final value, the step / wall-clock /
generated-token cost to first cross a threshold, the speed-up over a baseline group for each of those
three costs, and the peak-to-final drop, each as a mean with a bootstrap interval over runs (the rules
are in ``bot_repro.analysis.stats``). Every NaN becomes ``None`` so ``json.dumps`` writes valid JSON.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import platform
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bot_repro.analysis.formats import MISSING, interval, number, speedup
from bot_repro.analysis.labels import group_key_label, group_label
from bot_repro.analysis.smoothing import DEFAULT_SMOOTHING, SmoothingArg, as_smoothing
from bot_repro.analysis.stats import (
    GroupBy,
    crossings_per_run,
    final_values,
    group_ci,
    peak_to_final_drops,
    speedup_vs,
)

REQUIRED_META = ("command", "git_sha", "date", "machine")
CODE_META = ("command", "replot")  # meta values shown as code (commands to copy)
COSTS = ("step", "time", "generated_tokens")


def summarise(
    df: pd.DataFrame,
    metric: str,
    threshold: float | None,
    group_by: GroupBy = "algorithm.name",
    baseline: Any = "grpo",
    final_window: int = 1,
    smoothing: SmoothingArg = DEFAULT_SMOOTHING,
    direction: str = "above",
    on: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
) -> dict[str, Any]:
    """Summary of ``metric`` per group of ``df`` (the long table of ``load_runs``).

    ``threshold=None`` skips crossings and speed-ups; ``baseline=None`` skips speed-ups; ``on`` names the
    column holding the baseline when it cannot be inferred (see ``speedup_vs``). Returns
    ``{"metric", "threshold", ..., "groups": [{"group", "label", "n_seeds", "final", "start", "gain", "to_threshold",
    "speedup", "peak_to_final_drop", "crossed"}, ...]}`` with ``to_threshold`` and ``speedup`` keyed by cost
    (``"step"``, ``"time"``, ``"generated_tokens"``); ``speedup`` is ``None`` for the baseline group;
    ``crossed`` (with a threshold) lists the seeds whose smoothed curve reached it.
    """
    cols = [group_by] if isinstance(group_by, str) else list(group_by)
    smoother = as_smoothing(smoothing)
    ci = {"confidence": confidence, "n_resamples": n_resamples, "seed": seed}

    per_run = final_values(df, metric, cols, final_window)
    finals = group_ci(per_run, "final", cols, **ci)
    drops = group_ci(peak_to_final_drops(df, metric, cols, smoother), "drop", cols, **ci)
    groups = {_key(row, cols): _group_entry(row, cols) for row in finals.to_dict("records")}
    for name, column in (("start", "first"), ("gain", "gain")):  # the first point, and final - first paired by run
        for row in group_ci(per_run, column, cols, **ci).to_dict("records"):
            groups[_key(row, cols)][name] = _interval(row, "n")
    for row in drops.to_dict("records"):
        groups[_key(row, cols)]["peak_to_final_drop"] = _interval(row, "n")
    baseline_column = None
    for cost in COSTS if threshold is not None else ():
        crossings = crossings_per_run(df, metric, threshold, cols, cost, smoother, direction)
        for row in group_ci(crossings, "crossing", cols, **ci).to_dict("records"):
            entry = _interval(row, "n", rename={"n": "n_crossed"})
            groups[_key(row, cols)]["to_threshold"][cost] = {**entry, "n_runs": row["n_runs"]}
        if cost == "step":
            _crossed_seeds(df, metric, crossings, cols, groups)
        if baseline is None:
            continue
        speedups = speedup_vs(crossings, baseline, on, **ci)
        baseline_column = on if on is not None else _baseline_column(crossings, cols, baseline)
        for entry in groups.values():
            if entry["group"][baseline_column] != baseline:
                entry["speedup"] = entry["speedup"] or {}
        for row in speedups.to_dict("records"):
            groups[_key(row, cols)]["speedup"][cost] = {
                "ratio": row["ratio"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                **{k: row[k] for k in ("n_crossed", "n_runs", "n_crossed_baseline", "n_runs_baseline")},
            }
    summary = {
        "metric": metric,
        "threshold": threshold,
        "direction": direction,
        "group_by": cols,
        "baseline": baseline,
        "baseline_column": baseline_column,
        "final_window": final_window,
        "smoothing": smoother.as_dict(),
        "smoothing_text": smoother.describe(),
        "confidence": confidence,
        "n_resamples": n_resamples,
        "groups": list(groups.values()),
    }
    return to_jsonable(summary)


def _crossed_seeds(df: pd.DataFrame, metric: str, crossings: pd.DataFrame, cols: list[str], groups: dict) -> None:
    """``crossed`` per group: how many runs reached the threshold, of how many, and their seeds (run ids
    where the table has no ``seed`` column); ``at_start``: the seeds already there at their first point,
    whose steps to the threshold (0) say nothing about training."""
    seeds = df.drop_duplicates("run_id").set_index("run_id")["seed"] if "seed" in df else None
    first = df[df.metric == metric].groupby("run_id")["step"].min()
    name = lambda ids: sorted((seeds[ids].tolist() if seeds is not None else ids.tolist()), key=str)  # noqa: E731
    for key, part in crossings.groupby(cols, dropna=False, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        ids = part.loc[part["crossed"], "run_id"]
        start = part.loc[part["crossed"] & (part["crossing"] == part["run_id"].map(first)), "run_id"]
        groups[_key(dict(zip(cols, key)), cols)]["crossed"] = {
            "n_crossed": int(part["crossed"].sum()), "n_runs": len(part), "seeds": name(ids), "at_start": name(start)}


def _baseline_column(crossings: pd.DataFrame, cols: list[str], baseline: Any) -> str:
    # speedup_vs has already checked that exactly one group column holds the baseline
    return next(c for c in cols if (crossings[c] == baseline).any())


def _key(row: Mapping[str, Any], cols: list[str]) -> tuple:
    return tuple(None if _missing(row[c]) else row[c] for c in cols)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _group_entry(row: Mapping[str, Any], cols: list[str]) -> dict[str, Any]:
    group = {c: None if _missing(row[c]) else row[c] for c in cols}
    return {
        "group": group,
        "label": "/".join(str(v) for v in group.values()) or "all",
        "n_seeds": row["n_runs"],
        "final": _interval(row, "n"),
        "to_threshold": {},
        "speedup": None,
        "peak_to_final_drop": None,
    }


def _interval(row: Mapping[str, Any], count: str, rename: Mapping[str, str] | None = None) -> dict[str, Any]:
    names = rename or {}
    return {
        "mean": row["mean"],
        "ci_low": row["ci_low"],
        "ci_high": row["ci_high"],
        names.get(count, count): row[count],
    }


def to_jsonable(obj: Any) -> Any:
    """Copy of ``obj`` with numpy scalars as Python numbers, tuples as lists and NaN/inf as ``None``."""
    if isinstance(obj, Mapping):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def collect_meta(command: str, repo_dir: str | Path | None = None) -> dict[str, str]:
    """The provenance lines a report needs: command, git SHA (``-dirty`` with local changes), UTC date,
    machine. A missing git checkout gives ``"unknown"`` rather than failing a finished analysis."""
    cwd = Path(repo_dir) if repo_dir is not None else Path(__file__).resolve().parent
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, check=True
        )
        status = subprocess.run(
            ["git", "status", "--porcelain"], cwd=cwd, capture_output=True, text=True, check=True
        )
        git_sha = sha.stdout.strip() + ("-dirty" if status.stdout.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        git_sha = "unknown"
    return {
        "command": command,
        "git_sha": git_sha,
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.platform()}, {os.cpu_count()} CPUs)",
    }


def _cell(entry: Mapping[str, Any] | None, key: str = "mean", count: str | None = None) -> str:
    if entry is None:
        return MISSING
    text = interval(entry[key], entry["ci_low"], entry["ci_high"])
    if count is not None:
        text += f" ({entry[count]}/{entry['n_runs']})"
    return text


def _speed_cell(entry: Mapping[str, Any] | None) -> str:
    if entry is None:
        return MISSING
    counts = f"({entry['n_crossed']}/{entry['n_runs']} vs {entry['n_crossed_baseline']}/{entry['n_runs_baseline']} crossed)"
    return f"{speedup(entry['ratio'], entry['ci_low'], entry['ci_high'])} {counts}"


def summary_markdown(summary: Mapping[str, Any], meta: Mapping[str, Any],
                     labels: Mapping[str, str] | None = None) -> str:
    """A Markdown report: provenance lines from ``meta`` (``command``, ``git_sha``, ``date``,
    ``machine`` are required; other keys are listed too), the per-group table (groups by their
    display names, ``analysis.labels.group_key_label`` with ``labels``) and the rules used.
    ``meta["smoke"]`` (a sentence) marks a smoke report: "SMOKE" in the heading and the sentence
    under it."""
    missing = [k for k in REQUIRED_META if k not in meta]
    if missing:
        raise ValueError(
            f"meta lacks {missing}; a report needs {', '.join(REQUIRED_META)} (see collect_meta)"
        )
    metric, threshold, baseline = summary["metric"], summary["threshold"], summary["baseline"]
    smoke = meta.get("smoke")
    lines = [f"# SMOKE summary: {metric}" if smoke else f"# Summary: {metric}", ""]
    if smoke:
        lines += [f"> {smoke}", ""]
    lines += [f"- {k}: `{meta[k]}`" if k in CODE_META else f"- {k}: {meta[k]}" for k in REQUIRED_META]
    lines += [f"- {k}: `{v}`" if k in CODE_META else f"- {k}: {v}" for k, v in meta.items()
              if k not in REQUIRED_META and k != "smoke"]
    cmp = ">=" if summary["direction"] == "above" else "<="
    header = ["group", "seeds", f"first {metric}", f"final {metric}", "gain (final - first, by run)", "peak-to-final drop"]
    if threshold is not None:
        header += [
            f"steps to {cmp} {number(threshold)} (crossed/runs)",
            "wall s to threshold",
            "tokens to threshold",
        ]
        if baseline is not None:
            shown = group_label(baseline, summary.get("baseline_column"), labels)
            header += [f"speed-up vs {shown} (steps)", f"speed-up vs {shown} (wall s)"]
    lines += ["", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for group in summary["groups"]:
        row = [
            group_key_label(group["group"], labels),
            str(group["n_seeds"]),
            _cell(group.get("start")),
            _cell(group["final"]),
            _cell(group.get("gain")),
            _cell(group["peak_to_final_drop"]),
        ]
        if threshold is not None:
            to = group["to_threshold"]
            row += [
                _cell(to.get("step"), count="n_crossed"),
                _cell(to.get("time")),
                _cell(to.get("generated_tokens")),
            ]
            if baseline is not None:
                speed = group["speedup"]
                row += ["reference" if speed is None else _speed_cell(speed.get(c)) for c in ("step", "time")]
        lines.append("| " + " | ".join(row) + " |")
    conf = summary["confidence"]
    lines += [
        "",
        f"Intervals: {conf:.0%} percentile bootstrap over runs ({summary['n_resamples']} resamples); one run "
        "gives no interval. Curves smoothed per run with " + summary["smoothing_text"] + f"; final = mean of "
        f"the last {summary['final_window']} logged point(s), unsmoothed; first = the first logged point (step 0's "
        "evaluation for a held-out metric); gain = final - first of each run, then averaged.",
    ]
    if threshold is not None:
        lines.append(
            f"Threshold cost: first logged step (wall s, tokens) whose smoothed value is {cmp} {number(threshold)}, "
            "no interpolation; means over the runs that crossed. Speed-up = mean baseline cost / mean group "
            "cost over crossing runs, groups resampled independently."
        )
        early = {group_key_label(g["group"], labels): g["crossed"]["at_start"] for g in summary["groups"]
                 if (g.get("crossed") or {}).get("at_start")}
        if early:
            lines.append(f"**Crossed at their first logged point**, with no training: seeds "
                         f"{'; '.join(f'{k}: {v}' for k, v in early.items())}. A threshold above every seed's "
                         "first value would leave them out.")
    return "\n".join(lines) + "\n"
