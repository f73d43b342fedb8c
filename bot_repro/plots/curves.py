"""Drawing helpers for every figure: mean curves over thin per-seed lines, threshold lines, the paper's
reported points, bar charts with intervals, and panel grids with an optional strip for the numbers
table below them. The frame every figure shares (title, legend, caption, axes, the numbers table)
is ``bot_repro.plots.frame``'s; its public names are importable from here too, as before the split.

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

from bot_repro.plots.frame import (
    CAPTION_FONTSIZE,
    SMOKE_TITLE,
    TABLE_FONTSIZE,
    TABLE_LABEL,
    TABLE_MARGIN_INCHES,
    TABLE_PAD_INCHES,
    TABLE_ROW_INCHES,
    column_widths,
    curve_caption,
    figure_caption,
    figure_legend,
    finish_figure,
    fit_text,
    numbers_table,
    set_rate_axis,
    smoke_title,
    table_axes,
)
from bot_repro.plots.style import GroupStyle, apply_style, display_name, group_styles

__all__ = [
    "CAPTION_FONTSIZE",
    "MARKED_POINTS",
    "MAX_BANDS",
    "MISSING",
    "PAPER_HANDLE",
    "PAPER_MARKER",
    "SEED_LINE",
    "SMOKE_TITLE",
    "STAT_COLUMNS",
    "TABLE_FONTSIZE",
    "TABLE_LABEL",
    "TABLE_MARGIN_INCHES",
    "TABLE_PAD_INCHES",
    "TABLE_ROW_INCHES",
    "bar_with_ci",
    "column_widths",
    "curve_caption",
    "figure_caption",
    "figure_legend",
    "finish_figure",
    "fit_text",
    "numbers_table",
    "panel_grid",
    "paper_markers",
    "plot_curves",
    "set_rate_axis",
    "smoke_title",
    "table_axes",
    "threshold_line",
]

STAT_COLUMNS = ("mean", "ci_low", "ci_high", "n_seeds")
MISSING = "n/a"  # how a missing group value (a config key a run lacks) is shown
PAPER_MARKER = {"marker": "*", "s": 70, "edgecolors": "black", "linewidths": 0.5, "zorder": 5}
# the legend entry of paper markers drawn in their curves' colours
PAPER_HANDLE = {"linestyle": "none", "marker": "*", "markersize": 10, "markerfacecolor": "0.75",
                "markeredgecolor": "black", "markeredgewidth": 0.5}
MARKED_POINTS = 30  # curves with at most this many points get point markers (evaluations are sparse)
SEED_LINE = {"linewidth": 0.7, "alpha": 0.45, "zorder": 1.5}  # thin, under the mean lines
MAX_BANDS = 3  # more translucent bands than this blend into one colour: seed lines only


def _default_label(key: Mapping[str, Any]) -> str:
    return ", ".join(display_name(v, c) for c, v in key.items())


def plot_curves(
    ax: Axes,
    agg: pd.DataFrame,
    x: str = "step",
    hue: str = "algorithm.name",
    style: str | None = None,
    label_fn: Callable[[dict[str, Any]], str] | None = None,
    band: bool | None = None,
    band_alpha: float = 0.2,
    markers: bool | None = None,
    runs: pd.DataFrame | None = None,
    styles: Mapping[Any, GroupStyle] | None = None,
) -> list[Line2D]:
    """One mean line per ``hue`` (x ``style``) value, each seed of ``runs`` thin under it, and (by
    default only for at most ``MAX_BANDS`` curves) the CI band.

    ``agg`` is an ``aggregate_curves`` table and ``runs`` (optional) the ``run_curves`` table of the
    same runs. ``styles`` (default ``group_styles`` of the hue values) gives each hue value its colour,
    marker and line style; ``style`` picks line styles per value of a second column instead. Any other
    group column must hold a single value: several would overlay unrelated curves, so filter the table
    or draw one panel per value. ``label_fn`` maps ``{hue: value[, style: value]}`` to legend text.
    ``markers`` marks each point; by default only curves of at most ``MARKED_POINTS`` points are
    marked. A highlighted algorithm's line is a little thicker and drawn on top. Returns the lines.
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
    table = _fill_missing(agg, keys)
    looks = dict(styles) if styles is not None else group_styles(table[hue], hue)
    dashes = {v: s.linestyle for v, s in group_styles(table[style], style).items()} if style else {}
    label_fn = label_fn or _default_label
    groups = list(table.groupby(keys, sort=True))
    band = len(groups) <= MAX_BANDS if band is None else band
    seeds = _fill_missing(runs, keys) if runs is not None and len(runs) else None
    lines = []
    for key_values, part in groups:
        key = dict(zip(keys, key_values))
        part = part.sort_values(x)
        look = looks[key[hue]]
        dash = dashes.get(key.get(style), look.linestyle) if style else look.linestyle
        if seeds is not None:
            mine = seeds[(seeds[keys] == pd.Series(key)).all(axis=1)]
            for _, run in mine.groupby("run_id", sort=True):
                run = run.sort_values(x)
                ax.plot(run[x], run["y"], color=look.color, linestyle=dash, label="_seed", **SEED_LINE)
        mark = markers if markers is not None else len(part) <= MARKED_POINTS
        (line,) = ax.plot(
            part[x], part["mean"], color=look.color, linestyle=dash, label=label_fn(key),
            marker=look.marker if mark else None, markersize=4,
            linewidth=2.2 if look.highlight else 1.6, zorder=3 if look.highlight else 2,
        )
        lines.append(line)
        low, high = part["ci_low"].to_numpy(dtype=float), part["ci_high"].to_numpy(dtype=float)
        if band and np.isfinite(low).any():
            ax.fill_between(
                part[x].to_numpy(dtype=float), low, high, color=look.color, alpha=band_alpha, linewidth=0
            )
    ax.set_xlabel(x.replace("_", " "))
    return lines


def _fill_missing(frame: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    table = frame.copy()
    for col in keys:
        table[col] = table[col].astype(object).where(table[col].notna(), MISSING)
    return table


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

    ``points`` is either ``[(x, y), ...]`` (light grey stars edged in black) or ``{group value: [(x, y), ...]}``: each group
    in its curve colour, labelled ``"<name> (<label>)"``.
    """
    if isinstance(points, Mapping):
        looks = group_styles(points)
        return [
            ax.scatter(
                *_xy(pts, f"paper points of {name!r}"),
                color=looks[name].color,
                label=f"{looks[name].label} ({label})",
                **PAPER_MARKER,
            )
            for name, pts in points.items()
        ]
    return [ax.scatter(*_xy(points, "paper points"), color="0.75", label=label, **PAPER_MARKER)]  # seen on any bar


def bar_with_ci(
    ax: Axes,
    table: pd.DataFrame,
    x: str,
    mean: str = "mean",
    ci_low: str = "ci_low",
    ci_high: str = "ci_high",
    label_fn: Callable[[Any], str] | None = None,
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
    looks = group_styles(names, x)
    positions = np.arange(len(names))
    bars = ax.bar(
        positions,
        heights,
        yerr=errors,
        capsize=3,
        color=[looks[n].color for n in names],
        error_kw={"elinewidth": 1.0},
    )
    ax.set_xticks(positions, [label_fn(n) if label_fn else looks[n].label for n in names])
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
    table_rows: int = 0,
) -> tuple[Figure, list[Axes]]:
    """A figure with ``n`` panels in the project style: one row up to three panels, then a near-square
    grid (4 -> 2x2, 5-6 -> 2x3). With ``table_rows`` > 0 a full-width strip below the panels is kept
    for ``numbers_table`` (a header and that many rows; ``table_axes`` finds it). Returns the figure
    and the ``n`` panel axes."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"panel_grid needs n >= 1 panels, got {n!r}")
    if titles is not None and len(titles) != n:
        raise ValueError(f"got {len(titles)} titles for {n} panels")
    apply_style()
    ncols = ncols or (n if n <= 3 else math.ceil(math.sqrt(n)))
    nrows = math.ceil(n / ncols)
    table_h = (table_rows + 1) * TABLE_ROW_INCHES if table_rows else 0.0
    fig = plt.figure(figsize=(panel_size[0] * ncols, panel_size[1] * nrows + table_h))
    grid = fig.add_gridspec(nrows + bool(table_rows), ncols,
                            height_ratios=[panel_size[1]] * nrows + ([table_h] if table_rows else []))
    axes: list[Axes] = []
    for i in range(n):
        first = axes[0] if axes else None
        ax = fig.add_subplot(grid[i // ncols, i % ncols], sharex=first if sharex else None,
                             sharey=first if sharey else None)
        if sharey and i % ncols:
            ax.tick_params(labelleft=False)
        axes.append(ax)
    if table_rows:
        strip = fig.add_subplot(grid[nrows, :], label=TABLE_LABEL)
        strip.set_axis_off()
    for ax, title in zip(axes, titles or []):
        ax.set_title(title)
    return fig, axes
