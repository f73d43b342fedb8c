"""Drawing helpers for every figure: mean curves with interval bands, threshold lines, the paper's
reported points, bar charts with intervals, and panel grids.

They read only DataFrames (the outputs of ``bot_repro.analysis.stats``) and plain values, never a
logger service or the network, so a figure can be rebuilt from run directories alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from bot_repro.plots.style import apply_style, colors_for, display_name, linestyles_for

STAT_COLUMNS = ("mean", "ci_low", "ci_high", "n_seeds")
MISSING = "n/a"  # how a missing group value (a config key a run lacks) is shown
PAPER_MARKER = {"marker": "*", "s": 70, "edgecolors": "black", "linewidths": 0.5, "zorder": 5}


def _default_label(key: Mapping[str, Any]) -> str:
    return ", ".join(display_name(v) for v in key.values())


def plot_curves(
    ax: Axes,
    agg: pd.DataFrame,
    x: str = "step",
    hue: str = "algorithm.name",
    style: str | None = None,
    label_fn: Callable[[dict[str, Any]], str] | None = None,
    band: bool = True,
    band_alpha: float = 0.2,
) -> list[Line2D]:
    """One mean line (and, where an interval exists, a CI band) per ``hue`` (x ``style``) value.

    ``agg`` is an ``aggregate_curves`` table. Colours come from ``colors_for`` (fixed per algorithm);
    ``style`` picks line styles per value of a second column. Any other group column must hold a single
    value: several would overlay unrelated curves, so filter the table or draw one panel per value.
    ``label_fn`` maps ``{hue: value[, style: value]}`` to legend text. Returns the lines.
    """
    keys = [hue] + ([style] if style else [])
    missing = [c for c in (x, *keys, "mean", "ci_low", "ci_high") if c not in agg.columns]
    if missing:
        raise ValueError(f"column(s) {missing} not in the curve table; columns: {list(agg.columns)}")
    for col in agg.columns:
        if col not in (x, *keys, *STAT_COLUMNS) and agg[col].nunique(dropna=False) > 1:
            raise ValueError(
                f"the curve table has several values of {col!r} ({sorted(map(str, agg[col].unique()))}); "
                "filter it, pass it as hue/style, or draw one panel per value"
            )
    table = agg.copy()
    for col in keys:
        table[col] = table[col].astype(object).where(table[col].notna(), MISSING)
    colors = colors_for(table[hue])
    styles = linestyles_for(table[style]) if style else {}
    label_fn = label_fn or _default_label
    lines = []
    for key_values, part in table.groupby(keys, sort=True):
        key = dict(zip(keys, key_values))
        part = part.sort_values(x)
        color = colors[key[hue]]
        (line,) = ax.plot(
            part[x], part["mean"], color=color, linestyle=styles.get(key.get(style), "-"), label=label_fn(key)
        )
        lines.append(line)
        low, high = part["ci_low"].to_numpy(dtype=float), part["ci_high"].to_numpy(dtype=float)
        if band and np.isfinite(low).any():
            ax.fill_between(
                part[x].to_numpy(dtype=float), low, high, color=color, alpha=band_alpha, linewidth=0
            )
    ax.set_xlabel(x.replace("_", " "))
    return lines


def threshold_line(ax: Axes, y: float, label: str | None = None) -> Line2D:
    """A dashed grey horizontal line at ``y`` (e.g. the 80% compile-rate threshold)."""
    return ax.axhline(y, color="0.45", linestyle="--", linewidth=1.0, label=label, zorder=1)


def _xy(points: Any, what: str) -> tuple[np.ndarray, np.ndarray]:
    array = np.asarray(points, dtype=float)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"{what} must be a sequence of (x, y) pairs, got shape {array.shape}")
    return array[:, 0], array[:, 1]


def paper_markers(
    ax: Axes,
    points: Mapping[Any, Sequence[tuple[float, float]]] | Sequence[tuple[float, float]],
    label: str = "paper, 1 seed",
) -> list[PathCollection]:
    """Star markers for numbers the paper reports (one seed), to set beside our intervals.

    ``points`` is either ``[(x, y), ...]`` (black stars) or ``{group value: [(x, y), ...]}``: each group
    in its curve colour, labelled ``"<name> (<label>)"``.
    """
    if isinstance(points, Mapping):
        colors = colors_for(points)
        return [
            ax.scatter(
                *_xy(pts, f"paper points of {name!r}"),
                color=colors[name],
                label=f"{display_name(name)} ({label})",
                **PAPER_MARKER,
            )
            for name, pts in points.items()
        ]
    return [ax.scatter(*_xy(points, "paper points"), color="black", label=label, **PAPER_MARKER)]


def bar_with_ci(
    ax: Axes,
    table: pd.DataFrame,
    x: str,
    mean: str = "mean",
    ci_low: str = "ci_low",
    ci_high: str = "ci_high",
    label_fn: Callable[[Any], str] = display_name,
    paper: Mapping[Any, float] | None = None,
    paper_label: str = "paper, 1 seed",
) -> BarContainer:
    """One bar per row of ``table`` (e.g. a ``group_ci`` table of peak-to-final drops) with its interval
    as an error bar (none where the interval is missing), coloured like the curves of the same group.

    ``paper`` maps values of ``x`` to the paper's numbers, drawn as stars on the bars.
    """
    missing = [c for c in (x, mean, ci_low, ci_high) if c not in table.columns]
    if missing:
        raise ValueError(f"column(s) {missing} not in the bar table; columns: {list(table.columns)}")
    names = table[x].tolist()
    heights = table[mean].to_numpy(dtype=float)
    below = heights - table[ci_low].to_numpy(dtype=float)
    above = table[ci_high].to_numpy(dtype=float) - heights
    errors = np.nan_to_num(np.vstack([below, above]), nan=0.0)
    colors = colors_for(names)
    positions = np.arange(len(names))
    bars = ax.bar(
        positions,
        heights,
        yerr=errors,
        capsize=3,
        color=[colors[n] for n in names],
        error_kw={"elinewidth": 1.0},
    )
    ax.set_xticks(positions, [label_fn(n) for n in names])
    ax.grid(axis="x", visible=False)  # vertical grid lines would cut through categorical bars
    if paper:
        unknown = [k for k in paper if k not in names]
        if unknown:
            raise ValueError(f"paper values for {unknown} have no bar; bars: {names}")
        paper_markers(ax, [(names.index(k), v) for k, v in paper.items()], label=paper_label)
    return bars


def panel_grid(
    n: int,
    ncols: int | None = None,
    panel_size: tuple[float, float] = (4.0, 3.0),
    sharex: bool = False,
    sharey: bool = True,
    titles: Sequence[str] | None = None,
) -> tuple[Figure, list[Axes]]:
    """A figure with ``n`` panels in the project style: one row up to three panels, then a near-square
    grid (4 -> 2x2, 5-6 -> 2x3); unused cells are removed. Returns the figure and the ``n`` axes."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"panel_grid needs n >= 1 panels, got {n!r}")
    if titles is not None and len(titles) != n:
        raise ValueError(f"got {len(titles)} titles for {n} panels")
    apply_style()
    ncols = ncols or (n if n <= 3 else math.ceil(math.sqrt(n)))
    nrows = math.ceil(n / ncols)
    fig, grid = plt.subplots(
        nrows,
        ncols,
        figsize=(panel_size[0] * ncols, panel_size[1] * nrows),
        squeeze=False,
        sharex=sharex,
        sharey=sharey,
    )
    axes = list(grid.ravel())
    for extra in axes[n:]:
        fig.delaxes(extra)
    for ax, title in zip(axes, titles or []):
        ax.set_title(title)
    return fig, axes[:n]
