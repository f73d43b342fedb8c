"""Drawing helpers for every figure: mean curves over thin per-seed lines, threshold lines, the paper's
reported points, bar charts with intervals, panel grids with an optional numbers table below them, and
``finish_figure``, which gives every figure the same frame: a title in words (``SMOKE: tiny random
model`` first for smoke runs) wrapped to the figure's width, a caption line saying what the lines are
(``curve_caption``), rates on [0, 1], integer step ticks, and one legend right of the panels, where it
covers no data. Numbers go in the table (``numbers_table``), never on the axes.

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
from matplotlib.font_manager import FontProperties
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.table import Table
from matplotlib.text import Text
from matplotlib.textpath import TextToPath
from matplotlib.ticker import MaxNLocator

from bot_repro.analysis.smoothing import DEFAULT_SMOOTHING, SmoothingArg, as_smoothing
from bot_repro.plots.style import RATE_YLIM, GroupStyle, apply_style, display_name, group_styles

STAT_COLUMNS = ("mean", "ci_low", "ci_high", "n_seeds")
MISSING = "n/a"  # how a missing group value (a config key a run lacks) is shown
PAPER_MARKER = {"marker": "*", "s": 70, "edgecolors": "black", "linewidths": 0.5, "zorder": 5}
# the legend entry of paper markers drawn in their curves' colours
PAPER_HANDLE = {"linestyle": "none", "marker": "*", "markersize": 10, "markerfacecolor": "0.75",
                "markeredgecolor": "black", "markeredgewidth": 0.5}
MARKED_POINTS = 30  # curves with at most this many points get point markers (evaluations are sparse)
SMOKE_TITLE = "SMOKE: tiny random model"
CAPTION_FONTSIZE = 7
TABLE_FONTSIZE = 7
TABLE_PAD_INCHES = 0.15  # a cell's left and right padding together
TABLE_MARGIN_INCHES = 0.8  # the y axis label and ticks left of the table strip
TABLE_ROW_INCHES = 0.19  # one table row at TABLE_FONTSIZE, with its padding
SEED_LINE = {"linewidth": 0.7, "alpha": 0.45, "zorder": 1.5}  # thin, under the mean lines
TABLE_LABEL = "numbers table"
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


def table_axes(fig: Figure) -> Axes | None:
    """The strip ``panel_grid(table_rows=...)`` kept for the numbers table (None without one)."""
    return next((ax for ax in fig.axes if ax.get_label() == TABLE_LABEL), None)


def column_widths(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[float]:
    """The width in inches each column of a ``numbers_table`` needs at ``TABLE_FONTSIZE`` (bold
    header), with the cell padding."""
    plain, bold = FontProperties(size=TABLE_FONTSIZE), FontProperties(size=TABLE_FONTSIZE, weight="bold")
    measure = TextToPath()

    def inches(text: str, font: FontProperties) -> float:
        return measure.get_text_width_height_descent(text, font, ismath=False)[0] / 72.0

    return [max([inches(col[0], bold)] + [inches(c, plain) for c in col[1:]]) + TABLE_PAD_INCHES
            for col in zip(header, *rows)]


def numbers_table(fig: Figure, header: Sequence[str], rows: Sequence[Sequence[str]],
                  colors: Sequence[str] | None = None) -> Table:
    """The figure's numbers as a table in its ``table_axes`` strip, below the panels (never on them):
    ``header`` and ``rows`` of text (format them with ``bot_repro.analysis.formats``); the first cell
    of row i is written in ``colors[i]`` (its curve's colour)."""
    ax = table_axes(fig)
    if ax is None:
        raise ValueError("the figure has no table strip; make it with panel_grid(table_rows=len(rows))")
    if any(len(r) != len(header) for r in rows):
        raise ValueError(f"every table row needs {len(header)} cells ({list(header)}), got {[len(r) for r in rows]}")
    table = ax.table(cellText=[list(r) for r in rows], colLabels=list(header), cellLoc="left", colLoc="left",
                     bbox=(0.0, 0.0, 1.0, 1.0), edges="horizontal")
    table.auto_set_font_size(False)
    table.set_fontsize(TABLE_FONTSIZE)
    widths = column_widths(header, rows)
    for (_, col), cell in table.get_celld().items():  # the bbox scales these to the strip's width
        cell.set_width(widths[col] / sum(widths))
    for (row, _), cell in table.get_celld().items():
        cell.set_edgecolor("0.8")
        if row == 0:
            cell.get_text().set_fontweight("bold")
    for i, color in enumerate(colors or []):
        table[i + 1, 0].get_text().set_color(color)
    return table


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
    band: bool = True,
    seed_lines: bool = False,
) -> str:
    """One caption line for curves drawn from ``frame`` (a ``load_runs`` long table): how many seeds
    each curve averages (and which), whether each seed is drawn thin under it (``seed_lines``), what
    the band is (``band``: drawn or not), and the smoothing; ``extra`` sentences follow (threshold,
    paper markers, smoke)."""
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
    if one_seed:
        band_text = "no band (one seed)"
    elif band:
        band_text = f"band: {confidence:.0%} bootstrap interval over seeds"
    else:
        band_text = "no bands (they would blend)"
    smooth = as_smoothing(smoothing).describe()
    smooth = "unsmoothed" if smooth == "none" else f"each run smoothed with {smooth}"
    lead = f"Mean of {count} per curve ({_seed_text(seeds)})"
    if seed_lines and not one_seed:
        lead = f"Thick lines: mean of {count} per curve ({_seed_text(seeds)}); thin lines: each seed"
    parts = [lead, band_text, smooth]
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
    # centred over the panels (the legend has the right margin) and wrapped to their measured width,
    # so no letter falls off an edge or runs into the legend
    heading = fig.suptitle(text, x=0.5 * width / fig.get_figwidth())
    title_lines = fit_text(fig, heading, text, 0.95 * width * fig.dpi)
    caption_lines = 0
    if caption:
        caption_lines = fit_text(fig, fig.supxlabel(caption, fontsize=CAPTION_FONTSIZE, color="0.25", ha="left",
                                                    x=0.01), caption, 0.95 * fig.bbox.width)
    fig.set_figheight(height + 0.2 * title_lines + 0.13 * caption_lines)


def fit_text(fig: Figure, artist: Text, text: str, room: float) -> int:
    """Wrap ``text`` into ``artist`` at the widest line length (found by bisection) whose rendered
    width is at most ``room`` pixels; returns the number of lines."""
    renderer = fig.canvas.get_renderer()
    paragraphs = text.split("\n")

    def wrapped(chars: int) -> str:
        return "\n".join(w for p in paragraphs for w in (textwrap.wrap(p, chars, break_on_hyphens=False) or [""]))

    def fits(chars: int) -> bool:
        artist.set_text(wrapped(chars))
        return artist.get_window_extent(renderer).width <= room

    low, high = 10, max(map(len, paragraphs))
    if fits(high):
        low = high
    while high - low > 1:  # fits(low) or low is the narrowest we wrap to
        mid = (low + high) // 2
        low, high = (mid, high) if fits(mid) else (low, mid)
    artist.set_text(wrapped(low))
    return artist.get_text().count("\n") + 1


def figure_caption(fig: Figure) -> str:
    """The caption ``finish_figure`` wrote, unwrapped (for tests and notebooks)."""
    return " ".join(fig.get_supxlabel().split())
