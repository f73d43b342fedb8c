"""The paper's figures from a figure's long table and its ``report.plot`` config block.

Four kinds cover docs/method.md §6: ``curves`` (one metric vs step per group, optionally one panel per value of
a column: figures 1, 3, 4, 6, 7, 9), ``metric_panels`` (one panel per metric: figures 5, 8),
``pairwise`` (win and tie rate per baseline: figure 2) and ``curves_drop`` (curves plus a bar chart of
the peak-to-final drop: figure 10). Curves are means over seeds with 95% bootstrap bands, computed by
``bot_repro.analysis``; the paper's own numbers (docs/method.md §1, one seed) are overlaid where it states them:
``points`` (step, value), ``final`` values or ``[low, high]`` ranges drawn at the last step, ``band``
ranges stated without steps (shaded), and ``drop`` values on the bars.

Every figure gets ``bot_repro.plots.curves.finish_figure``'s frame: the configured title (its
placeholders filled from the drawn runs, ``bot_repro.plots.titles``), a caption line
(seeds, band, smoothing), [0, 1] for rates, integer step ticks and one legend right of the panels; each
seed is drawn thin under its mean, a held-out point whose runs record their samples carries its own
interval (``bot_repro.plots.intervals``), and a study figure's numbers (steps to the threshold, speed-ups) go in
a table below the panels (``draw_with_note``), in ``bot_repro.analysis.formats``' one format. A figure
drawn from smoke runs (``smoke=True``, or any run whose config has ``smoke: true``) is titled
``SMOKE: tiny random model`` and carries no paper markers: those compare a real run with the paper.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from bot_repro.analysis import aggregate_curves, group_ci, peak_to_final_drops, run_curves
from bot_repro.analysis.formats import interval, speedup
from bot_repro.analysis.labels import value_text
from bot_repro.config_schema import ConfigError, build_options
from bot_repro.plots import intervals
from bot_repro.plots.curves import (
    MAX_BANDS,
    PAPER_HANDLE,
    PAPER_MARKER,
    TABLE_MARGIN_INCHES,
    bar_with_ci,
    column_widths,
    curve_caption,
    finish_figure,
    numbers_table,
    panel_grid,
    plot_curves,
    threshold_line,
)
from bot_repro.plots.style import GroupStyle, display_name, group_styles, is_rate, save
from bot_repro.plots.titles import fill_title

KINDS = ("curves", "metric_panels", "pairwise", "curves_drop")
RATE_RANGES = ("unit", "data")
PAPER_LABEL = "paper, 1 seed"
SMOKE_COLUMN = "smoke"  # the run config key debug=smoke sets
TINY_PREFIX = "tiny_"


@dataclass
class PaperCfg:
    """The paper's numbers for one panel (docs/method.md §1); group keys are values of the plot's ``hue``."""

    claim: str = ""
    points: dict[str, list[list[float]]] = field(default_factory=dict)  # group -> [[step, value], ...]
    final: dict[str, Any] = field(default_factory=dict)  # group -> value or [low, high], at the last step
    band: list[float] | None = None  # [low, high] stated over training without steps
    drop: dict[str, float] = field(default_factory=dict)  # group -> peak-to-final drop (curves_drop)

    def __post_init__(self) -> None:
        self.points = {_text(k): v for k, v in self.points.items()}
        self.final = {_text(k): v for k, v in self.final.items()}
        self.drop = {_text(k): v for k, v in self.drop.items()}
        if self.band is not None and len(self.band) != 2:
            raise ValueError(f"paper band must be [low, high], got {self.band}")
        for group, value in self.final.items():
            if isinstance(value, list) and len(value) != 2:
                raise ValueError(f"paper final value of {group!r} must be a number or [low, high], got {value}")


@dataclass
class PlotCfg:
    """``report.plot`` of an experiment config."""

    kind: str
    metric: str | None = None  # curves, pairwise, curves_drop
    metrics: list[str] = field(default_factory=list)  # metric_panels: one panel each
    tie_metric: str | None = None  # pairwise: drawn dotted under the win rate
    hue: str = "algorithm.name"  # the column whose values are the lines
    panels: str | None = None  # a column whose values are the panels (curves, pairwise)
    panel_order: list[Any] | None = None
    labels: dict[str, str] = field(default_factory=dict)  # value -> legend or panel title
    threshold: float | None = None  # dashed line; also the crossing threshold of the summary
    thresholds: dict[str, float] = field(default_factory=dict)  # metric_panels: metric -> its own threshold
    baseline: Any = None  # hue value the summary's speed-ups compare against
    ylabel: str = ""
    ylim: list[float] | None = None  # [low, high], e.g. [0, 1] for rates
    rates: str = "unit"  # rate panels on [0, 1] (unit), or each on its own data's range within it (data)
    title: str = ""  # may name measured numbers as placeholders, {step0:METRIC} and {seeds} (plots.titles)
    paper: dict[str, Any] = field(default_factory=dict)  # a PaperCfg, or panel -> PaperCfg with panels

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind={self.kind!r}; allowed: {', '.join(KINDS)}")
        if self.kind == "metric_panels" and not self.metrics:
            raise ValueError("kind metric_panels needs a non-empty `metrics` list")
        if self.kind != "metric_panels" and not self.metric:
            raise ValueError(f"kind {self.kind} needs `metric`")
        unknown = sorted(set(self.thresholds) - set(self.panel_metrics))
        if unknown:
            raise ValueError(f"thresholds names {unknown}, which are not among the plotted metrics {self.panel_metrics}")
        if self.rates not in RATE_RANGES:
            raise ValueError(f"rates={self.rates!r}; allowed: {', '.join(RATE_RANGES)}")
        if self.ylim is not None and len(self.ylim) != 2:
            raise ValueError(f"ylim must be [low, high], got {self.ylim}")
        self.labels = {_text(k): str(v) for k, v in self.labels.items()}  # YAML reads 0.5: ... as a float key

    def threshold_for(self, metric: str) -> float | None:
        """The crossing threshold (and dashed line) of ``metric``: its own in ``thresholds``, else ``threshold``."""
        return self.thresholds.get(metric, self.threshold)

    @property
    def columns(self) -> list[str]:
        """The table columns this plot groups by."""
        return list(dict.fromkeys(c for c in (self.panels, self.hue) if c))

    @property
    def panel_metrics(self) -> list[str]:
        return list(self.metrics) if self.kind == "metric_panels" else [str(self.metric)]

    def label(self, value: Any, column: str | None = None) -> str:
        """The display name of a value of ``column`` (default: the hue column): ``labels`` first."""
        text = _text(value)
        if text not in self.labels and text.startswith(TINY_PREFIX) and text[len(TINY_PREFIX):] in self.labels:
            return f"tiny {self.labels[text[len(TINY_PREFIX):]]}"  # a smoke run's tiny stand-in of a model
        return display_name(value, column or self.hue, self.labels)

    def styles(self, values: Any) -> dict[Any, GroupStyle]:
        """Colour, marker, line style and display name of each hue value of one figure."""
        return group_styles(values, self.hue, self.labels)

    def paper_for(self, panel: Any) -> PaperCfg:
        """The paper numbers of a panel (``panel`` is None for single-panel figures)."""
        per_panel = self.kind == "metric_panels" or self.panels is not None
        by_text = {_text(k): v for k, v in self.paper.items()}
        raw = by_text.get(_text(panel), {}) if per_panel else self.paper
        return build_options(PaperCfg, raw, f"plot.paper{'.' + _text(panel) if per_panel else ''}")


def plot_config(raw: Mapping[str, Any] | None, where: str) -> PlotCfg:
    if not raw:
        raise ConfigError(f"{where} is missing: the experiment config must say how to draw its figure")
    return build_options(PlotCfg, dict(raw), where)


_text = value_text  # config keys are strings; table values may be numbers (w_s 0.5, window 3)


def _panel_values(frame: pd.DataFrame, cfg: PlotCfg) -> list[Any]:
    if cfg.kind == "metric_panels":
        return list(cfg.metrics)
    if cfg.panels is None:
        return [None]
    present = [v for v in frame[cfg.panels].dropna().unique()] if cfg.panels in frame else []
    if cfg.panel_order:
        by_text = {_text(v): v for v in present}
        order = [by_text.get(_text(o), by_text.get(TINY_PREFIX + _text(o), o)) for o in cfg.panel_order]
        return order + [v for v in present if _text(v) not in {_text(o) for o in order}]
    return sorted(present, key=_text)


def _panel_rows(frame: pd.DataFrame, cfg: PlotCfg, panel: Any) -> tuple[pd.DataFrame, str]:
    if cfg.kind == "metric_panels":
        return frame, str(panel)
    if panel is None:
        return frame, str(cfg.metric)
    return frame[frame[cfg.panels].map(_text) == _text(panel)], str(cfg.metric)


def _no_data(ax: Axes, metric: str) -> None:
    ax.text(0.5, 0.5, f"no data for\n{metric}", ha="center", va="center", transform=ax.transAxes, color="0.4")


def _curves(ax: Axes, rows: pd.DataFrame, metric: str, cfg: PlotCfg, styles: dict[Any, GroupStyle],
            band: bool) -> pd.DataFrame | None:
    """Draw ``metric``'s curves; returns the held-out points' intervals where it drew them
    (``bot_repro.plots.intervals``), else None."""
    if rows.empty or not (rows["metric"] == metric).any():
        _no_data(ax, metric)
        return None
    # pairwise panels hold one baseline each (the panel title): the line is the win rate
    label_fn = (lambda key: "win rate") if cfg.kind == "pairwise" else (lambda key: styles[key[cfg.hue]].label)
    if not intervals.has_counts(rows, metric):
        plot_curves(ax, aggregate_curves(rows, metric, [cfg.hue]), hue=cfg.hue, label_fn=label_fn,
                    runs=run_curves(rows, metric, [cfg.hue]), styles=styles, band=band)
        return None
    agg = aggregate_curves(rows, metric, [cfg.hue], smoothing=None)
    bars = intervals.point_intervals(rows, metric, cfg.hue, agg)
    steps = rows.loc[rows["metric"] == metric, "step"]
    shift = intervals.dodge(agg[cfg.hue], float(steps.max() - steps.min()) or 1.0)
    runs = run_curves(rows, metric, [cfg.hue], smoothing=None)
    for table in (agg, runs, bars):  # nudged apart, so one arm's bar does not hide another's
        table["step"] = table["step"] + table[cfg.hue].map(shift).fillna(0.0)
    plot_curves(ax, agg, hue=cfg.hue, label_fn=label_fn, runs=runs, styles=styles, band=False, markers=True)
    for value, part in bars[np.isfinite(bars["low"])].groupby(cfg.hue, sort=True):
        ax.errorbar(part["step"], part["mean"], yerr=intervals.bars_yerr(part), fmt="none",
                    ecolor=styles[value].color, elinewidth=1.0, capsize=3, zorder=2.5)
    return bars


def _overlay_paper(ax: Axes, paper: PaperCfg, colors: Mapping[Any, str], last_x: float) -> None:
    by_text = {_text(v): c for v, c in colors.items()}
    labelled = False

    def label() -> str | None:
        nonlocal labelled
        first, labelled = not labelled, True
        return PAPER_LABEL if first else None

    for group, points in paper.points.items():
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        ax.scatter(pts[:, 0], pts[:, 1], color=by_text.get(_text(group), "black"), label=label(), **PAPER_MARKER)
    for group, value in paper.final.items():
        color = by_text.get(_text(group), "black")
        if isinstance(value, list):
            low, high = float(value[0]), float(value[1])
            ax.errorbar([last_x], [(low + high) / 2], yerr=[[(high - low) / 2]], color=color, capsize=4,
                        linewidth=1.2, zorder=5)
            ax.scatter([last_x], [(low + high) / 2], color=color, label=label(), **PAPER_MARKER)
        else:
            ax.scatter([last_x], [float(value)], color=color, label=label(), **PAPER_MARKER)
    if paper.band is not None:
        ax.axhspan(float(paper.band[0]), float(paper.band[1]), color="0.5", alpha=0.15, linewidth=0,
                   label=f"paper range, 1 seed ({paper.claim})" if paper.claim else "paper range, 1 seed")


def _pairwise_ties(ax: Axes, rows: pd.DataFrame, cfg: PlotCfg) -> None:
    if cfg.tie_metric and (rows["metric"] == cfg.tie_metric).any():
        ties = aggregate_curves(rows, cfg.tie_metric, [cfg.hue])
        for _, part in ties.groupby(cfg.hue):
            part = part.sort_values("step")
            ax.plot(part["step"], part["mean"], color="0.35", linestyle=":", marker=".", label="tie rate")


def _drop_bars(ax: Axes, frame: pd.DataFrame, cfg: PlotCfg) -> None:
    metric = str(cfg.metric)
    if frame.empty or not (frame["metric"] == metric).any():
        _no_data(ax, metric)
        return
    drops = group_ci(peak_to_final_drops(frame, metric, [cfg.hue]), "drop", [cfg.hue])
    paper = cfg.paper_for(None).drop
    present = {_text(v): v for v in drops[cfg.hue]}
    paper_bars = {present[k]: v for k, v in paper.items() if k in present}
    bar_with_ci(ax, drops, x=cfg.hue, label_fn=cfg.label, paper=paper_bars or None, paper_label=PAPER_LABEL)
    ax.set_ylabel("peak-to-final drop")
    ax.set_ylim(bottom=0.0)
    ax.tick_params(axis="x", labelrotation=20)


def is_smoke(frame: pd.DataFrame) -> bool:
    """Whether any run of ``frame`` is a smoke run (its config says ``smoke: true``)."""
    if SMOKE_COLUMN not in frame or frame.empty:
        return False
    return bool(frame[SMOKE_COLUMN].fillna(False).astype(bool).any())


def caption(frame: pd.DataFrame, cfg: PlotCfg, smoke: bool, paper_drawn: bool, band: bool = True,
            table: str = "", bars: str = "") -> str:
    """The caption line of a figure: seeds, band and smoothing, then what the other marks are, ``bars``
    (what the held-out points' error bars are) and ``table`` (how the numbers table was computed)."""
    extra = [bars, table]
    if cfg.kind == "pairwise" and cfg.tie_metric:
        extra.append("Win rate: ties count half a win")
    if cfg.kind == "curves_drop":
        extra.append("Bars: mean peak-to-final drop of the smoothed curves, 95% bootstrap interval")
    if cfg.rates == "data":
        extra.append("Each rate panel spans its own data's range, not [0, 1]")
    if smoke:
        extra.append("Smoke run (tiny random-init model, a few steps): the paper's numbers are left out")
    elif paper_drawn:
        extra.append("Stars (with ranges) and grey bands: the paper's numbers, one seed (docs/method.md §1)")
    group = [c for c in (cfg.panels, cfg.hue) if c]
    return curve_caption(frame, cfg.panel_metrics, group, extra=extra, band=band, seed_lines=True)


def draw(frame: pd.DataFrame, cfg: PlotCfg, smoke: bool | None = None,
         summary: dict[str, Any] | None = None) -> plt.Figure:
    """The figure for ``frame`` (a figure's long table) drawn as ``cfg`` says; ``smoke`` (default:
    read from the runs' configs) labels it as a smoke figure and leaves the paper's numbers out;
    ``summary`` (a ``summarise`` result) puts ``crossing_table``'s numbers in a table below the panels."""
    smoke = is_smoke(frame) if smoke is None else smoke
    panels = _panel_values(frame, cfg)
    extra = 1 if cfg.kind == "curves_drop" else 0
    titles = [cfg.label(p, cfg.panels) if p is not None else "" for p in panels] + ["peak-to-final drop"] * extra
    styles = cfg.styles(frame[cfg.hue].dropna().unique() if cfg.hue in frame else [])
    table = crossing_table(summary, cfg, styles) if summary is not None else None
    n = len(panels) + extra
    # panels wide enough that the table below them fits at its font size
    panel_width = max(4.0, (sum(column_widths(*table[:2])) + TABLE_MARGIN_INCHES) / min(n, 3)) if table else 4.0
    fig, axes = panel_grid(n, titles=titles if any(titles) else None, sharey=cfg.kind != "curves_drop" and cfg.rates == "unit",
                           panel_size=(panel_width, 3.0), table_rows=len(table[1]) if table else 0)
    band = len(styles) <= MAX_BANDS
    last_x = float(frame["step"].max()) if len(frame) else 1.0
    rate_axes, paper_drawn, bars = [], False, []
    for ax, panel in zip(axes, panels):
        rows, metric = _panel_rows(frame, cfg, panel)
        if (drawn := _curves(ax, rows, metric, cfg, styles, band)) is not None:
            bars.append((metric, drawn))
        ax.set_xlabel("step")
        if cfg.kind == "pairwise":
            _pairwise_ties(ax, rows, cfg)
        if (threshold := cfg.threshold_for(metric)) is not None:
            label = f"{threshold:g}: no preference" if cfg.kind == "pairwise" else f"{threshold:g} threshold"
            threshold_line(ax, threshold, label=label)
        if not smoke:
            paper = cfg.paper_for(panel)
            _overlay_paper(ax, paper, {v: st.color for v, st in styles.items()}, last_x)
            paper_drawn = paper_drawn or bool(paper.points or paper.final or paper.band is not None)
        if cfg.ylim is not None:
            ax.set_ylim(*cfg.ylim)
        elif is_rate(metric) and cfg.rates == "data":  # matplotlib's own margins around what is drawn, inside [0, 1]
            low, high = ax.get_ylim()
            ax.set_ylim(max(low, 0.0), min(high, 1.0))
        elif is_rate(metric):
            rate_axes.append(ax)
    axes[0].set_ylabel(cfg.ylabel or str(cfg.metric or ""))
    if extra:
        drop_cfg = cfg if not smoke else replace(cfg, paper={})
        _drop_bars(axes[-1], frame, drop_cfg)
        paper_drawn = paper_drawn or (not smoke and bool(cfg.paper_for(None).drop))
    if table:
        numbers_table(fig, *table)
    title = fill_title(cfg.title, frame, cfg.columns) if cfg.title else \
        f"{cfg.ylabel or cfg.metric or ', '.join(cfg.metrics)} vs step"
    notes = caption(frame, cfg, smoke, paper_drawn, band, table_caption(summary, cfg) if table else "",
                    intervals.interval_caption(bars))
    finish_figure(fig, axes, title, notes, smoke=smoke,
                  rate_axes=rate_axes, step_axes=axes[: len(panels)],
                  legend_handles={PAPER_LABEL: Line2D([], [], **PAPER_HANDLE)})
    return fig


def draw_and_save(frame: pd.DataFrame, cfg: PlotCfg, path_without_suffix: str | Path,
                  smoke: bool | None = None) -> list[Path]:
    """``draw`` then write PNG + PDF (``bot_repro.plots.style.save``); returns both paths."""
    fig = draw(frame, cfg, smoke)
    try:
        return save(fig, path_without_suffix)
    finally:
        plt.close(fig)


def crossing_table(summary: dict[str, Any], cfg: PlotCfg,
                   styles: dict[Any, GroupStyle] | None = None) -> tuple[list[str], list[list[str]], list[str]]:
    """The numbers of a ``summarise`` result as (header, rows, row colours) for ``numbers_table``: per
    group its display name, seeds, final value, steps to the threshold (mean [95% CI] over the runs
    that crossed) with the runs that crossed, and the speed-up over the baseline with its interval."""
    cost = "step"
    styles = styles or cfg.styles([g["group"].get(cfg.hue) for g in summary["groups"]])
    header = ["group", "seeds", "final [95% CI]", f"steps to {summary['threshold']:g} [95% CI]", "crossed",
              "speed-up [95% CI]"]
    rows, colors = [], []
    for g in summary["groups"]:
        value = g["group"].get(cfg.hue)
        look = styles.get(value)
        to = (g.get("to_threshold") or {}).get(cost) or {}
        final = g.get("final") or {}
        sp = (g.get("speedup") or {}).get(cost)
        speed = "reference (1.00×)" if g.get("speedup") is None else (
            speedup(sp.get("ratio"), sp.get("ci_low"), sp.get("ci_high")) if sp else speedup(None))
        rows.append([
            look.label if look else cfg.label(value),
            str(g.get("n_seeds")),
            interval(final.get("mean"), final.get("ci_low"), final.get("ci_high")),
            interval(to.get("mean"), to.get("ci_low"), to.get("ci_high")),
            f"{to.get('n_crossed', 0)}/{to.get('n_runs', g.get('n_seeds'))}",
            speed,
        ])
        colors.append(look.color if look else "black")
    return header, rows, colors


def table_caption(summary: dict[str, Any], cfg: PlotCfg) -> str:
    """The caption sentence that says how ``crossing_table``'s numbers were computed."""
    baseline = summary.get("baseline")
    thr = f"{summary['threshold']:g}"
    text = (f"Table: final = last held-out value; steps to {thr} = first smoothed crossing, mean over the runs "
            f"that crossed; 95% bootstrap intervals over runs")
    if baseline is not None:
        text += f"; speed-up = {cfg.label(baseline)}'s mean steps to {thr} / the group's"
    return text


def draw_with_note(frame: pd.DataFrame, cfg: PlotCfg, summary: dict[str, Any], path_without_suffix: str | Path,
                   smoke: bool | None = None) -> list[Path]:
    """``draw_and_save`` with ``crossing_table(summary)`` in a table below the panels."""
    fig = draw(frame, cfg, smoke, summary=summary)
    try:
        return save(fig, path_without_suffix)
    finally:
        plt.close(fig)
