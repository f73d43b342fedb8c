"""Drawing helpers for every figure: mean curves with interval bands, threshold lines, the paper's
reported points, bar charts with intervals, panel grids, and ``finish_figure``, which gives every
figure the same frame: a title in words (``SMOKE: tiny random model`` first for smoke runs), a caption
line saying what the lines and bands are (``curve_caption``), rates on [0, 1], integer step ticks, and
one legend below the panels, where it covers no data.

They read only DataFrames (the outputs of ``bot_repro.analysis.stats``) and plain values, never a
logger service or the network, so a figure can be rebuilt from run directories alone.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from bot_repro.analysis.smoothing import DEFAULT_SMOOTHING, SmoothingArg, as_smoothing
from bot_repro.plots.style import (
    HIGHLIGHT,
    RATE_YLIM,
    apply_style,
    colors_for,
    display_name,
    linestyles_for,
    marker_for,
)

STAT_COLUMNS = ("mean", "ci_low", "ci_high", "n_seeds")
MISSING = "n/a"  # how a missing group value (a config key a run lacks) is shown
PAPER_MARKER = {"marker": "*", "s": 70, "edgecolors": "black", "linewidths": 0.5, "zorder": 5}
# the legend entry of paper markers drawn in their curves' colours
PAPER_HANDLE = {"linestyle": "none", "marker": "*", "markersize": 10, "markerfacecolor": "0.75",
                "markeredgecolor": "black", "markeredgewidth": 0.5}
MARKED_POINTS = 30  # curves with at most this many points get point markers (evaluations are sparse)
SMOKE_TITLE = "SMOKE: tiny random model"
CAPTION_FONTSIZE = 7


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
    markers: bool | None = None,
) -> list[Line2D]:
    """One mean line (and, where an interval exists, a CI band) per ``hue`` (x ``style``) value.

    ``agg`` is an ``aggregate_curves`` table. Colours come from ``colors_for`` (fixed per algorithm);
    ``style`` picks line styles per value of a second column. Any other group column must hold a single
    value: several would overlay unrelated curves, so filter the table or draw one panel per value.
    ``label_fn`` maps ``{hue: value[, style: value]}`` to legend text. ``markers`` marks each point
    (an algorithm's own marker); by default only curves of at most ``MARKED_POINTS`` points are
    marked. BoT-GRPO's line is a little thicker and drawn on top. Returns the lines.
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
        mark = markers if markers is not None else len(part) <= MARKED_POINTS
        highlight = key[hue] == HIGHLIGHT
        (line,) = ax.plot(
            part[x], part["mean"], color=color, linestyle=styles.get(key.get(style), "-"), label=label_fn(key),
            marker=marker_for(key[hue]) if mark else None, markersize=4,
            linewidth=2.2 if highlight else 1.6, zorder=3 if highlight else 2,
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

    ``points`` is either ``[(x, y), ...]`` (light grey stars edged in black) or ``{group value: [(x, y), ...]}``: each group
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
    return [ax.scatter(*_xy(points, "paper points"), color="0.75", label=label, **PAPER_MARKER)]  # seen on any bar


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


# -- the frame every figure shares ----------------------------------------------------------------------


def smoke_title(title: str) -> str:
    """The title of a figure drawn from smoke runs: says so first, keeps the real figure's title after."""
    return f"{SMOKE_TITLE}, not a result" + (f"\n{title}" if title else "")


def _seed_text(seeds: Sequence[Any]) -> str:
    values = sorted({int(s) for s in seeds if s is not None and not (isinstance(s, float) and math.isnan(s))})
    if not values:
        return "seed unknown"
    listed = ", ".join(map(str, values)) if len(values) <= 6 else f"{values[0]}-{values[-1]}"
    return f"seed{'s' if len(values) > 1 else ''} {listed}"


def curve_caption(
    frame: pd.DataFrame,
    metrics: str | Sequence[str],
    group_by: str | Sequence[str],
    smoothing: SmoothingArg = DEFAULT_SMOOTHING,
    confidence: float = 0.95,
    extra: Iterable[str] = (),
) -> str:
    """One caption line for curves drawn from ``frame`` (a ``load_runs`` long table): how many seeds
    each curve averages (and which), what the band is, and the smoothing; ``extra`` sentences follow
    (threshold, paper markers, smoke)."""
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    cols = [group_by] if isinstance(group_by, str) else list(group_by)
    rows = frame[frame["metric"].isin(names)] if "metric" in frame else frame
    per_curve: list[int] = []
    seeds: list[Any] = []
    if len(rows):
        keys = [c for c in cols if c in rows.columns]
        runs = rows.drop_duplicates("run_id")
        counts = runs.groupby(keys, dropna=False)["run_id"].nunique() if keys else pd.Series([len(runs)])
        per_curve = sorted(set(int(n) for n in counts))
        seeds = list(runs["seed"]) if "seed" in runs else []
    if not per_curve:
        count = "no runs"
    elif len(per_curve) == 1:
        count = f"{per_curve[0]} seed{'s' if per_curve[0] > 1 else ''}"
    else:
        count = f"{per_curve[0]}-{per_curve[-1]} seeds"
    one_seed = per_curve == [1]
    band = "no band (one seed)" if one_seed else f"band: {confidence:.0%} bootstrap interval over seeds"
    smooth = as_smoothing(smoothing).describe()
    smooth = "unsmoothed" if smooth == "none" else f"each run smoothed with {smooth}"
    parts = [f"Mean of {count} per curve ({_seed_text(seeds)})", band, smooth]
    return "; ".join(parts) + "." + "".join(f" {e.rstrip('.')}." for e in extra if e)


def figure_legend(fig: Figure, axes: Sequence[Axes], handles_for: Mapping[str, Any] | None = None) -> Legend | None:
    """One legend for all panels, right of them (outside every axes, so it covers no data); entries
    are deduplicated by label and axes legends are removed; ``handles_for`` replaces the handle of a
    label (e.g. a neutral star for paper markers drawn in several colours). None when nothing is
    labelled."""
    handles: dict[str, Any] = {}
    for ax in axes:
        for handle, text in zip(*ax.get_legend_handles_labels()):
            if text and not text.startswith("_"):
                handles.setdefault(text, handle)
        if ax.get_legend() is not None:
            ax.get_legend().remove()
    if not handles:
        return None
    handles.update({k: v for k, v in (handles_for or {}).items() if k in handles})
    return fig.legend(list(handles.values()), list(handles), loc="outside right upper")


def set_rate_axis(ax: Axes) -> None:
    """y on exactly [0, 1] (ticks every 0.2); data drawn at 0 or 1 is not clipped by the frame."""
    ax.set_ylim(*RATE_YLIM)
    ax.set_yticks(np.linspace(0.0, 1.0, 6))
    for artist in [*ax.lines, *ax.collections]:
        artist.set_clip_on(False)


def finish_figure(
    fig: Figure,
    axes: Sequence[Axes],
    title: str,
    caption: str,
    *,
    smoke: bool = False,
    rate_axes: Sequence[Axes] | None = None,
    step_axes: Sequence[Axes] | None = None,
    legend: bool = True,
    legend_handles: Mapping[str, Any] | None = None,
) -> None:
    """The shared frame: ``title`` (after ``SMOKE_TITLE`` when ``smoke``), the figure legend below the
    panels, ``caption`` under it (wrapped to the figure width), [0, 1] on ``rate_axes`` and integer
    ticks on ``step_axes`` (default: every axes whose x label is ``step``); ``legend_handles`` as
    ``figure_legend``'s ``handles_for``."""
    for ax in rate_axes or ():
        set_rate_axis(ax)
    for ax in step_axes if step_axes is not None else [a for a in axes if a.get_xlabel() == "step"]:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 2.5, 5, 10]))
    width, height = fig.get_figwidth(), fig.get_figheight()  # the panels' size; title, legend, caption add to it
    if legend and (box := figure_legend(fig, axes, legend_handles)) is not None:
        extent = box.get_window_extent(fig.canvas.get_renderer())
        fig.set_figwidth(width + extent.width / fig.dpi + 0.15)
    text = smoke_title(title) if smoke else title
    title_lines = [wrapped for line in text.split("\n") for wrapped in textwrap.wrap(line, max(30, int(width * 13)))]
    fig.suptitle("\n".join(title_lines), x=0.5 * width / fig.get_figwidth())
    caption_lines = textwrap.wrap(caption, max(50, int(fig.get_figwidth() * 17))) if caption else []
    if caption_lines:
        fig.supxlabel("\n".join(caption_lines), fontsize=CAPTION_FONTSIZE, color="0.25", ha="left", x=0.01)
    fig.set_figheight(height + 0.2 * len(title_lines) + 0.13 * len(caption_lines))


def figure_caption(fig: Figure) -> str:
    """The caption ``finish_figure`` wrote, unwrapped (for tests and notebooks)."""
    return " ".join(fig.get_supxlabel().split())
