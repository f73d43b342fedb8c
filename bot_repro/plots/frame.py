"""The frame every figure shares, and the numbers table below its panels: ``finish_figure`` gives a
figure its title in words (``SMOKE_TITLE`` first for smoke runs) wrapped to the figure's width, one
legend right of the panels (where it covers no data), a caption line saying what the lines are
(``curve_caption``), rates on [0, 1] and integer step ticks; ``numbers_table`` writes the figure's
numbers in the strip ``panel_grid(table_rows=...)`` keeps below the panels (``table_axes``), never on
the axes.

Like ``curves``, it reads only DataFrames and plain values.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.legend import Legend
from matplotlib.table import Table
from matplotlib.text import Text
from matplotlib.textpath import TextToPath
from matplotlib.ticker import MaxNLocator

from bot_repro.analysis.smoothing import DEFAULT_SMOOTHING, SmoothingArg, as_smoothing
from bot_repro.plots.style import RATE_YLIM

SMOKE_TITLE = "SMOKE: tiny random model"
CAPTION_FONTSIZE = 7
TABLE_FONTSIZE = 7
TABLE_PAD_INCHES = 0.15  # a cell's left and right padding together
TABLE_MARGIN_INCHES = 0.8  # the y axis label and ticks left of the table strip
TABLE_ROW_INCHES = 0.19  # one table row at TABLE_FONTSIZE, with its padding
TABLE_LABEL = "numbers table"


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
